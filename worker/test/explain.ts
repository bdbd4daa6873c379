// A DbMeter that keeps every statement it prepares, so tests can ask SQLite how it plans them.
import { env } from "cloudflare:workers";
import { DbMeter } from "../services/counts/meter";

export class RecordingMeter extends DbMeter {
  readonly recorded: { sql: string; params: unknown[] }[] = [];
  /** `d1`: the database counted on (a shard for an account's calls); the directory unless given. */
  constructor(d1: D1Database = env.DB) {
    super(d1);
  }
  override statement(sql: string, params: unknown[] = []) {
    this.recorded.push({ sql, params });
    return super.statement(sql, params);
  }
  /** EXPLAIN QUERY PLAN of each recorded statement: its plan lines. */
  async plans(): Promise<{ sql: string; plan: string[] }[]> {
    const out = [];
    for (const { sql, params } of this.recorded) {
      const { results } = await this.d1.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>();
      out.push({ sql, plan: results.map((r) => r.detail) });
    }
    return out;
  }
}

/** Plan lines that read a whole table or index: anything scanned but the day list and CTEs. */
export function fullScans(plan: string[]): string[] {
  return plan.filter((line) => /^SCAN /.test(line) && !/^SCAN (d|v|json_each)\b|VIRTUAL TABLE|CONSTANT ROW/.test(line));
}
