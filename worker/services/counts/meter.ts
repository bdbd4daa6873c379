// D1 queries of the counts, timed and with the rows D1 read, for the Server-Timing header (cost is
// visible in every answer). Raw D1 statements: drizzle's results hide D1's meta.

export class DbMeter {
  durationMs = 0;
  rowsRead = 0;
  constructor(readonly d1: D1Database) {}

  statement(sql: string, params: unknown[] = []): D1PreparedStatement {
    return this.d1.prepare(sql).bind(...params);
  }

  /** Runs the statements in one round trip and returns each one's rows. */
  async batch(statements: D1PreparedStatement[]): Promise<Record<string, unknown>[][]> {
    if (statements.length === 0) return [];
    const started = performance.now();
    const results = await this.d1.batch<Record<string, unknown>>(statements);
    this.durationMs += performance.now() - started;
    for (const r of results) this.rowsRead += Number(r.meta?.rows_read ?? 0);
    return results.map((r) => r.results ?? []);
  }

  /** The Server-Timing value: database time always, rows read where cost is being looked at. */
  serverTiming(withRows: boolean): string {
    const parts = [`db;dur=${this.durationMs.toFixed(2)};desc="D1"`];
    if (withRows) parts.push(`db-rows;desc="${this.rowsRead}"`);
    return parts.join(", ");
  }
}
