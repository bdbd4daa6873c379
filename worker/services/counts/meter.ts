// Raw D1 statements of the counts (drizzle's results hide D1's meta), sent in batches. Pass the
// request's binding (`db.$client`): its timer puts the cost in the Server-Timing header.

export class DbMeter {
  constructor(readonly d1: D1Database) {}

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
