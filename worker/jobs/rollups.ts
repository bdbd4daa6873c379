// The daily roll-up job (docs/decisions/011-rollups.md): per source, recompute the last three New
// York days, any day missed since the last run, and every dirty day; each day is rebuilt in one
// transaction (clear its dirty mark, delete its rows, insert them again from the source), so a
// rerun writes the same rows and a day is never half rolled up.
import { isKnownEndedReason } from "@shared/call-outcomes";
import { log } from "../lib/log";
import { DAYS_CTE, fromDays, HOURLY_SOURCES, SPECS_BY_SOURCE, type RollupSpec } from "../services/counts/figures";
import { addDays, nyDateRange, nyDayOf } from "@shared/ny-time";
import { dayBounds } from "../services/counts/ny-days";
import { REPORTED_SOURCES, ROLLUP_SOURCES, STORED_REPORTS_MARK, type RollupSource } from "../services/rollup-dirty";
import { shardOutcomes, ShardsFailed, type Shard, type ShardOutcome } from "../db/shards";
import type { Job, JobContext } from "./context";

/** The sources this job rolls up, declared once with their type (services/rollup-dirty.ts). */
export { ROLLUP_SOURCES };

/** The sources each shard holds and rolls up for its own accounts (decision 076); the rest are the directory's store network. */
export const SHARD_SOURCES: readonly RollupSource[] = ["call_logs"];
/** The store network's sources, rolled up in the directory. */
export const DIRECTORY_SOURCES: readonly RollupSource[] = ROLLUP_SOURCES.filter((s) => !SHARD_SOURCES.includes(s));

/**
 * Where a roll-up runs: `shards` each roll up their call logs and the directory its store network.
 * Without `shards`, `db` is one database holding every source (the bench's single-database runs).
 */
export type RollupContext = Pick<JobContext, "db" | "now"> & { shards?: readonly Shard[] };

/**
 * Runs `onDirectory` on the directory and `onShard` on every shard at once. A failing database hides
 * none of the others: every one finishes first, then the error names the directory (if it failed)
 * and each failed shard (ShardsFailed's message).
 */
async function acrossDatabases<T>(ctx: RollupContext, onDirectory: (d1: D1Database) => Promise<T[]>, onShard: (d1: D1Database) => Promise<T[]>, shardName: (run: T, shard: string) => T) {
  if (!ctx.shards) return [...(await onShard(ctx.db.$client)), ...(await onDirectory(ctx.db.$client))];
  const [directory, shards] = await Promise.all([
    onDirectory(ctx.db.$client).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
    shardOutcomes(ctx.shards, (s) => onShard(s.db.$client).then((runs) => runs.map((r) => shardName(r, s.name)))),
  ]);
  const shardsFailed = shards.some((o) => !o.ok) ? new ShardsFailed(shards as ShardOutcome<unknown>[]) : null;
  if (!directory.ok) {
    const message = directory.error instanceof Error ? directory.error.message : String(directory.error);
    throw new Error(`the directory failed: ${message}${shardsFailed ? `; ${shardsFailed.message}` : ""}`);
  }
  if (shardsFailed) throw shardsFailed;
  return [...shards.flatMap((o) => (o.ok ? o.value : [])), ...directory.value];
}

/** Whole days before the run day recomputed every run, because events arrive late. */
export const RECOMPUTE_DAYS = 3;
/** A longer gap since the last run starts the coverage again instead of catching up day by day. */
export const MAX_CATCH_UP_DAYS = 400;

/**
 * How far back the first run (no coverage recorded yet) rolls up: a new deployment, or a fresh demo
 * database, then reads its recent history from roll-ups instead of live. Older days stay live until
 * `runRollups(ctx, { backfillFrom })` covers them.
 */
export const FIRST_RUN_DAYS = 90;

/** Days rebuilt per batch: one transaction each, small enough for D1's statement limits. */
export const DAYS_PER_BATCH = 31;

