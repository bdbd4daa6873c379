// Days whose roll-ups are stale: data for them arrived (ingestion, late webhooks, backfill) after
// they may have been rolled up. Writers mark them in the same batch as the data; the roll-up job
// recomputes the marked days and clears the marks it has seen (by marked_at).
import { eq, sql, type SQL } from "drizzle-orm";
import { D1_MAX_BOUND_PARAMETERS, type Database } from "../db/client";
import { callLogs, rollupDirtyDays, rollupHourState } from "../db/schema";

/** What changed: the roll-up job recomputes the figures built from this source. */
export type RollupSource = "call_logs" | "aircall" | "appointments" | "leads";
/** Every source, in the order the roll-up job runs them. */
export const ROLLUP_SOURCES: readonly RollupSource[] = ["call_logs", "aircall", "appointments", "leads"];

/**
 * The stored nightly reports are derived data too: when the roll-up job clears a dirty mark of a
 * source the daily report reads, for a day that has stored reports, it moves the mark to this
 * pseudo-source in the same transaction, and the report job regenerates that day's reports
 * (docs/decisions/017-stored-reports-follow-late-events.md).
 */
export const STORED_REPORTS_MARK = "daily_reports";
/** The sources whose figures the daily report shows (decision 012: appointments, leads, Aircall). */
export const REPORTED_SOURCES: readonly RollupSource[] = ["appointments", "aircall", "leads"];

/** A row binds source and day (marked_at is the column's SQL default): 50 rows fill D1's 100 parameters. */
const DIRTY_ROWS_PER_STATEMENT = Math.floor(D1_MAX_BOUND_PARAMETERS / 2);

/**
 * Statements that mark these New York days ('YYYY-MM-DD') dirty for the source, for the caller's
 * `db.batch` (so the marks commit with the data or not at all); none for no days. Re-marking a day
 * moves its `marked_at` forward, so a mark made while the job recomputes that day is not lost.
 */
export function markDaysDirty(db: Database, source: RollupSource, days: Iterable<string>) {
  const unique = [...new Set(days)].sort();
  const statements = [];
  for (let i = 0; i < unique.length; i += DIRTY_ROWS_PER_STATEMENT) {
    statements.push(
      db
        .insert(rollupDirtyDays)
        .values(unique.slice(i, i + DIRTY_ROWS_PER_STATEMENT).map((day) => ({ source, day })))
        .onConflictDoUpdate({ target: [rollupDirtyDays.source, rollupDirtyDays.day], set: { markedAt: sql`excluded.marked_at` } }),
    );
  }
  return statements;
}

/**
 * The statement that moves the intraday roll-up's watermark (rollup_hour_state.through_at) back to
 * the hour of the earliest call the condition selects, for the caller's `db.batch`: put it beside
 * the write, before it for the rows as they were and after it for the rows as they are, so an hour
 * whose calls change is read live again until the next run recomputes it
 * (docs/decisions/034-intraday-rollups.md). No call selected, or no state yet: nothing changes.
 */
export function callHoursChanged(db: Database, calls: SQL) {
  const earliestHour = sql`(select min(substr(${callLogs.startTime}, 1, 13)) || ':00:00.000Z' from ${callLogs} where ${calls})`;
  return db
    .update(rollupHourState)
    .set({ throughAt: sql`min(${rollupHourState.throughAt}, coalesce(${earliestHour}, ${rollupHourState.throughAt}))` })
    .where(eq(rollupHourState.source, "call_logs"));
}
