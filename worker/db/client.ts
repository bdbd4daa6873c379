import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Database = ReturnType<typeof createDb>;
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