/** The statement that writes one spec's rows for the days it is bound to (the days' bounds as JSON). */
export function rollupInsertSql(spec: RollupSpec): string {
  const dims = Object.keys(spec.dims);
  const figures = Object.keys(spec.figures);
  const columns = ["day", ...dims, ...figures].join(", ");
  const select = [
    "d.day",
    ...dims.map((c) => spec.dims[c]),
    ...figures.map((f) => spec.figures[f as keyof typeof spec.figures]),
  ].join(", ");
  const exclude = spec.exclude ? ` WHERE NOT (${spec.exclude})` : "";
  return (
    `WITH ${DAYS_CTE} INSERT INTO ${spec.rollupTable} (${columns}) SELECT ${select} FROM ${fromDays(spec)}${exclude} ` +
    `GROUP BY ${["d.day", ...dims.map((c) => spec.dims[c])].join(", ")}`
  );
}

/** The statements that rebuild one spec's rows for the listed days. */
function recomputeSpec(d1: D1Database, spec: RollupSpec, days: string, bounds: string) {
  return [
    d1.prepare(`DELETE FROM ${spec.rollupTable} WHERE day IN (SELECT value FROM json_each(?))`).bind(days),
    d1.prepare(rollupInsertSql(spec)).bind(bounds),
  ];
}

/**
 * Rebuilds every roll-up table of a source for these days in one transaction with their dirty
 * marks: a day is never half rolled up, and a mark set after the rebuild stays for the next run.
 */
export async function recomputeDays(d1: D1Database, source: RollupSource, days: string[]) {
  const list = JSON.stringify(days);
  const bounds = JSON.stringify(dayBounds(days));
  // A dirty mark of a day with stored reports becomes a mark for those reports before it is cleared.
  const forReports = REPORTED_SOURCES.includes(source)
    ? [
        d1
          .prepare(
            "INSERT INTO rollup_dirty_days (source, day) SELECT ?, day FROM rollup_dirty_days WHERE source = ? AND day IN (SELECT value FROM json_each(?)) " +
              "AND day IN (SELECT day FROM daily_reports) ON CONFLICT (source, day) DO UPDATE SET marked_at = excluded.marked_at",
          )
          .bind(STORED_REPORTS_MARK, source, list),
      ]
    : [];
  await d1.batch([
    ...forReports,
    d1.prepare("DELETE FROM rollup_dirty_days WHERE source = ? AND day IN (SELECT value FROM json_each(?))").bind(source, list),
    ...SPECS_BY_SOURCE[source].flatMap((spec) => recomputeSpec(d1, spec, list, bounds)),
  ]);
}

/** One source's run; `shard` names the shard it ran on (absent: the directory, or the one database). */
export type RollupRun = { source: RollupSource; days: number; fromDay: string; untilDay: string; shard?: string };

/**
 * Rolls up every source for the run at `now`: each shard's call logs and the directory's store network,
 * all at once (see acrossDatabases). `backfillFrom` extends the roll-ups back to that day (a first
 * deployment over old data, the benchmark's seed). Runs come shard by shard, then the directory's.
 */
export async function runRollups(ctx: RollupContext, opts: { backfillFrom?: string } = {}): Promise<RollupRun[]> {
  const today = nyDayOf(ctx.now);
  const sources = (list: readonly RollupSource[]) => (d1: D1Database) => rollUpSources(d1, list, today, opts);
  return acrossDatabases(ctx, sources(DIRECTORY_SOURCES), sources(SHARD_SOURCES), (run, shard) => ({ ...run, shard }));
}

