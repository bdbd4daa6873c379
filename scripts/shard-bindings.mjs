// What `npm run deploy:check` asks of the D1 bindings of the config a deploy uploads (decision 076):
// the directory DB and the shards SHARD_0 … SHARD_n-1, numbered from 0 without a gap (the Worker finds
// its shards by those names), each migrated from migrations-shard/ (every shard has the same schema),
// each its own database, and each listed by `wrangler deploy --dry-run` as a D1 binding.
import path from "node:path";

/** A shard's binding name, as worker/db/shards.ts reads it. */
const SHARD_BINDING = /^SHARD_(0|[1-9]\d{0,3})$/;
export const SHARD_MIGRATIONS_DIR = "migrations-shard";

/**
 * The built config's D1 bindings with each migrations_dir relative to `root`: the Vite plugin writes
 * them relative to the built config's own directory (../../migrations-shard).
 */
export const rootRelativeDirs = (databases, configDir, root) =>
  databases.map((d) => (d.migrations_dir ? { ...d, migrations_dir: path.relative(root, path.resolve(configDir, d.migrations_dir)) } : d));

/** Whether the dry run's binding table lists `binding` as a D1 database. */
const listedAsD1 = (output, binding) => output.split("\n").some((line) => new RegExp(`\\benv\\.${binding}\\b`).test(line) && /\bD1\b/.test(line));

/**
 * The problems of a config's D1 bindings (`d1_databases` of the deployed wrangler.json: binding,
 * database_id, and migrations_dir relative to the project's root, as rootRelativeDirs makes it) and of
 * the dry run's output; an empty list when all is well.
 */
export function shardBindingProblems(databases, dryRunOutput) {
  const problems = [];
  const shardLike = databases.filter((d) => d.binding?.startsWith("SHARD_"));
  for (const d of shardLike) {
    if (!SHARD_BINDING.test(d.binding)) problems.push(`${d.binding} is not a shard name: SHARD_ and a number without leading zeros (SHARD_0, SHARD_1, …)`);
  }
  const shards = shardLike.filter((d) => SHARD_BINDING.test(d.binding)).sort((a, b) => Number(a.binding.slice(6)) - Number(b.binding.slice(6)));
  if (shards.length === 0) problems.push("the config binds no shard: accounts' calls need SHARD_0 at least (wrangler.toml, docs/scale.md)");
  const numbers = shards.map((d) => Number(d.binding.slice(6)));
  for (let n = 0; n < (numbers.at(-1) ?? -1); n++) {
    if (!numbers.includes(n)) problems.push(`SHARD_${n} is missing: shards are numbered from SHARD_0 without a gap (bound: ${shards.map((d) => d.binding).join(", ")})`);
  }
  for (const d of shards) {
    if (d.migrations_dir !== SHARD_MIGRATIONS_DIR) {
      problems.push(`${d.binding} has migrations_dir ${JSON.stringify(d.migrations_dir ?? null)}: every shard is migrated from "${SHARD_MIGRATIONS_DIR}"`);
    }
  }
  const owner = new Map();
  for (const d of databases) {
    if (!d.database_id) {
      if (d.binding === "DB" || SHARD_BINDING.test(d.binding)) problems.push(`${d.binding} has no database_id`);
      continue;
    }
    const first = owner.get(d.database_id);
    if (first) problems.push(`${d.binding} has the database_id of ${first} (${d.database_id}): each shard is a database of its own`);
    else owner.set(d.database_id, d.binding);
  }
  for (const binding of ["DB", ...shards.map((d) => d.binding)]) {
    if (!listedAsD1(dryRunOutput, binding)) problems.push(`the dry run lists no D1 binding env.${binding}`);
  }
  return problems;
}
