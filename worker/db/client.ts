import { getTableColumns, sql, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "./schema";

export function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Database = ReturnType<typeof createDb>;

/** The D1 binding under drizzle, for raw statements whose meta (rows read, SQL time) drizzle's results hide. */
export const d1Of = (db: Database): D1Database => db.$client;
export { schema };

/**
 * Whether a failed statement broke a unique index (optionally one whose message matches `on`).
 * D1 wraps SQLite's error, so the causes are searched too.
 */
export function isUniqueViolation(e: unknown, on?: RegExp): boolean {
  for (let err: unknown = e, depth = 0; err && depth < 4; err = (err as { cause?: unknown }).cause, depth++) {
    const msg = err instanceof Error ? err.message : String(err);
    if (/UNIQUE constraint failed/i.test(msg) && (!on || on.test(msg))) return true;
  }
  return false;
}

/** D1 binds at most 100 parameters per statement. */
export const D1_MAX_BOUND_PARAMETERS = 100;

/**
 * A list as ONE bound parameter, for `inArray(column, jsonList(values))`: `(select value from
 * json_each(?))`, so a statement's parameter count does not grow with the list. An index on the
 * column is still used (SQLite reads json_each first, then seeks each value).
 */
export const jsonList = (values: readonly (string | number)[]): SQL => sql`(select value from json_each(${JSON.stringify(values)}))`;

/**
 * Rows per multi-row insert: every column of the table may become a bound parameter (drizzle binds
 * literal defaults for columns a row leaves out), so the column count is the safe bound per row.
 */
export function rowsPerStatement(table: SQLiteTable): number {
  return Math.max(1, Math.floor(D1_MAX_BOUND_PARAMETERS / Object.keys(getTableColumns(table)).length));
}
