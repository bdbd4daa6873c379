// Days whose roll-ups are stale: data for them arrived (ingestion, late webhooks) after they may
// have been rolled up. Writers mark them in the same batch as the data; the roll-up job recomputes
// the marked days and clears the marks it has seen (by marked_at).
import { TZDate } from "@date-fns/tz";
import { sql } from "drizzle-orm";
import { DISPLAY_TIME_ZONE } from "../../shared/constants";
import type { Database } from "../db/client";
import { rollupDirtyDays } from "../db/schema";

/** What changed: the roll-up job recomputes the metrics built from this source. */
export type RollupSource = "appointments" | "leads";

/** A row binds source and day (marked_at is the column's SQL default): 50 rows fill D1's 100 parameters. */
const DIRTY_ROWS_PER_STATEMENT = Math.floor(100 / 2);

/** The New York calendar day ('YYYY-MM-DD') of a UTC instant: every day boundary is New York's (DESIGN §3). */
export function nyDay(instant: string | Date): string {
  const t = new TZDate(new Date(instant).getTime(), DISPLAY_TIME_ZONE);
  if (Number.isNaN(t.getTime())) throw new RangeError(`Not a timestamp: ${String(instant)}`);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}`;
}

/**
 * Statements that mark these days dirty for the source, for the caller's `db.batch` (so the marks
 * commit with the data or not at all). Re-marking a day moves its `marked_at` forward.
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
