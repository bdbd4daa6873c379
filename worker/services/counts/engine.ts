// A count = the roll-up rows of the days they cover + a live query of the other days
// (docs/decisions/011-rollups.md). Both parts of a count go to D1 in one batch, with the reads of the
// coverage they were built from (docs/decisions/054-coverage-in-the-count-batch.md).
import { inArray } from "drizzle-orm";
import { jsonList, type Database } from "../../db/client";
import { DIRECTORY_BINDING } from "../../db/sessions";
import { rollupDirtyDays, rollupHourState, rollupState } from "../../db/schema";
import { ROLLUP_SOURCES, type RollupSource } from "../rollup-dirty";
import type { IsolateReads } from "../isolate-reads";
import { DAYS_CTE, fromDays, HOURLY_SOURCES, type RollupSpec } from "./figures";
import type { DbMeter } from "./meter";
import { addDays, nyDateRange } from "@shared/ny-time";
import { dayBounds } from "./ny-days";

/**
 * Roll-up rows are trusted for days before the job's last run day minus this many days. The run
 * recomputes the last three days because events arrive late; a source whose writers do not all mark
 * the days they change keeps those days live, so a late event for them is counted at once. Every
 * call-log writer marks its day (the VAPI webhook each event's day, adoption of orphan calls their
 * days; a test call is today's), so call logs trust every rolled-up day not marked dirty
 * (docs/decisions/016-usage-on-rollups.md). So do appointments and leads: ingestion marks the days
 * a record lands on and the days it leaves, the trial's lead marks its day
 * (docs/decisions/046-store-network-sources-trust-every-rolled-up-day.md). So does Aircall: its writers mark the day an
 * event places the call on and the day the stored call leaves (docs/decisions/055-aircall-rollups-by-dimension.md).
 */
export const TRUST_LAG_DAYS: Record<RollupSource, number> = { call_logs: 0, aircall: 0, appointments: 0, leads: 0 };

export interface Coverage {
  /** Days read from the roll-ups: [start, end] without `exclude` (dirty days). */
  rolled: { start: string; end: string; exclude: string[] } | null;
  /** Days not in the daily roll-ups. */
  liveDays: string[];
  /**
   * Live days whose first hours the intraday roll-up covers (docs/decisions/034-intraday-rollups.md):
   * their rows of the hourly table before `through` are read instead of those hours' source rows.
   */
  hourly: { days: string[]; through: string } | null;
  /** What is read from the source table: each live day's [start, end) in UTC, after its hourly part. */
  live: [day: string, startUtc: string, endUtc: string][];
  /**
   * What the roll-ups answer regardless of the range, for figures that reach before it ("Upcoming"
   * counts every booking up to the range's end): the first and last trusted day, and every dirty
   * day up to the range's end. Null when the source has no roll-ups yet.
   */
  trusted: { from: string; through: string; dirty: string[] } | null;
}

/** The newest day whose roll-up rows a count of the source may trust, for a state's until_day. */
export const lastTrustedDay = (source: RollupSource, untilDay: string) => addDays(untilDay, -TRUST_LAG_DAYS[source] - 1);

/** Which days of [start, end] the roll-ups of a source answer, read in one round trip. */
export async function readCoverage(meter: DbMeter, source: RollupSource, start: string, end: string): Promise<Coverage> {
  return (await readCoverages(meter, [source], start, end))[source];
}

/** The coverage of several sources over one range, in one round trip. */
export async function readCoverages<S extends RollupSource>(meter: DbMeter, sources: readonly S[], start: string, end: string): Promise<Record<S, Coverage>> {
  const statements = coverageStatements(meter, sources);
  await warmUpOf(meter.database);
  return coveragesOf(rememberRows(meter.database, sources, await meter.batch(statements)), sources, start, end);
}

/** The rows a source's coverage is computed from: its state, its dirty days (every one, in row order), its hour state. */
type CoverageRows = { state: Record<string, unknown> | undefined; dirty: string[]; hours: Record<string, unknown> | undefined };

