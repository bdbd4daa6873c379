// Exactly-once webhook effects (docs/product/design.md#data): an effect runs only while its event id is unrecorded,
// and the id is recorded in the same batch, so a repeated delivery changes nothing.
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client";
import { webhookEvents } from "../db/schema";

/** True while the event has not been recorded; always true without an event (a backfill). */
export function unlessRecorded(eventId: string | undefined): SQL {
  return eventId ? sql`not exists (select 1 from ${webhookEvents} where ${webhookEvents.id} = ${eventId})` : sql`1`;
}

/**
 * An insert of one row given as an SQL value per column, written as insert … select in the table's
 * column order so that it can carry the event guard as its where clause. The caller adds its
 * `onConflictDoUpdate`.
 */
export function insertUnlessRecorded<T extends SQLiteTable>(db: Database, table: T, values: Record<string, SQL>, eventId: string | undefined) {
  const ordered = Object.entries(getTableColumns(table))
    // The filter drizzle applies to the insert's column list (generated columns are left out).
    .filter(([, column]) => !(column as unknown as { shouldDisableInsert(): boolean }).shouldDisableInsert())
    .map(([key]) => values[key]);
  return db.insert(table).select(sql`select ${sql.join(ordered, sql`, `)} where ${unlessRecorded(eventId)}`);
}

/** The statement recording an event; last in its batch, its `changes` say whether it was new. */
export function recordEvent(db: Database, event: { id: string; provider: string; eventType: string }) {
  return db.insert(webhookEvents).values(event).onConflictDoNothing();
}

/** Whether the batch's event record (its result) found the event already stored. */
export const wasDuplicate = (recorded: unknown) => (recorded as D1Result).meta.changes === 0;
