// The /phone-numbers screen's search parameters: which tab is open (default 'My numbers').
import { searchEnum, searchSchema } from "@web/lib/search";

export const PHONE_TABS = ["mine", "buy"] as const;
export type PhoneTab = (typeof PHONE_TABS)[number];

export const phoneNumbersSearchSchema = searchSchema({ tab: searchEnum(PHONE_TABS) });
