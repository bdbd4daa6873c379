// The /auth screen's search parameters; unknown or malformed values are ignored.
import { searchEnum, searchFlag, searchSchema, searchText, type SearchOf } from "@web/lib/search";

const fields = {
  /** The 'Log in' panel. */
  login: searchFlag(),
  /** The full form on this tab. */
  tab: searchEnum(["signin", "register"]),
  /** 'Confirm Your Email' for `email`, after registration. */
  confirm: searchFlag(),
  /** 'Email Confirmed!' for `email` ("I've Confirmed", or the emailed link). */
  confirmed: searchFlag(),
  /** 'Reset your password': asks for a recovery link ('Forgot password?' on the login panel). */
  forgot: searchFlag(),
  email: searchText(),
  /**
   * The plan panel's form as /auth's first screen sent it, before the app had started (decision 033):
   * the panel goes on with `email` as if 'Continue with email' had been pressed in the app.
   */
  submitted: searchFlag(),
};

export const authSearchSchema = searchSchema(fields);

export type AuthSearch = SearchOf<typeof fields>;
