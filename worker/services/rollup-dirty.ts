// Days whose roll-ups may be stale: late data marks its New York day here, in the same batch that
// writes it, and the roll-up job recomputes and clears the marks.
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../db/client";
import { rollupDirtyDays } from "../db/schema";

/** Two bound parameters a row, under D1's 100 a statement. */
const ROWS_PER_STATEMENT = 50;

/**
 * Statements that mark each day ('YYYY-MM-DD', New York) of `source` dirty; none for no days.
 * Marking an already dirty day changes nothing, so replays and retries are harmless.
 */
export function markDaysDirty(db: Database, source: string, days: Iterable<string>): BatchItem<"sqlite">[] {
  const unique = [...new Set(days)].sort();
  const statements: BatchItem<"sqlite">[] = [];
  for (let i = 0; i < unique.length; i += ROWS_PER_STATEMENT) {
    const rows = unique.slice(i, i + ROWS_PER_STATEMENT).map((day) => ({ source, day }));
    statements.push(db.insert(rollupDirtyDays).values(rows).onConflictDoNothing());
  }
  return statements;
}
