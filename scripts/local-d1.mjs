// The local D1 databases' SQLite files, for the scripts that write or read them directly (the seed,
// the search rebuild, the bench). `wrangler dev` and `wrangler d1 … --local` keep each database of
// wrangler.toml in a Durable Object of Miniflare's D1 namespace, whose file is named by the object's
// id: the id `idFromName(database_id)` gives in the namespace `miniflare-D1DatabaseObject`, which
// workerd derives with HMAC-SHA256 keyed by the SHA-256 of that name. So every binding's file is known
// from its database_id, whatever the other files hold (all shards have the same schema); the file's
// content is checked all the same, so a changed naming fails loudly instead of seeding the wrong file.
import { createHash, createHmac } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { root } from "./lib.mjs";
import { d1Bindings, shardNames } from "./migrate.mjs";

const D1_NAMESPACE = "miniflare-D1DatabaseObject";

/** The default local state of wrangler (the one `npm start` uses). */
export const defaultStateDir = path.join(root, ".wrangler", "state");

/** A Durable Object's id from its name, as workerd's idFromName makes it (hex, 64 characters). */
export function durableObjectIdFromName(uniqueKey, name) {
  const key = createHash("sha256").update(uniqueKey).digest();
  const nameHash = createHmac("sha256", key).update(name).digest().subarray(0, 16);
  const check = createHmac("sha256", key).update(nameHash).digest().subarray(0, 16);
  return Buffer.concat([nameHash, check]).toString("hex");
}

/** The SQLite file a local D1 database with `databaseId` lives in, under a wrangler state directory. */
export const localD1Path = (stateDir, databaseId) =>
  path.join(stateDir, "v3", "d1", D1_NAMESPACE, `${durableObjectIdFromName(D1_NAMESPACE, databaseId)}.sqlite`);

/** The table only that kind of database has: how a file's content confirms what it is. */
const MARK_TABLE = { directory: "profiles", shard: "call_search_docs" };

/**
 * The local files of the directory (DB) and of every shard of wrangler.toml: `{ directory, shards:
 * [{ name, file }] }`, shards in their numbers' order. Throws, naming the binding, when a file is
 * missing (not migrated yet: `npm run db:migrate`) or does not hold that kind of database.
 */
export function localD1Files(DatabaseSync, stateDir = defaultStateDir, bindings = d1Bindings()) {
  const fileOf = (binding, kind) => {
    const entry = bindings.find((b) => b.binding === binding);
    if (!entry?.databaseId) throw new Error(`wrangler.toml has no database_id for the D1 binding ${binding}`);
    const file = localD1Path(stateDir, entry.databaseId);
    const where = path.relative(root, file) || file;
    if (!existsSync(file)) throw new Error(`${binding} has no local database (${where}): run npm run db:migrate first`);
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const has = (t) => Boolean(db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(t));
      const other = kind === "shard" ? "directory" : "shard";
      if (!has(MARK_TABLE[kind]) || has(MARK_TABLE[other])) {
        throw new Error(`${where} should be ${binding}, a ${kind}, but its tables say otherwise: run npm run db:migrate first`);
      }
    } finally {
      db.close();
    }
    return file;
  };
  const shards = shardNames(bindings).sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)));
  return { directory: fileOf("DB", "directory"), shards: shards.map((name) => ({ name, file: fileOf(name, "shard") })) };
}

/**
 * The shard of each demo account (email → binding) in the local state, or null when it cannot be read
 * (no node:sqlite in this Node, no migrated state): the banner then leaves it out.
 */
export function localDemoShards(emails, stateDir = defaultStateDir) {
  const sqlite = process.getBuiltinModule?.("node:sqlite");
  if (!sqlite) return null;
  try {
    const db = new sqlite.DatabaseSync(localD1Files(sqlite.DatabaseSync, stateDir).directory, { readOnly: true });
    try {
      const rows = db.prepare(`select lower(email) as email, shard from profiles where lower(email) in (${emails.map(() => "?").join(", ")})`).all(...emails);
      return Object.fromEntries(rows.filter((r) => r.shard).map((r) => [r.email, r.shard]));
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}
