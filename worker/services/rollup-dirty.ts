// Days whose source rows changed after their roll-up ran (docs/decisions/011-rollups.md). A writer
// adds this statement to the batch that writes the rows, so the mark and the change commit together;
// the counts read a dirty day live and the next roll-up run recomputes it and clears the mark.
import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { rollupDirtyDays } from "../db/schema";

export type RollupSource = "call_logs" | "aircall" | "appointments" | "leads";

/** The insert-or-ignore of these New York days (YYYY-MM-DD) for the caller's batch, or null for none. */
export function markDaysDirty(db: Database, source: RollupSource, days: Iterable<string>) {
  const unique = [...new Set(days)];
  if (unique.length === 0) return null;
  // One JSON parameter whatever the number of days: D1 binds at most 100 per statement. "where true"
  // keeps SQLite from reading ON CONFLICT as a join constraint of the select.
  return db
    .insert(rollupDirtyDays)
    .select(sql`select ${source}, value from json_each(${JSON.stringify(unique)}) where true`)
    .onConflictDoNothing();
}
