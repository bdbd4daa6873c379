// Every ten minutes, each shard's size as D1 reports it goes to the directory's `shards` rows, which
// new accounts are placed by (decision 076). A bound shard without a row is registered open; a shard
// past half of D1's 10 GB is closed to new accounts (its accounts stay; an operator moves some off it,
// docs/scale.md). A shard that cannot be measured keeps its last figure, and the job fails naming it
// once the others are written.
import { D1_DATABASE_LIMIT_BYTES, measuredSize, shardOutcomes, ShardsFailed, type ShardOutcome } from "../db/shards";
import type { Job, JobContext } from "./context";

/** A shard this full takes no new accounts: the other half is its accounts' room to grow. */
export const CLOSE_SHARD_AT_BYTES = D1_DATABASE_LIMIT_BYTES / 2;

export type ShardSize = { shard: string; sizeBytes: number };

export async function measureShards(ctx: Pick<JobContext, "db" | "shards" | "now">): Promise<ShardSize[]> {
  const outcomes = await shardOutcomes(ctx.shards, (s) => measuredSize(s.db.$client));
  const measured = outcomes.flatMap((o) => (o.ok ? [{ shard: o.shard, sizeBytes: o.value }] : []));
  const at = ctx.now.toISOString();
  if (measured.length) {
    // One statement with the sizes as one JSON parameter, however many shards there are (D1 binds at
    // most 100 parameters a statement). Closing is one way: an operator reopens a shard.
    await ctx.db.$client
      .prepare(
        `INSERT INTO shards (name, open, size_bytes, measured_at)
         SELECT value ->> 'shard', value ->> 'sizeBytes' < ?1, value ->> 'sizeBytes', ?2 FROM json_each(?3) WHERE true
         ON CONFLICT (name) DO UPDATE SET size_bytes = excluded.size_bytes, measured_at = excluded.measured_at,
           open = CASE WHEN excluded.size_bytes >= ?1 THEN 0 ELSE shards.open END`,
      )
      .bind(CLOSE_SHARD_AT_BYTES, at, JSON.stringify(measured))
      .run();
  }
  if (measured.length < outcomes.length) throw new ShardsFailed(outcomes as ShardOutcome<unknown>[]);
  return measured;
}

export const shardSizeJob: Job = { name: "shard-sizes", run: (ctx) => measureShards(ctx) };
