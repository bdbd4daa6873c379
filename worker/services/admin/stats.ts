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
import { log } from "../../lib/log";
import type { ShardOutcome } from "../../db/shards";
import { phoneCallsAndSeconds } from "../counts/month";

/** docs/product/constants.md#business-constants: admin stats are cached for 60 s (the client's staleness and the answer's max-age). */
export const ADMIN_STATS_MAX_AGE_SECONDS = 60;

/** Seconds to minutes with one decimal. */
export const toMinutes = (seconds: number) => Math.round(seconds / 6) / 10;

/** A shard as the admin figures read it: its binding's name and a meter over the request's session of it. */
export type ShardMeter = { name: string; meter: DbMeter };

/**
 * Accounts and agents from the directory; every account's phone calls and minutes summed over the
 * shards, all read at once. A shard that fails is named in `failed_shards` and its calls are left out
 * (decision 079): the others' figures still answer. The field is there only when one failed.
 */
export async function adminStats(directory: DbMeter, shards: readonly ShardMeter[], now = new Date()): Promise<AdminStats> {
  const conditions = [
    // Calls no account owns wait in the directory (decision 076) and are in no roll-up; the live part leaves them out too.
    { sql: "+r.user_id IS NOT NULL", params: [], rollupSql: "1 = 1" },
  ];
  const [[[users], [assistants]], outcomes] = await Promise.all([
    directory.batch([directory.statement("SELECT count(*) AS n FROM profiles"), directory.statement("SELECT count(*) AS n FROM agents")]),
    eachShardMeter(shards, (s) =>
        overAllTime(s.meter, now, (coverage) => {
          // By direction: the calls are phone calls, the minutes every call's (phoneCallsAndSeconds).
          const q = figureStatements(s.meter, callLogUserSpec, coverage, ["total", "duration_seconds"], conditions, "direction");
          return { statements: q.statements, read: (figures) => phoneCallsAndSeconds(q.read(figures)) };
        }),
    ),
  ]);
  const calls = { calls: 0, duration_seconds: 0 };
  for (const o of outcomes) {
    if (!o.ok) continue;
    calls.calls += o.value.calls;
    calls.duration_seconds += o.value.duration_seconds;
  }
  const failed = failedShards(outcomes);
  return {
    total_users: Number(users?.n ?? 0),
    total_assistants: Number(assistants?.n ?? 0),
    total_calls: calls.calls,
    total_minutes: toMinutes(calls.duration_seconds),
    ...(failed.length ? { failed_shards: failed } : {}),
  };
}

/** Runs `work` on every shard's meter at once; each shard's outcome, never throwing (as shardOutcomes). */
export async function eachShardMeter<T>(shards: readonly ShardMeter[], work: (shard: ShardMeter) => Promise<T>): Promise<ShardOutcome<T>[]> {
  const settled = await Promise.allSettled(shards.map((s) => work(s)));
  return settled.map((r, i) =>
    r.status === "fulfilled" ? { shard: shards[i].name, ok: true as const, value: r.value } : { shard: shards[i].name, ok: false as const, error: r.reason instanceof Error ? r.reason.message : String(r.reason) },
  );
}

/** The shards of a run that failed, logged with their errors. */
export function failedShards(outcomes: readonly ShardOutcome<unknown>[]): string[] {
  const failed = outcomes.filter((o) => !o.ok);
  if (failed.length) log(null, "error", "admin figures left out failing shards", { shards: failed.map((o) => ({ shard: o.shard, error: (o as { error: string }).error })) });
  return failed.map((o) => o.shard);
}

/** Each shard's oldest call's start this isolate read last ({ t: null }: there was none), by shard. */
const oldestCalls = new Map<string, { t: unknown }>();
/** Reads of a shard's oldest call in flight, beside an admin's sign-in. */
const warming = new Map<string, Promise<void>>();

/**
 * While this isolate has not read a shard's oldest call, reads it at once, in parallel with an
 * admin's sign-in confirmation (worker/services/warm-up.ts), so the isolate's first admin figures
 * cost no extra round trip. A failed read is forgotten (the figures then find the day themselves).
 */
export function warmUpOldestCallOf(database: string, db: () => Database): void {
  if (oldestCalls.has(database) || warming.has(database)) return;
  const done = db()
    .select({ t: min(callLogs.startTime) })
    .from(callLogs)
    .then((rows) => void oldestCalls.set(database, { t: rows[0]?.t ?? null }))
    .catch(() => undefined)
    .finally(() => warming.delete(database));
  warming.set(database, done);
}

/** Forgets the oldest calls, as a cold isolate has them (tests). */
export const forgetOldestCall = () => {
  oldestCalls.clear();
};

/**
 * Figures of every account's calls on the meter's shard over all time, from its oldest call's New
 * York day to today (the call-log roll-up's coverage over that range handed to `plan`). The oldest
 * call, read from the start of call_logs_time_idx, goes in the same batch as the plan's statements,
 * built from the oldest call this isolate read last on that shard: when the batch finds the same day
 * (it changes only when an older call arrives), its results are what reading the oldest call first
 * would give; otherwise the plan runs again from the day just read. A cold isolate guesses today.
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
  await warming.get(meter.database);
  const guessed = oldestCalls.get(meter.database) ?? { t: null };
  const answer = await run(guessed);
  oldestCalls.set(meter.database, answer.oldest);
  if (startOf(answer.oldest.t) === startOf(guessed.t)) return answer.value;
  return (await run(answer.oldest)).value;
}
