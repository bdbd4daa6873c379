// The shards (decision 076): D1 databases SHARD_0, SHARD_1, … bound to the Worker, each holding the
// calls, roll-ups, alerts and webhooks of the accounts the directory places on it (profiles.shard).
// Which shards exist is configuration (wrangler.toml); the directory's `shards` table holds each one's
// measured size and whether it takes new accounts; a trigger on profiles places a new account on the
// open shard with the most room (migrations/0038_shards.sql).
import { eq, sql } from "drizzle-orm";
import type { Database } from "./client";
import { profiles, shards } from "./schema";

/** A shard's binding name: SHARD_ and its number. */
export const SHARD_BINDING = /^SHARD_(0|[1-9]\d{0,3})$/;

/** D1 stops a database at 10 GB. */
export const D1_DATABASE_LIMIT_BYTES = 10 * 1000 ** 3;

const isD1 = (v: unknown): v is D1Database =>
  typeof (v as Partial<D1Database> | undefined)?.prepare === "function" && typeof (v as Partial<D1Database>).batch === "function";

/** The shard bindings of an environment, in their numbers' order. */
export function shardBindings(env: Record<string, unknown>): string[] {
  return Object.keys(env)
    .filter((name) => SHARD_BINDING.test(name) && isD1(env[name]))
    .sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)));
}

/** A shard binding by name; throws when the environment has no such D1 binding. */
export function shardDatabase(env: Record<string, unknown>, name: string): D1Database {
  const d1 = SHARD_BINDING.test(name) ? env[name] : undefined;
  if (!isD1(d1)) throw new Error(`${name} is not a shard of this Worker`);
  return d1;
}

/**
 * The shard an account without one goes to when the directory has measured none of the bound shards:
 * a pick by the account's id (FNV-1a), so the same account lands on the same shard from any isolate.
 */
export function fallbackShard(bound: readonly string[], accountId: string): string {
  if (bound.length === 0) throw new Error("The Worker has no shard bound (SHARD_0 …)");
  let h = 0x811c9dc5;
  for (let i = 0; i < accountId.length; i++) h = Math.imul(h ^ accountId.charCodeAt(i), 0x01000193) >>> 0;
  return bound[h % bound.length];
}

/**
 * Places an account that has no shard yet (one made before the shards, or while the directory knew
 * no shard) on the open shard with the most room, else on its fallback; returns the shard it is on.
 * A conditional write: two requests placing the same account at once agree on the first one's pick.
 */
export async function placeAccount(directory: Database, bound: readonly string[], accountId: string): Promise<string> {
  const fallback = fallbackShard(bound, accountId);
  const [row] = await directory.batch([
    directory
      .update(profiles)
      .set({ shard: sql`coalesce((${openShardWithMostRoom(bound)}), ${fallback})` })
      .where(sql`${profiles.id} = ${accountId} AND ${profiles.shard} IS NULL`),
    directory.select({ shard: profiles.shard }).from(profiles).where(eq(profiles.id, accountId)),
  ]).then(([, read]) => read);
  return row?.shard ?? fallback;
}

/**
 * The open shard with the most room among `bound`: the smallest by 100 MB steps, a random one among
 * equals, so accounts made between two measurements spread over the shards that are alike.
 */
export const openShardWithMostRoom = (bound: readonly string[]) =>
  sql`SELECT ${shards.name} FROM ${shards} WHERE ${shards.open} = 1 AND ${shards.name} IN (SELECT value FROM json_each(${JSON.stringify(bound)})) ORDER BY ${shards.sizeBytes} / 100000000, random() LIMIT 1`;

/** A shard's size as D1 reports it with any answer (meta.size_after, bytes). */
export async function measuredSize(d1: D1Database): Promise<number> {
  const res = await d1.prepare("SELECT 1").run();
  const size = (res.meta as { size_after?: number }).size_after;
  if (typeof size !== "number") throw new Error("D1 reported no database size");
  return size;
}
