// `npm run db:migrate [-- --remote] [--persist-to DIR]`: the one command that brings every database
// up to date (decision 076): the directory (DB) and every shard
// (SHARD_0 …) of wrangler.toml, each through `wrangler d1 migrations apply` with its own
// migrations_dir, then registers the shards in the directory (open to new accounts unless closed:
// a shard already there keeps its state) and starts each shard's id ranges (decision 080). Locally
// by default; --remote for the deployed databases.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { bin, root, run } from "./lib.mjs";

/** The D1 bindings of wrangler.toml, in the file's order, each with its migrations directory and database id. */
export function d1Bindings(toml = readFileSync(path.join(root, "wrangler.toml"), "utf8")) {
  return toml
    .split(/^\s*\[\[/m)
    .filter((block) => block.startsWith("d1_databases]]"))
    .map((block) => ({
      binding: /^\s*binding\s*=\s*"([^"]+)"/m.exec(block)?.[1],
      migrationsDir: /^\s*migrations_dir\s*=\s*"([^"]+)"/m.exec(block)?.[1],
      databaseId: /^\s*database_id\s*=\s*"([^"]+)"/m.exec(block)?.[1],
    }))
    .filter((d) => d.binding);
}

/** The shard bindings of wrangler.toml (SHARD_ and a number, as worker/db/shards.ts names them). */
export const shardNames = (bindings = d1Bindings()) => bindings.map((d) => d.binding).filter((b) => /^SHARD_(0|[1-9]\d{0,3})$/.test(b));

/** Applies every database's migrations and registers the shards; `where` is ["--local"] (with --persist-to) or ["--remote"]. */
export async function migrateAll(where, opts) {
  const bindings = d1Bindings();
  for (const { binding } of bindings) {
    await run(bin("wrangler"), ["d1", "migrations", "apply", binding, ...where, "-c", "wrangler.toml"], opts);
  }
  const shards = shardNames(bindings);
  const values = shards.map((s) => `('${s}')`).join(", ");
  if (shards.length > 0) {
    await run(bin("wrangler"), ["d1", "execute", "DB", ...where, "-c", "wrangler.toml", "--command", `INSERT OR IGNORE INTO shards (name) VALUES ${values}`], opts);
  }
  for (const shard of shards) {
    const sql = idRangeSql(shard);
    if (sql) await run(bin("wrangler"), ["d1", "execute", shard, ...where, "-c", "wrangler.toml", "--command", sql], opts);
  }
}

/** Ids a shard numbers its own rows from: shard N from N × 10^12 (worker/services/shards/move.ts, ID_RANGE). */
export const ID_RANGE = 1_000_000_000_000;
/** The tables whose ids stay as they are when an account moves (move.ts, RANGED_TABLES). */
const RANGED_TABLES = ["alert_rules", "alert_history", "alert_notifications", "webhook_attempts", "call_log_changes"];

/**
 * The SQL that starts a shard's autoincrement ranges at its number × ID_RANGE, never lowering a
 * sequence already past it (decision 080), so rows a move copies with their ids never meet the new
 * shard's own; the same statements as move.ts's idRangeStatements. None for SHARD_0.
 */
export function idRangeSql(shard) {
  const base = Number(shard.slice("SHARD_".length)) * ID_RANGE;
  if (base === 0) return null;
  return RANGED_TABLES.map(
    (t) =>
      `INSERT INTO sqlite_sequence (name, seq) SELECT '${t}', ${base} WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = '${t}'); ` +
      `UPDATE sqlite_sequence SET seq = ${base} WHERE name = '${t}' AND seq < ${base};`,
  ).join(" ");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: args } = parseArgs({ options: { remote: { type: "boolean" }, "persist-to": { type: "string" } } });
  const where = args.remote ? ["--remote"] : ["--local", ...(args["persist-to"] ? ["--persist-to", args["persist-to"]] : [])];
  migrateAll(where).catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}
