// The /auth screen's search parameters; unknown or malformed values are ignored.
import * as z from "zod/mini";
import { searchFlag, searchText } from "@web/lib/search";

export const authSearchSchema = z.object({
  /** The 'Log in' panel. */
  login: searchFlag(),
  /** The full form on this tab. */
  tab: z.catch(z.optional(z.enum(["signin", "register"])), undefined),
  /** 'Confirm Your Email' for `email`, after registration. */
  confirm: searchFlag(),
  /** 'Email Confirmed!' for `email` ("I've Confirmed", or the emailed link). */
  confirmed: searchFlag(),
  /** 'Reset your password': asks for a recovery link ('Forgot password?' on the login panel). */
  forgot: searchFlag(),
  email: searchText(),
});

export type AuthSearch = z.output<typeof authSearchSchema>;
