// An account's calls and seconds in a New York month, counted like the dashboard's figures: the
// call_log_user_daily roll-ups for the days they cover plus a live query of the rest (today, dirty days),
// so a month costs O(days), not O(calls). Usage statistics and the plan's minute limit both read it.
import { nyDayOf } from "@shared/ny-time";
import type { Database } from "../../db/client";
import { countOver } from "./engine";
import { callLogUserSpec } from "./figures";
import { DbMeter } from "./meter";

/** The first and last New York day of the month `now` falls in. */
export function nyMonthDays(now: Date): { startDate: string; endDate: string } {
  const today = nyDayOf(now);
  const [y, m] = today.split("-").map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { startDate: `${today.slice(0, 7)}-01`, endDate: `${today.slice(0, 7)}-${String(last).padStart(2, "0")}` };
}

/** Calls (every direction, web included) and seconds of an account in the month of `now`. */
export function monthlyCalls(db: Database, userId: string, now: Date) {
  return countOver(new DbMeter(db.$client), callLogUserSpec, nyMonthDays(now), ["total", "duration_seconds"], [
    { sql: "r.user_id = ?", params: [userId] },
  ]);
}

