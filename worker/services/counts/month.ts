// An account's calls and seconds in a New York month, counted like the dashboard's figures: the
// call_log_user_daily roll-ups for the days they cover plus a live query of the rest (today, dirty days),
// so a month costs O(days), not O(calls). Usage statistics and the plan's minute limit both read it.
import { CALL_TYPE_DIRECTIONS } from "@shared/constants";
import { nyDayOf } from "@shared/ny-time";
import type { Database } from "../../db/client";
import { figureStatements, overCoverage, type Coverage, type Plan } from "./engine";
import { callLogUserSpec } from "./figures";
import { DbMeter } from "./meter";

/** The first and last New York day of the month `now` falls in. */
export function nyMonthDays(now: Date): { startDate: string; endDate: string } {
  const today = nyDayOf(now);
  const [y, m] = today.split("-").map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { startDate: `${today.slice(0, 7)}-01`, endDate: `${today.slice(0, 7)}-${String(last).padStart(2, "0")}` };
}

const PHONE_DIRECTIONS: readonly string[] = CALL_TYPE_DIRECTIONS.Both;

/**
 * Phone calls (inbound and outbound) and the seconds of every call, browser calls included, from
 * call-log figures grouped by direction: what "calls" and "minutes" mean on every screen (decision 009).
 */
export function phoneCallsAndSeconds(byDirection: Iterable<[string, { total: number; duration_seconds: number }]>): { calls: number; duration_seconds: number } {
  let calls = 0;
  let seconds = 0;
  for (const [direction, f] of byDirection) {
    if (PHONE_DIRECTIONS.includes(direction)) calls += f.total;
    seconds += f.duration_seconds;
  }
  return { calls, duration_seconds: seconds };
}

/**
 * An account's month: `calls`, its phone calls (inbound and outbound, what the dashboard's total with
 * call type Both and the call report count, decision 009), and `duration_seconds`, the seconds of
 * every call, browser calls included (the voice platform's minutes, which the plan's cap counts).
 * One read grouped by direction, on `db`: the account's shard (decision 076), the binding named
 * `database` (its name keys the coverage this isolate remembers).
 */
export function monthlyCalls(db: Database, userId: string, now: Date, database?: string): Promise<{ calls: number; duration_seconds: number }> {
  return monthlyCallsOf(new DbMeter(db.$client, database), userId, now);
}

/** monthlyCalls through a given meter. */
export async function monthlyCallsOf(meter: DbMeter, userId: string, now: Date): Promise<{ calls: number; duration_seconds: number }> {
  return overCoverage(meter, [callLogUserSpec.source], nyMonthDays(now), (coverage) => monthlyCallsPlan(meter, userId, coverage.call_logs));
}

/** An account's month as statements over a coverage of call_logs already read, for a caller's batch (many accounts in one). */
export function monthlyCallsPlan(meter: DbMeter, userId: string, coverage: Coverage): Plan<{ calls: number; duration_seconds: number }> {
  const q = figureStatements(meter, callLogUserSpec, coverage, ["total", "duration_seconds"], [{ sql: "r.user_id = ?", params: [userId] }], "direction");
  return { statements: q.statements, read: (results) => phoneCallsAndSeconds(q.read(results)) };
}
