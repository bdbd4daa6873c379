// The shards (decision 076): D1 databases SHARD_0, SHARD_1, … bound to the Worker, each holding the
// calls, roll-ups, alerts and webhooks of the accounts the directory places on it (profiles.shard).
// Which shards exist is configuration (wrangler.toml); the directory's `shards` table holds each one's
// measured size and whether it takes new accounts; a trigger on profiles places a new account on the
// open shard with the most room (migrations/0038_shards.sql).
import { eq, sql } from "drizzle-orm";
import { createDb, type Database } from "./client";
import { profiles, shards } from "./schema";

/** A shard's binding name: SHARD_ and its number. */
export const SHARD_BINDING = /^SHARD_(0|[1-9]\d{0,3})$/;

/**
 * The id of a new alert rule, alert, bell item or webhook attempt, in SQL: random, 52 bits (exact in
 * JavaScript), so a row keeps its id when its account moves to another shard and never meets one the
 * shard made itself (a shard's own autoincrement would: SQLite numbers on from the largest id a table
 * holds, a copied one included).
 */
export const SHARD_ROW_ID = "((random() & 4503599627370495) + 1)";

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

/** A shard as work across accounts sees it: its binding's name and its database. */
export type Shard = { name: string; db: Database };

/** Every bound shard on its primary, for work outside a request (jobs write what requests then read). */
export const shardPrimaries = (env: Record<string, unknown>): Shard[] =>
  shardBindings(env).map((name) => ({ name, db: createDb(shardDatabase(env, name).withSession("first-primary") as unknown as D1Database) }));

/** One shard's part of a run across shards: its result, or the error it failed with. */
export type ShardOutcome<T> = { shard: string } & ({ ok: true; value: T } | { ok: false; error: string });

/** Some shards failed; the others' work stands. The message names each failed shard and its error. */
export class ShardsFailed extends Error {
  constructor(readonly outcomes: ShardOutcome<unknown>[]) {
    const failed = outcomes.filter((o): o is ShardOutcome<unknown> & { ok: false } => !o.ok);
    super(`${failed.length} of ${outcomes.length} shards failed: ${failed.map((o) => `${o.shard}: ${o.error}`).join("; ")}`);
  }
}

/**
 * Runs `work` on every shard at once. A failing shard does not stop or hide the others: each one's
 * outcome is returned, and `eachShard` throws ShardsFailed (naming each failed shard) only after
 * every shard has finished, so a job records the failure while the healthy shards' work is done.
 */
export async function eachShard<T>(shards: readonly Shard[], work: (shard: Shard) => Promise<T>): Promise<{ shard: string; value: T }[]> {
  const outcomes = await shardOutcomes(shards, work);
  if (outcomes.some((o) => !o.ok)) throw new ShardsFailed(outcomes);
  return outcomes.map((o) => ({ shard: o.shard, value: (o as { value: T }).value }));
}

/** As eachShard, but never throws: every shard's outcome, for an answer that reports the failed ones. */
export async function shardOutcomes<T>(shards: readonly Shard[], work: (shard: Shard) => Promise<T>): Promise<ShardOutcome<T>[]> {
  const settled = await Promise.allSettled(shards.map((s) => work(s)));
  return settled.map((r, i) =>
    r.status === "fulfilled" ? { shard: shards[i].name, ok: true as const, value: r.value } : { shard: shards[i].name, ok: false as const, error: r.reason instanceof Error ? r.reason.message : String(r.reason) },
  );
}

/** The shard an account is placed on, read from the directory; null for an unknown or unplaced account. */
export async function shardNameOfAccount(directory: Database, accountId: string): Promise<string | null> {
  const row = await directory.select({ shard: profiles.shard }).from(profiles).where(eq(profiles.id, accountId)).get();
  return row?.shard ?? null;
}
