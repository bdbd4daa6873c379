// Raw D1 statements of the counts (drizzle's results hide D1's meta), sent in batches. Built on the
// request's binding (meterFor(c.var.db), or the account's shard): its timer puts the cost in the
// Server-Timing header.
import { d1Of, type Database } from "../../db/client";
import { DIRECTORY_BINDING } from "../../db/sessions";

export class DbMeter {
  /**
   * `database` names the D1 binding behind `d1` (the directory's, or a shard's): the coverage this
   * isolate remembers is kept per database (engine.ts), since each shard rolls up its own calls.
   */
  constructor(
    readonly d1: D1Database,
    readonly database: string = DIRECTORY_BINDING,
  ) {}

  statement(sql: string, params: unknown[] = []): D1PreparedStatement {
    return this.d1.prepare(sql).bind(...params);
  }

  /** Runs the statements in one round trip and returns each one's rows. */
  async batch(statements: D1PreparedStatement[]): Promise<Record<string, unknown>[][]> {
    if (statements.length === 0) return [];
    const results = await this.d1.batch<Record<string, unknown>>(statements);
    return results.map((r) => r.results ?? []);
  }
}

/** A meter over the D1 binding under `db`, the binding named `database` (the directory unless given). */
export const meterFor = (db: Database, database?: string) => new DbMeter(d1Of(db), database);
