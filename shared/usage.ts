// How full a limit is (docs/product/constants.md#business-constants usage colours): below 80 % ok (green), from 80 % warning (yellow),
// at the limit full (red). The phone-number bar, the minutes bar and the minutes mails all read it.
import { USAGE_BAR_WARNING_RATIO } from "./constants";

export type UsageLevel = "ok" | "warning" | "full";

export function usageLevel(count: number, limit: number): UsageLevel {
  if (limit <= 0 || count >= limit) return "full";
  return count / limit >= USAGE_BAR_WARNING_RATIO ? "warning" : "ok";
}

/**
 * Whole minutes used, as the plan's minute limit counts them (999 min 59 s is 999: a call is still
 * allowed). The usage statistics give minutes to one decimal; the bar and the mails take whole ones.
 */
export const wholeMinutes = (minutes: number) => Math.floor(minutes + 1e-9);
