// The shards as an operator sees them (decision 080): each bound shard's size as D1 reports it, the
// accounts the directory places on it, its room to D1's 10 GB, whether it takes new accounts, and
// the moves in and out of it; and opening or closing a shard to new accounts.
import { ne, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { ShardMoveView, ShardStatusResponse, ShardStatusView } from "@shared/schemas/admin";
import type { Database } from "../../db/client";
import { profiles, shardMoves, shards } from "../../db/schema";
import { D1_DATABASE_LIMIT_BYTES, measuredSize } from "../../db/shards";
import { auditStatement, type AdminActor } from "../admin/audit-log";
import type { MovePhase, ShardMove } from "./move";

/**
 * Every bound shard's status: one directory batch, and each shard's size read at the same time (in
 * parallel). `open`: first opens or closes that shard, in the same batch, with its audit row.
 */
export async function shardStatus(
  directory: Database,
  bound: readonly string[],
  d1Of: (name: string) => D1Database,
  open?: { actor: AdminActor; name: string; open: boolean },
): Promise<ShardStatusResponse> {
  const change: BatchItem<"sqlite">[] = open ? [...setShardOpenStatements(directory, open.actor, open.name, open.open)] : [];
  const [batch, sizes] = await Promise.all([
    directory.batch([
      ...change,
      directory.select().from(shards),
      directory.select({ shard: profiles.shard, n: sql<number>`count(*)` }).from(profiles).groupBy(profiles.shard),
      directory.select({ from: shardMoves.fromShard, to: shardMoves.toShard }).from(shardMoves).where(ne(shardMoves.phase, "done")),
    ] as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]),
    Promise.all(bound.map((name) => measuredSize(d1Of(name)))),
  ]);
  const [registered, accounts, moves] = batch.slice(change.length) as [(typeof shards.$inferSelect)[], { shard: string | null; n: number }[], { from: string; to: string }[]];
  const list = bound.map(
    (name, i): ShardStatusView => ({
      name,
      // A shard bound but not yet registered (npm run db:migrate registers it) takes no new account.
      open: registered.find((r) => r.name === name)?.open ?? false,
      size_bytes: sizes[i],
      accounts: accounts.find((a) => a.shard === name)?.n ?? 0,
      room_bytes: Math.max(0, D1_DATABASE_LIMIT_BYTES - sizes[i]),
      moves_in: moves.filter((m) => m.to === name).length,
      moves_out: moves.filter((m) => m.from === name).length,
    }),
  );
  return { shards: list, limit_bytes: D1_DATABASE_LIMIT_BYTES };
}

/** Opens or closes a shard to new accounts (for the command, which no admin signs), with no audit row. */
export async function setShardOpen(directory: Database, name: string, open: boolean) {
  await directory.insert(shards).values({ name, open }).onConflictDoUpdate({ target: shards.name, set: { open } });
}

/** The statements that open or close a shard, and its audit row, for the caller's batch. */
const setShardOpenStatements = (directory: Database, actor: AdminActor, name: string, open: boolean) =>
  [
    directory
      .insert(shards)
      .values({ name, open })
      .onConflictDoUpdate({ target: shards.name, set: { open } }),
    auditStatement(directory, actor, "set_shard_open", null, { shard: name, open }),
  ] as const;

/** A move as the admin API answers it. */
export const moveView = (m: ShardMove): ShardMoveView => ({
  id: m.id,
  account: m.userId,
  from_shard: m.fromShard,
  to_shard: m.toShard,
  phase: m.phase as MovePhase,
  rows_copied: m.rowsCopied,
  started_by: m.startedBy,
  started_at: m.startedAt,
  updated_at: m.updatedAt,
  switched_at: m.switchedAt,
  finished_at: m.finishedAt,
  error: m.error,
});