/**
 * The coverage rows this isolate read last, per database and source (so at most one entry a source
 * of each database: the directory's store-network sources, each shard's call logs, decision 076).
 * A count builds its statements from them and sends them in one batch with the coverage statements;
 * the rows that batch reads, in the same transaction as the figures, say whether the guess held
 * (`overCoverage`). Rows of another database, or of the same one at another time, only make the
 * guess miss: never an answer.
 */
const lastRows = new Map<string, CoverageRows>();
const rowsKey = (database: string, source: RollupSource) => `${database}/${source}`;
const remembers = (database: string, sources: readonly RollupSource[]) => sources.every((s) => lastRows.has(rowsKey(database, s)));

/**
 * Warm-up reads of a shard's coverage still in flight, by database: started beside the sign-in's
 * batch (warm-up.ts), awaited by the database's first count so it builds on what they read.
 */
const warmingUp = new Map<string, Promise<void>>();
const warmUpOf = (database: string) => warmingUp.get(database);

/** Forgets every remembered coverage row, so the next count reads its coverage first (a cold isolate). */
export const forgetCoverage = () => {
  lastRows.clear();
  warmingUp.clear();
};

/**
 * While this isolate remembers no coverage for some source (it has just started), the statements
 * that read every source's coverage rows, for the sign-in confirmation's batch that every signed-in
 * request sends first (worker/services/warm-up.ts), and `read`, which remembers their rows. The
 * isolate's first count then sends its statements with the coverage check in one batch, as every
 * later count does, instead of reading the coverage in a round trip of its own. null once warm.
 * Rows read from another database than the count's only make that count's guess miss (it then
 * reads again), never its answer.
 */
export function coverageWarmUp(db: Database, database: string = DIRECTORY_BINDING): IsolateReads | null {
  if (remembers(database, ROLLUP_SOURCES) || warmingUp.has(database)) return null;
  // The rows coverageStatements reads, under the same names, for every source.
  return {
    statements: [
      db.select({ source: rollupState.source, from_day: rollupState.fromDay, until_day: rollupState.untilDay }).from(rollupState).where(inArray(rollupState.source, jsonList(ROLLUP_SOURCES))),
      db.select({ source: rollupDirtyDays.source, day: rollupDirtyDays.day }).from(rollupDirtyDays).where(inArray(rollupDirtyDays.source, jsonList(ROLLUP_SOURCES))),
      db
        .select({ source: rollupHourState.source, from_at: rollupHourState.fromAt, through_at: rollupHourState.throughAt })
        .from(rollupHourState)
        .where(inArray(rollupHourState.source, jsonList(HOURLY_SOURCES))),
    ],
    read: (results) => void rememberRows(database, ROLLUP_SOURCES, results as Record<string, unknown>[][]),
  };
}

/**
 * A shard's coverageWarmUp sent at once in a batch of its own, beside (in parallel with) the
 * sign-in's batch to the directory: a shard's rows cannot ride that batch, and the account's shard
 * is known only once it returns. The shard's first count waits for it. Does nothing once warm or
 * while a read is in flight; a failed read is forgotten (the count then reads its coverage itself).
 */
export function warmUpCoverageOf(database: string, db: () => Database): void {
  if (remembers(database, ROLLUP_SOURCES) || warmingUp.has(database)) return;
  const reads = coverageWarmUp(db(), database);
  if (!reads) return;
  const [first, ...rest] = reads.statements;
  const done = db()
    .batch([first, ...rest])
    .then((results) => reads.read(results as unknown[]))
    .catch(() => undefined)
    .finally(() => warmingUp.delete(database));
  warmingUp.set(database, done);
}

/**
 * The statements that read the coverage rows of the sources: every dirty day of the source, not
 * only the range's (they are few: the job clears them daily), so the rows answer any range.
 */
function coverageStatements(meter: DbMeter, sources: readonly RollupSource[]): D1PreparedStatement[] {
  const list = JSON.stringify(sources);
  const hourly = sources.filter((s) => HOURLY_SOURCES.includes(s));
  return [
    meter.statement("SELECT source, from_day, until_day FROM rollup_state WHERE source IN (SELECT value FROM json_each(?))", [list]),
    meter.statement("SELECT source, day FROM rollup_dirty_days WHERE source IN (SELECT value FROM json_each(?))", [list]),
    ...(hourly.length
      ? [meter.statement("SELECT source, from_at, through_at FROM rollup_hour_state WHERE source IN (SELECT value FROM json_each(?))", [JSON.stringify(hourly)])]
      : []),
  ];
}