/** Rolls up the listed sources of one database, one after another. */
async function rollUpSources(d1: D1Database, list: readonly RollupSource[], today: string, opts: { backfillFrom?: string }): Promise<RollupRun[]> {
  const runs: RollupRun[] = [];
  for (const source of list) {
    const [stateRes, dirtyRes] = await d1.batch<Record<string, string>>([
      d1.prepare("SELECT from_day, until_day FROM rollup_state WHERE source = ?").bind(source),
      d1.prepare("SELECT day FROM rollup_dirty_days WHERE source = ? AND day < ? ORDER BY day").bind(source, today),
    ]);
    let state = stateRes.results[0] as { from_day: string; until_day: string } | undefined;
    if (state && nyDateRange(state.until_day, today).length > MAX_CATCH_UP_DAYS) state = undefined;
    // Every day from the last run's until_day on is rolled up, so coverage stays gapless.
    let start = addDays(today, state || opts.backfillFrom ? -RECOMPUTE_DAYS : -FIRST_RUN_DAYS);
    if (opts.backfillFrom && opts.backfillFrom < start) start = opts.backfillFrom;
    if (state && state.until_day < start) start = state.until_day;
    const days = new Set(start < today ? nyDateRange(start, addDays(today, -1)) : []);
    for (const r of dirtyRes.results) days.add(r.day);
    const sorted = [...days].sort();
    for (let i = 0; i < sorted.length; i += DAYS_PER_BATCH) await recomputeDays(d1, source, sorted.slice(i, i + DAYS_PER_BATCH));
    const fromDay = state && state.from_day < start ? state.from_day : start;
    const untilDay = state && state.until_day > today ? state.until_day : today;
    // Written only once every day above is rolled up; a failed run leaves the old coverage.
    await d1
      .prepare("INSERT INTO rollup_state (source, from_day, until_day) VALUES (?, ?, ?) ON CONFLICT (source) DO UPDATE SET from_day = excluded.from_day, until_day = excluded.until_day")
      .bind(source, fromDay, untilDay)
      .run();
    if (source === "call_logs") await logUnknownEndedReasons(d1, [...days]);
    runs.push({ source, days: days.size, fromDay, untilDay });
  }
  return runs;
}

/** Decision 009: an ended reason the mapping does not place is logged once, so it gets placed. */
async function logUnknownEndedReasons(d1: D1Database, days: string[]) {
  if (days.length === 0) return;
  const { results } = await d1
    .prepare(`WITH ${DAYS_CTE} SELECT DISTINCT r.ended_reason AS reason FROM d CROSS JOIN call_logs r ON r.start_time >= d.s AND r.start_time < d.e WHERE r.ended_reason IS NOT NULL`)
    .bind(JSON.stringify(dayBounds(days.sort())))
    .all<{ reason: string }>();
  const unknown = results.map((r) => r.reason).filter((r) => !isKnownEndedReason(r));
  if (unknown.length) log(null, "warn", "unmapped VAPI ended reasons (docs/decisions/009-count-definitions.md)", { reasons: unknown });
}

/**
 * The intraday roll-up's settling time: the hours it rolls up end at least this long before the run,
 * so most calls of an hour have ended (and sent their last event) when it is rolled up.
 */
export const HOUR_SETTLE_MINUTES = 15;

const HOUR_MS = 3_600_000;
/** The start of the UTC hour an instant falls in, as stored times are written (ISO, milliseconds, Z). */
export const hourStart = (ms: number) => new Date(Math.floor(ms / HOUR_MS) * HOUR_MS).toISOString();

export type HourlyRun = { source: RollupSource; fromAt: string; throughAt: string; shard?: string };

/**
 * The intraday roll-up (docs/decisions/034-intraday-rollups.md): for each source of HOURLY_SOURCES,
 * the hours of yesterday and today (New York) that ended HOUR_SETTLE_MINUTES before `now`, by hour.
 * One transaction per source reads the watermark, drops the rows from it on (and those before
 * yesterday), writes them again from the source and moves the watermark to the last hour: a writer
 * that moved the watermark back is seen whole, before or after, and a rerun writes the same rows.
 */
export async function runHourlyRollups(ctx: RollupContext): Promise<HourlyRun[]> {
  const hourly = (list: readonly RollupSource[]) => (d1: D1Database) => rollUpHours(d1, list, ctx.now);
  return acrossDatabases(
    ctx,
    hourly(HOURLY_SOURCES.filter((s) => DIRECTORY_SOURCES.includes(s))),
    hourly(HOURLY_SOURCES.filter((s) => SHARD_SOURCES.includes(s))),
    (run, shard) => ({ ...run, shard }),
  );
}

