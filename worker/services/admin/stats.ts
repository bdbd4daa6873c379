// The admin statistics (docs/product/screens-and-routes.md#route-table, docs/product/README.md#records "Admin stats"): accounts, agents, and every account's phone calls
// and the minutes of every call, as each account's own usage counts them. Calls come from the call-log roll-ups plus a live count of the days they do not cover
// (docs/decisions/011-rollups.md), so the figure costs O(days), not O(calls).
import { nyDayOf, nyToday } from "@shared/ny-time";
import type { AdminStats } from "@shared/schemas/admin";
import { figureStatements, overCoverage, type Coverage, type Plan } from "../counts/engine";
import { callLogUserSpec } from "../counts/figures";
import { DbMeter } from "../counts/meter";
import { min } from "drizzle-orm";
import type { Database } from "../../db/client";
import { callLogs } from "../../db/schema";
import type { IsolateReads } from "../isolate-reads";
import { phoneCallsAndSeconds } from "../counts/month";

/** docs/product/constants.md#business-constants: admin stats are cached for 60 s (the client's staleness and the answer's max-age). */
export const ADMIN_STATS_MAX_AGE_SECONDS = 60;

/** Seconds to minutes with one decimal. */
export const toMinutes = (seconds: number) => Math.round(seconds / 6) / 10;

export async function adminStats(meter: DbMeter, now = new Date()): Promise<AdminStats> {
  const conditions = [
    // Calls no account owns are in no roll-up (callLogUserSpec.exclude); the live part leaves them out too.
    { sql: "+r.user_id IS NOT NULL", params: [], rollupSql: "1 = 1" },
  ];
  const { users, assistants, calls } = await overAllTime(meter, now, (coverage) => {
    // By direction: the calls are phone calls, the minutes every call's (phoneCallsAndSeconds).
    const q = figureStatements(meter, callLogUserSpec, coverage, ["total", "duration_seconds"], conditions, "direction");
    return {
      statements: [meter.statement("SELECT count(*) AS n FROM profiles"), meter.statement("SELECT count(*) AS n FROM agents"), ...q.statements],
      read: ([[u], [a], ...figures]) => ({ users: u, assistants: a, calls: phoneCallsAndSeconds(q.read(figures)) }),
    };
  });
  return {
    total_users: Number(users?.n ?? 0),
    total_assistants: Number(assistants?.n ?? 0),
    total_calls: calls.calls,
    total_minutes: toMinutes(calls.duration_seconds),
  };
}

/** The oldest call's start this isolate read last ({ t: null }: there was none); null before the first read. */
let lastOldestCall: { t: unknown } | null = null;

/**
 * While this isolate has not read the oldest call, its read for an admin's sign-in confirmation batch
 * (worker/services/warm-up.ts), so the isolate's first admin figures cost no extra round trip; null once read.
 */
export function oldestCallWarmUp(db: Database): IsolateReads | null {
  if (lastOldestCall) return null;
  return {
    statements: [db.select({ t: min(callLogs.startTime) }).from(callLogs)],
    read: ([rows]) => {
      lastOldestCall = { t: (rows as { t: unknown }[])[0]?.t ?? null };
    },
  };
}

/** Forgets the oldest call, as a cold isolate has it (tests). */
export const forgetOldestCall = () => {
  lastOldestCall = null;
};

/**
 * Figures of every account's calls over all time, from the oldest call's New York day to today
 * (the call-log roll-up's coverage over that range handed to `plan`). The oldest call, read from the
 * start of call_logs_time_idx, goes in the same batch as the plan's statements, built from the
 * oldest call this isolate read last: when the batch finds the same day (it changes only when an
 * older call arrives), its results are what reading the oldest call first would give; otherwise the
 * plan runs again from the day just read. A cold isolate reads the oldest call first.
 */
export async function overAllTime<T>(meter: DbMeter, now: Date, plan: (coverage: Coverage) => Plan<T>): Promise<T> {
  const today = nyToday(now);
  const startOf = (t: unknown) => {
    const oldest = typeof t === "string" ? nyDayOf(t) : today;
    return oldest < today ? oldest : today;
  };
  const source = callLogUserSpec.source;
  const run = (known: { t: unknown }) =>
    overCoverage(meter, [source], { startDate: startOf(known.t), endDate: today }, (coverages) => {
      const p = plan(coverages[source]);
      return {
        statements: [meter.statement("SELECT min(start_time) AS t FROM call_logs"), ...p.statements],
        read: ([[first], ...rest]) => ({ value: p.read(rest), oldest: { t: first?.t ?? null } }),
      };
    });
  if (!lastOldestCall) {
    const [[first]] = await meter.batch([meter.statement("SELECT min(start_time) AS t FROM call_logs")]);
    lastOldestCall = { t: first?.t ?? null };
  }
  const guessed = lastOldestCall;
  const answer = await run(guessed);
  lastOldestCall = answer.oldest;
  if (startOf(answer.oldest.t) === startOf(guessed.t)) return answer.value;
  return (await run(answer.oldest)).value;
}