/** Each source's coverage rows from the results of coverageStatements, remembered for the next count. */
function rememberRows<S extends RollupSource>(database: string, sources: readonly S[], results: Record<string, unknown>[][]): Record<S, CoverageRows> {
  const [states, dirtyRows, hourStates = []] = results;
  const out = {} as Record<S, CoverageRows>;
  for (const source of sources) {
    out[source] = {
      state: states.find((r) => r.source === source),
      dirty: dirtyRows.filter((r) => r.source === source).map((r) => r.day as string),
      hours: hourStates.find((r) => r.source === source),
    };
    lastRows.set(rowsKey(database, source), out[source]);
  }
  return out;
}

function coveragesOf<S extends RollupSource>(rows: Record<S, CoverageRows>, sources: readonly S[], start: string, end: string): Record<S, Coverage> {
  const out = {} as Record<S, Coverage>;
  for (const source of sources) {
    const { state, dirty, hours } = rows[source];
    // Dirty days up to the range's end only: later ones change neither the range nor what reaches before it.
    const days = dayCoverage(source, state, dirty.filter((d) => d <= end), start, end);
    out[source] = { ...days, ...hourCoverage(days.liveDays, hours) };
  }
  return out;
}

/**
 * The coverage of several sources over one range as statements for a caller's own batch (the alert
 * run reads it with its rules, and again with each chunk that counts a month, to check it held).
 */
export function coveragePlan<S extends RollupSource>(meter: DbMeter, sources: readonly S[], range: { startDate: string; endDate: string }): Plan<Record<S, Coverage>> {
  return {
    statements: coverageStatements(meter, sources),
    read: (results) => coveragesOf(rememberRows(meter.database, sources, results), sources, range.startDate, range.endDate),
  };
}

/** Statements to send in one batch, and how to read their results. */
export type Plan<T> = { statements: D1PreparedStatement[]; read: (results: Record<string, unknown>[][]) => T };

/** Several plans as one: their statements in order, each one's results read apart. */
export function allOf<T extends unknown[]>(...plans: { [K in keyof T]: Plan<T[K]> }): Plan<T> {
  return {
    statements: plans.flatMap((p) => p.statements),
    read: (results) => {
      let at = 0;
      return plans.map((p) => p.read(results.slice(at, (at += p.statements.length)))) as T;
    },
  };
}

/**
 * Runs a count whose statements depend on the coverage of `sources` over [startDate, endDate], in
 * one round trip when it can. With the coverage rows this isolate read last, it builds the
 * statements from them and sends them in one batch after the coverage statements; D1 runs a batch
 * as one transaction, so when the coverage the batch reads is the one the statements were built
 * from, their results are exactly what a coverage read followed by its statements would give. When
 * it is not (a roll-up run, a dirty-day mark, the hourly watermark moved since), the statements are
 * built again from the coverage just read and sent once more. A cold isolate reads the coverage
 * first. `plan` must only build statements: it may be called twice.
 */
export async function overCoverage<S extends RollupSource, T>(
  meter: DbMeter,
  sources: readonly S[],
  range: { startDate: string; endDate: string },
  plan: (coverage: Record<S, Coverage>) => Plan<T>,
): Promise<T> {
  const { startDate: start, endDate: end } = range;
  const check = coverageStatements(meter, sources);
  const run = async (coverage: Record<S, Coverage>) => {
    const p = plan(coverage);
    return p.read(await meter.batch(p.statements));
  };
  await warmUpOf(meter.database);
  const remembered = remembers(meter.database, sources)
    ? coveragesOf(Object.fromEntries(sources.map((s) => [s, lastRows.get(rowsKey(meter.database, s))!])) as Record<S, CoverageRows>, sources, start, end)
    : null;
  if (!remembered) return run(coveragesOf(rememberRows(meter.database, sources, await meter.batch(check)), sources, start, end));
  const guess = plan(remembered);
  const results = await meter.batch([...check, ...guess.statements]);
  const fresh = coveragesOf(rememberRows(meter.database, sources, results.slice(0, check.length)), sources, start, end);
  if (sources.every((s) => JSON.stringify(fresh[s]) === JSON.stringify(remembered[s]))) return guess.read(results.slice(check.length));
  return run(fresh);
}

