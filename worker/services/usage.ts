// Usage statistics (GET /api/usage-stats, ADR 004): this New York month's calls and minutes, and the
// account's agents and numbers against their limits, for the caller only. The month's calls are a
// count like the dashboard's (docs/decisions/016-usage-on-rollups.md): call_log_daily rows for the
// rolled-up days plus a live query of the rest (today), so a month costs O(days), not O(calls).
import type { UsageStats } from "@shared/schemas/agents";
import { nyDayOf } from "@shared/ny-time";
import type { Database } from "../db/client";
import { countAgents } from "./agents";
import { countOver } from "./counts/engine";
import { callLogSpec } from "./counts/figures";
import { DbMeter } from "./counts/meter";
import { countPhoneNumbers, getPhoneNumberLimit } from "./phone-numbers";
import { agentLimitFor } from "./plans";

/** The first and last New York day of the month `now` falls in. */
export function nyMonthDays(now: Date): { startDate: string; endDate: string } {
  const today = nyDayOf(now);
  const [y, m] = today.split("-").map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { startDate: `${today.slice(0, 7)}-01`, endDate: `${today.slice(0, 7)}-${String(last).padStart(2, "0")}` };
}

/** Calls (every direction, web included) and seconds of an account in the month of `now`. */
export function monthlyCalls(db: Database, userId: string, now: Date) {
  return countOver(new DbMeter(db.$client), callLogSpec, nyMonthDays(now), ["total", "duration_seconds"], [
    { sql: "r.user_id = ?", params: [userId] },
  ]);
}

export async function usageStats(db: Database, userId: string, now = new Date()): Promise<UsageStats> {
  const [calls, agentCount, numbers, agentLimit, numberLimit] = await Promise.all([
    monthlyCalls(db, userId, now),
    countAgents(db, userId),
    // The same count and limit the phone-number purchase checks.
    countPhoneNumbers(db, userId),
    agentLimitFor(db, userId),
    getPhoneNumberLimit(db),
  ]);
  return {
    callsThisMonth: calls.total,
    minutesThisMonth: Math.round(calls.duration_seconds / 6) / 10,
    agents: agentCount,
    agentLimit,
    numbers,
    numberLimit,
  };
}
