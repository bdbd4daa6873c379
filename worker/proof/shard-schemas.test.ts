// Every shard runs the same migrations (migrations-shard/, decision 076), so every shard has the same
// schema: the same tables, indexes, triggers and views with the same SQL. A shard that drifted (a
// migration applied to one shard only, a hand-made index) would answer the same query differently or
// not at all, so this proof compares the shards' sqlite_master after migrations, and checks that every
// column the drizzle schema declares for a shard table exists in the shard.
import { env, runInDurableObject } from "cloudflare:test";
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../db/schema";
import { shardBindings } from "../db/shards";

type SchemaEntry = { type: string; name: string; tbl_name: string; sql: string | null };
/** A database to read: its rows for a statement with parameters. */
type Reader = <T>(sql: string, ...params: string[]) => Promise<T[]>;

const bindings = env as unknown as Record<string, D1Database>;
const shardNames = shardBindings(bindings);
const shard = (name: string): Reader => async (sql, ...params) => (await bindings[name].prepare(sql).bind(...params).all()).results as never;

// D1's own bookkeeping (_cf_…) and the migrations table D1 keeps (the throwaway copy has none).
const SCHEMA_SQL = "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND tbl_name <> 'd1_migrations' ORDER BY type, name";

/** A database's schema as sqlite_master holds it. */
const schemaOf = (read: Reader) => read<SchemaEntry>(SCHEMA_SQL);

/** What differs between two schemas, one line per object: on one side only, or with other SQL. */
function schemaDifferences(a: { name: string; entries: SchemaEntry[] }, b: { name: string; entries: SchemaEntry[] }): string[] {
  const key = (e: SchemaEntry) => `${e.type} ${e.name}`;
  const left = new Map(a.entries.map((e) => [key(e), e]));
  const right = new Map(b.entries.map((e) => [key(e), e]));
  const out: string[] = [];
  for (const [k, e] of left) {
    const other = right.get(k);
    if (!other) out.push(`${k} is in ${a.name} only`);
    else if (other.tbl_name !== e.tbl_name || other.sql !== e.sql) out.push(`${k} differs: ${a.name} ${JSON.stringify(e.sql)}, ${b.name} ${JSON.stringify(other.sql)}`);
  }
  for (const k of right.keys()) if (!left.has(k)) out.push(`${k} is in ${b.name} only`);
  return out;
}

/** The drizzle tables (worker/db/schema.ts) with their columns' SQL names. */
const drizzleTables = Object.values(schema as Record<string, unknown>)
  .filter((t): t is SQLiteTable => is(t, SQLiteTable))
  .map((t) => ({ name: getTableName(t), columns: Object.values(getTableColumns(t)).map((c) => c.name) }));

/** The drizzle tables the database has, and each column drizzle declares for them that it lacks ("table.column"). */
async function missingColumns(read: Reader): Promise<{ checked: string[]; missing: string[] }> {
  const tables = new Set((await schemaOf(read)).filter((e) => e.type === "table").map((e) => e.name));
  const checked = drizzleTables.filter((t) => tables.has(t.name));
  const missing: string[] = [];
  for (const t of checked) {
    const have = new Set((await read<{ name: string }>("SELECT name FROM pragma_table_info(?)", t.name)).map((r) => r.name));
    for (const c of t.columns) if (!have.has(c)) missing.push(`${t.name}.${c}`);
  }
  return { checked: checked.map((t) => t.name), missing };
}

/**
 * A throwaway copy of a shard: the SQLite database of a new Durable Object, given the shard
 * migrations D1 ran (migrations-shard/), then `change`; returns what the checks read of it. The
 * object's own tables from before the migrations are left out, so only the shard schema is compared.
 */
async function throwawayShard(change: string[] = []): Promise<{ entries: SchemaEntry[]; missing: string[] }> {
  const stub = env.LIVE_FEED.get(env.LIVE_FEED.newUniqueId());
  return runInDurableObject(stub, async (_, state) => {
    const sql = state.storage.sql;
    const own = new Set(sql.exec<{ name: string }>("SELECT name FROM sqlite_master").toArray().map((r) => r.name));
    for (const migration of env.TEST_SHARD_MIGRATIONS) for (const query of migration.queries) sql.exec(query);
    for (const query of change) sql.exec(query);
    const read: Reader = async (query, ...params) => sql.exec(query, ...params).toArray() as never;
    const entries = (await schemaOf(read)).filter((e) => !own.has(e.name) || e.name === "sqlite_sequence");
    return { entries, missing: (await missingColumns(read)).missing };
  });
}

describe("shard schemas", () => {
  it("runs on more than one shard", () => {
    expect(shardNames.length).toBeGreaterThanOrEqual(2);
  });

  it("every shard has the first shard's tables, indexes, triggers and views with the same SQL", async () => {
    const schemas = await Promise.all(shardNames.map(async (name) => ({ name, entries: await schemaOf(shard(name)) })));
    // The comparison has something to compare: the shard schema's tables, the FTS index and triggers.
    expect(schemas[0].entries.filter((e) => e.type === "table").map((e) => e.name)).toEqual(
      expect.arrayContaining(["call_logs", "call_log_daily", "call_log_changes", "alert_rules", "webhook_endpoints", "webhook_attempts", "call_search", "call_search_docs"]),
    );
    expect(schemas[0].entries.some((e) => e.type === "trigger")).toBe(true);
    expect(schemas.slice(1).flatMap((s) => schemaDifferences(schemas[0], s))).toEqual([]);
  });

  it("every column drizzle declares for a shard table exists in every shard", async () => {
    for (const name of shardNames) {
      const { checked, missing } = await missingColumns(shard(name));
      expect(checked).toEqual(expect.arrayContaining(["call_logs", "call_log_user_daily", "rollup_state", "alert_rules", "alert_history", "webhook_endpoints", "webhook_deliveries"]));
      expect({ shard: name, missing }).toEqual({ shard: name, missing: [] });
    }
  });

  describe("on a throwaway copy of a shard", () => {
    const first = shardNames[0];

    it("a copy given the same migrations compares equal to the shard", async () => {
      const copy = await throwawayShard();
      expect(copy.entries.length).toBeGreaterThan(20);
      expect(schemaDifferences({ name: first, entries: await schemaOf(shard(first)) }, { name: "copy", entries: copy.entries })).toEqual([]);
      expect(copy.missing).toEqual([]);
    });

    it("reports a copy that drifted: a column, an index and a trigger on one side only", async () => {
      const copy = await throwawayShard([
        "ALTER TABLE call_logs ADD COLUMN drifted text",
        "CREATE INDEX call_logs_drifted_idx ON call_logs (drifted)",
        "DROP TRIGGER closed_day_version_rollup_run",
      ]);
      const differences = schemaDifferences({ name: first, entries: await schemaOf(shard(first)) }, { name: "copy", entries: copy.entries });
      expect(differences).toEqual([
        expect.stringMatching(/^table call_logs differs: SHARD_\d+ ".*", copy ".*drifted text\)"$/s),
        "trigger closed_day_version_rollup_run is in " + first + " only",
        "index call_logs_drifted_idx is in copy only",
      ]);
    });

    it("reports a column drizzle declares that the copy lacks", async () => {
      const copy = await throwawayShard(["ALTER TABLE alert_history DROP COLUMN rule_name"]);
      expect(copy.missing).toEqual(["alert_history.rule_name"]);
    });
  });
});