type DayCoverage = Pick<Coverage, "rolled" | "liveDays" | "trusted">;

function dayCoverage(source: RollupSource, state: Record<string, unknown> | undefined, dirtyDays: string[], start: string, end: string): DayCoverage {
  const from = state?.from_day as string | undefined;
  const until = state?.until_day as string | undefined;
  if (!from || !until) return { rolled: null, liveDays: nyDateRange(start, end), trusted: null };
  const trustedThrough = lastTrustedDay(source, until);
  const trusted = from <= trustedThrough ? { from, through: trustedThrough, dirty: [...dirtyDays].sort() } : null;
  const all = () => ({ rolled: null, liveDays: nyDateRange(start, end), trusted });
  const rs = from > start ? from : start;
  const re = trustedThrough < end ? trustedThrough : end;
  if (rs > re) return all();
  const dirty = dirtyDays.filter((d) => d >= rs && d <= re);
  const liveDays = [
    ...(start < rs ? nyDateRange(start, addDays(rs, -1)) : []),
    ...dirty,
    ...(re < end ? nyDateRange(addDays(re, 1), end) : []),
  ];
  return { rolled: { start: rs, end: re, exclude: dirty }, liveDays, trusted };
}

/**
 * How the live days split between the intraday roll-up and the source table: a day whose start the
 * hourly rows cover ([from_at, through_at)) is read from them up to through_at, and live after it.
 */
function hourCoverage(liveDays: string[], state: Record<string, unknown> | undefined): Pick<Coverage, "hourly" | "live"> {
  const bounds = dayBounds(liveDays);
  const from = state?.from_at as string | undefined;
  const through = state?.through_at as string | undefined;
  if (!from || !through) return { hourly: null, live: bounds };
  const days: string[] = [];
  const live: Coverage["live"] = [];
  for (const [day, s, e] of bounds) {
    if (from <= s && s < through) {
      days.push(day);
      if (through < e) live.push([day, through, e]);
    } else {
      live.push([day, s, e]);
    }
  }
  return { hourly: days.length ? { days, through } : null, live };
}

/**
 * A condition on columns the source and its roll-up table share, both aliased `r`. `rollupSql`,
 * when given, is the roll-up's form: a filter kept off the source's indexes (`+r.col`) may still
 * seek the roll-up's.
 */
export type Condition = { sql: string; params: unknown[]; rollupSql?: string };

export const where = (conditions: Condition[], rollup = false) => ({
  sql: conditions.map((c) => ` AND ${rollup ? (c.rollupSql ?? c.sql) : c.sql}`).join(""),
  params: conditions.flatMap((c) => c.params),
});

export type FigureSums<F extends string> = Record<F, number>;

/** A dimension to group by: one of the spec's dims, or `day` (the roll-up's day, the live day list's day). */
export type GroupColumn = string;

/** The key of a grouped row: its group values joined by "|" ("" when not grouped). */
export const groupKey = (...parts: string[]) => parts.join("|");

/**
 * The statements of one count over a roll-up spec, and how to read their results: the figures
 * summed, or per value of the `groupBy` dimensions (keys joined by "|", see groupKey).
 */
