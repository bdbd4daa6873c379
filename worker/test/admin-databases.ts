// The databases of a test across shards: the admin services' (the directory and every test shard, as
// a request has them), a shard by name, and a shard that fails every statement.
import { env } from "cloudflare:workers";
import { createDb } from "../db/client";
import { shardDatabase, type Shard } from "../db/shards";
import { parseConfig } from "../env";
import { createProviders } from "../providers";
import type { AdminDatabases } from "../services/admin/users";
import { DbMeter } from "../services/counts/meter";

const bindings = env as unknown as Record<string, unknown>;

/** Meters over the directory and any shard by name. */
export const testAdminDatabases = (): AdminDatabases => ({ directory: new DbMeter(env.DB), shard: (name) => new DbMeter(shardDatabase(bindings, name), name) });

/** A shard's database by name, for the clean-up's deps. */
export const testShardDb = (name: string) => createDb(shardDatabase(bindings, name));

/** A D1 database that fails every statement, as an unreachable shard would. */
export function failingD1(name: string): D1Database {
  const fail = () => {
    throw new Error(`D1_ERROR: ${name} is unreachable`);
  };
  return { prepare: fail, batch: async () => fail(), exec: async () => fail(), dump: async () => fail(), withSession: fail } as unknown as D1Database;
}

/** A shard whose database fails every statement, for work across shards that must name it. */
export const unreachableShard = (name: string): Shard => ({ name, db: createDb(failingD1(name)) });

/** What the account clean-up is handed in a test: the directory, the shards, the local providers and the R2 bucket. */
export function testCleanupDeps() {
  const directory = createDb(env.DB);
  const providers = createProviders(parseConfig(bindings), directory);
  return {
    db: directory,
    shard: testShardDb,
    identity: providers.identity,
    voice: providers.voice,
    telephony: providers.telephony,
    billing: providers.billing,
    text: env.CALL_TEXT,
  };
}
