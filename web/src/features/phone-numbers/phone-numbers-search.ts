// The /phone-numbers screen's search parameters: which tab is open (default 'My numbers').
import * as z from "zod/mini";

export const PHONE_TABS = ["mine", "buy"] as const;
export type PhoneTab = (typeof PHONE_TABS)[number];

export const phoneNumbersSearchSchema = z.object({
  tab: z.catch(z.optional(z.enum(PHONE_TABS)), undefined),
});