export function figureStatements<F extends string>(
  meter: DbMeter,
  spec: RollupSpec<F>,
  coverage: Coverage,
  figures: readonly F[],
  conditions: Condition[],
  groupBy?: GroupColumn | GroupColumn[],
) {
  const groups = groupBy === undefined ? [] : Array.isArray(groupBy) ? groupBy : [groupBy];
  const w = where(conditions);
  const statements: D1PreparedStatement[] = [];
  const keyed = (exprs: string[]) => exprs.map((e, i) => `${e} AS k${i}, `).join("");
  if (coverage.rolled) {
    const rw = where(conditions, true);
    const { start, end, exclude } = coverage.rolled;
    const exprs = groups.map((g) => `r.${g}`);
    // sum() of no rows is NULL: read() counts it 0 (a coalesce per figure would cost each count its parse)
    const select = figures.map((f) => `sum(r.${f}) AS ${f}`).join(", ");
    const excludeSql = exclude.length ? " AND r.day NOT IN (SELECT value FROM json_each(?))" : "";
    statements.push(
      meter.statement(
        `SELECT ${keyed(exprs)}${select} FROM ${spec.rollupTable} r WHERE r.day >= ? AND r.day <= ?${excludeSql}${rw.sql}` +
          (exprs.length ? ` GROUP BY ${exprs.join(", ")}` : ""),
        [start, end, ...(exclude.length ? [JSON.stringify(exclude)] : []), ...rw.params],
      ),
    );
  }
  if (coverage.hourly) {
    if (!spec.hourlyTable) throw new Error(`${spec.rollupTable} has no intraday roll-up, but its source's coverage has hours`);
    const rw = where(conditions, true);
    const exprs = groups.map((g) => `r.${g}`);
    const select = figures.map((f) => `sum(r.${f}) AS ${f}`).join(", ");
    statements.push(
      meter.statement(
        `SELECT ${keyed(exprs)}${select} FROM ${spec.hourlyTable} r WHERE r.day IN (SELECT value FROM json_each(?)) AND r.hour < ?${rw.sql}` +
          (exprs.length ? ` GROUP BY ${exprs.join(", ")}` : ""),
        [JSON.stringify(coverage.hourly.days), coverage.hourly.through, ...rw.params],
      ),
    );
  }
  if (coverage.live.length) {
    const select = figures.map((f) => `${spec.figures[f]} AS ${f}`).join(", ");
    const exprs = groups.map((g) => (g === "day" ? "d.day" : spec.dims[g]));
    statements.push(
      meter.statement(
        `WITH ${DAYS_CTE} SELECT ${keyed(exprs)}${select} FROM ${fromDays(spec)} WHERE 1 = 1${w.sql}` +
          (exprs.length ? ` GROUP BY ${exprs.map((_, i) => `k${i}`).join(", ")}` : ""),
        [JSON.stringify(coverage.live), ...w.params],
      ),
    );
  }
  const read = (results: Record<string, unknown>[][]): Map<string, FigureSums<F>> => {
    const out = new Map<string, FigureSums<F>>();
    for (const rows of results) {
      for (const row of rows) {
        const k = groupKey(...groups.map((_, i) => String(row[`k${i}`] ?? "")));
        const sums = out.get(k) ?? (Object.fromEntries(figures.map((f) => [f, 0])) as FigureSums<F>);
        for (const f of figures) sums[f] += Number(row[f] ?? 0);
        out.set(k, sums);
      }
    }
    return out;
  };
  return { statements, read };
}

/** Runs one spec's count: its roll-up and live parts, over the source's coverage (overCoverage). */
export function countOver<F extends string>(
  meter: DbMeter,
  spec: RollupSpec<F>,
  range: { startDate: string; endDate: string },
  figures: readonly F[],
  conditions: Condition[],
): Promise<FigureSums<F>> {
  return overCoverage(meter, [spec.source], range, (coverage) => {
    const q = figureStatements(meter, spec, coverage[spec.source], figures, conditions);
    return { statements: q.statements, read: (results) => q.read(results).get("") ?? (Object.fromEntries(figures.map((f) => [f, 0])) as FigureSums<F>) };
  });
}

/**
 * Distinct non-empty values of an indexed column, one index seek per value (a loose index scan)
 * instead of reading every row.
 */
export function distinctValues(meter: DbMeter, table: string, column: string) {
  return meter.statement(
    `WITH RECURSIVE v(x) AS (SELECT min(${column}) FROM ${table} WHERE ${column} > '' ` +
      `UNION ALL SELECT (SELECT min(${column}) FROM ${table} WHERE ${column} > v.x) FROM v WHERE v.x IS NOT NULL) ` +
      `SELECT x FROM v WHERE x IS NOT NULL`,
  );
}