/** The intraday roll-up of the listed sources of one database. */
async function rollUpHours(d1: D1Database, list: readonly RollupSource[], now: Date): Promise<HourlyRun[]> {
  const today = nyDayOf(now);
  const days = dayBounds([addDays(today, -1), today]);
  const fromAt = days[0][1];
  const throughAt = hourStart(now.getTime() - HOUR_SETTLE_MINUTES * 60_000);
  const runs: HourlyRun[] = [];
  for (const source of list) {
    const watermark = "(SELECT through_at FROM rollup_hour_state WHERE source = ?)";
    const specs = SPECS_BY_SOURCE[source].filter((spec) => spec.hourlyTable);
    await d1.batch([
      // Coverage starts at yesterday's start; a watermark before it (or after this run's) comes to it.
      d1
        .prepare(
          "INSERT INTO rollup_hour_state (source, from_at, through_at) VALUES (?1, ?2, ?2) ON CONFLICT (source) DO UPDATE SET from_at = excluded.from_at, " +
            "through_at = CASE WHEN excluded.from_at < rollup_hour_state.from_at THEN excluded.from_at ELSE max(excluded.from_at, min(rollup_hour_state.through_at, ?3)) END",
        )
        .bind(source, fromAt, throughAt),
      ...specs.flatMap((spec) => [
        d1.prepare(`DELETE FROM ${spec.hourlyTable} WHERE hour < ? OR hour >= ${watermark}`).bind(fromAt, source),
        d1.prepare(rollupHourInsertSql(spec, watermark)).bind(JSON.stringify(days), source, throughAt),
      ]),
      d1.prepare("UPDATE rollup_hour_state SET through_at = ? WHERE source = ?").bind(throughAt, source),
    ]);
    runs.push({ source, fromAt, throughAt });
  }
  return runs;
}

/**
 * The statement that writes one spec's hourly rows from the watermark (a subquery bound to the
 * source) to the run's last hour, for the days bound as JSON: the daily roll-up's select, grouped by
 * the hour as well.
 */
export function rollupHourInsertSql(spec: RollupSpec, watermark: string): string {
  const dims = Object.keys(spec.dims);
  const figures = Object.keys(spec.figures);
  const hour = `substr(r.${spec.time}, 1, 13) || ':00:00.000Z'`;
  const columns = ["day", "hour", ...dims, ...figures].join(", ");
  const select = ["d.day", hour, ...dims.map((c) => spec.dims[c]), ...figures.map((f) => spec.figures[f as keyof typeof spec.figures])].join(", ");
  const exclude = spec.exclude ? ` WHERE NOT (${spec.exclude})` : "";
  return (
    `WITH ${DAYS_CTE} INSERT INTO ${spec.hourlyTable} (${columns}) SELECT ${select} ` +
    `FROM d CROSS JOIN ${spec.sourceTable} r ON r.${spec.time} >= max(d.s, ${watermark}) AND r.${spec.time} < min(d.e, ?)${exclude} ` +
    `GROUP BY ${["d.day", hour, ...dims.map((c) => spec.dims[c])].join(", ")}`
  );
}

export const rollupJob: Job = {
  name: "rollups",
  // The intraday roll-up runs even when the daily one failed somewhere; the job then fails naming both.
  run: async (ctx) => {
    const [daily, hourly] = [await runRollups(ctx).catch((e: unknown) => asError(e)), await runHourlyRollups(ctx).catch((e: unknown) => asError(e))];
    const failed = [daily, hourly].filter((r): r is Error => r instanceof Error);
    if (failed.length) throw new Error(failed.map((e) => e.message).join(" | "));
    return { daily, hourly };
  },
};

const asError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));

/** Every ten minutes: today's finished hours, so a count of today reads at most the last hour or so live. */
export const hourlyRollupJob: Job = { name: "rollups-hourly", run: (ctx) => runHourlyRollups(ctx) };
