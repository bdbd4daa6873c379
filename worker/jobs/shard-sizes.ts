// Every ten minutes, each shard's size as D1 reports it goes to the directory's `shards` rows, which
// new accounts are placed by (decision 076). A bound shard without a row is registered open. A shard
// that cannot be measured keeps its last figure, and the job fails naming it once the others are written.
import { sql } from "drizzle-orm";
import { measuredSize, shardOutcomes, ShardsFailed, type ShardOutcome } from "../db/shards";
import { shards } from "../db/schema";
import type { Job, JobContext } from "./context";

export type ShardSize = { shard: string; sizeBytes: number };

export async function measureShards(ctx: Pick<JobContext, "db" | "shards" | "now">): Promise<ShardSize[]> {
  const outcomes = await shardOutcomes(ctx.shards, (s) => measuredSize(s.db.$client));
  const measured = outcomes.flatMap((o) => (o.ok ? [{ shard: o.shard, sizeBytes: o.value }] : []));
  const at = ctx.now.toISOString();
  if (measured.length) {
    await ctx.db
      .insert(shards)
      .values(measured.map((m) => ({ name: m.shard, sizeBytes: m.sizeBytes, measuredAt: at })))
      .onConflictDoUpdate({ target: shards.name, set: { sizeBytes: sql`excluded.size_bytes`, measuredAt: sql`excluded.measured_at` } });
  }
  if (measured.length < outcomes.length) throw new ShardsFailed(outcomes as ShardOutcome<unknown>[]);
  return measured;
}

export const shardSizeJob: Job = { name: "shard-sizes", run: (ctx) => measureShards(ctx) };
