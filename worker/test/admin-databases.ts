// The admin services' databases in a test: the directory and every test shard, as a request has them.
import { env } from "cloudflare:workers";
import { createDb } from "../db/client";
import { shardDatabase } from "../db/shards";
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
