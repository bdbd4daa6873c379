// `npm run db:migrate [-- --remote] [--persist-to DIR]`: the one command that brings every database
// up to date (decision 076): the directory (DB) and every shard
// (SHARD_0 …) of wrangler.toml, each through `wrangler d1 migrations apply` with its own
// migrations_dir, then registers the shards in the directory (open to new accounts unless closed:
// a shard already there keeps its state). Locally by default; --remote for the deployed
// databases.
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
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: args } = parseArgs({ options: { remote: { type: "boolean" }, "persist-to": { type: "string" } } });
  const where = args.remote ? ["--remote"] : ["--local", ...(args["persist-to"] ? ["--persist-to", args["persist-to"]] : [])];
  migrateAll(where).catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}
