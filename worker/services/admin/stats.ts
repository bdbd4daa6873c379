// The admin statistics (spec 2 §2, §3 "Admin stats"): accounts, agents, and every account's calls and
// minutes. Calls come from the call-log roll-ups plus a live count of the days they do not cover
// (docs/decisions/011-rollups.md), so the figure costs O(days), not O(calls).
import { nyDayOf, nyToday } from "@shared/ny-time";
import type { AdminStats } from "@shared/schemas/admin";
import { countOver } from "../counts/engine";
import { callLogUserSpec } from "../counts/figures";
import { DbMeter } from "../counts/meter";

/** Spec 2 §9: admin stats are cached for 60 s (the client's staleness and the answer's max-age). */
export const ADMIN_STATS_MAX_AGE_SECONDS = 60;

/** Seconds to minutes with one decimal. */
export const toMinutes = (seconds: number) => Math.round(seconds / 6) / 10;

export async function adminStats(meter: DbMeter, now = new Date()): Promise<AdminStats> {
  const [[users], [assistants], [first]] = await meter.batch([
    meter.statement("SELECT count(*) AS n FROM profiles"),
    meter.statement("SELECT count(*) AS n FROM agents"),
    // The oldest call, read from the start of call_logs_time_idx: where the all-time range begins.
    meter.statement("SELECT min(start_time) AS t FROM call_logs"),
  ]);
  const today = nyToday(now);
  const oldest = typeof first?.t === "string" ? nyDayOf(first.t) : today;
  const calls = await countOver(meter, callLogUserSpec, { startDate: oldest < today ? oldest : today, endDate: today }, ["total", "duration_seconds"], [
    // Calls no account owns are in no roll-up (callLogUserSpec.exclude); the live part leaves them out too.
    { sql: "+r.user_id IS NOT NULL", params: [], rollupSql: "1 = 1" },
  ]);
  return {
    total_users: Number(users?.n ?? 0),
    total_assistants: Number(assistants?.n ?? 0),
    total_calls: calls.total,
    total_minutes: toMinutes(calls.duration_seconds),
  };
}
