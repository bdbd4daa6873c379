// Orphan calls (ADR 003): calls of an assistant that no agent held when they were logged, kept
// without an owner and adopted once an agent holds the assistant. An ownerless call belongs to no
// account, so it waits in the directory's call_logs (decision 076); adoption moves it to the
// account's shard.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { nyDayOf } from "@shared/ny-time";
import { jsonList, rowsPerStatement, type Database } from "../db/client";
import { callLogs } from "../db/schema";
import { moveOrphanTexts, type CallTextBucket } from "./call-text";
import { callHoursChanged, markDaysDirty } from "./rollup-dirty";

/** Who a call belongs to, found through the agent whose assistant placed or took it. */
export type CallOwner = { userId: string; agentId: number | null; store: string | null };

/** An ownerless call as the directory holds it. */
export type OrphanCall = typeof callLogs.$inferSelect;

/**
 * The statements that copy these ownerless calls (as the directory holds them) into a shard's
 * call_logs, owned by `owner`, for the shard's batch. Keyed by call_id: a call the shard already
 * holds (a repeated adoption, or a later webhook that got there first) is left as the shard has it,
 * so running them twice changes nothing. The shard numbers its own rows (id is not copied).
 */
export function copyOrphansStatements(shard: Database, rows: readonly OrphanCall[], owner: CallOwner | null) {
  const values = rows.map(({ id: _id, ...row }) => ({
    ...row,
    ...(owner ? { userId: owner.userId, agentId: owner.agentId, store: owner.store } : {}),
    // updated_at moves, so the search index's healing pass sees the adoption (decision 059).
    updatedAt: new Date().toISOString(),
  }));
  const per = rowsPerStatement(callLogs);
  const statements = [];
  for (let i = 0; i < values.length; i += per) {
    statements.push(shard.insert(callLogs).values(values.slice(i, i + per)).onConflictDoNothing({ target: callLogs.callId }));
  }
  return statements;
}

/** The directory's statement removing these calls once the shard holds them (ownerless rows only). */
export const deleteOrphansStatement = (directory: Database, callIds: readonly string[]) =>
  directory.delete(callLogs).where(and(inArray(callLogs.callId, jsonList([...callIds])), isNull(callLogs.userId)));

/**
 * Gives the calls of an assistant that no agent held when they were logged (ADR 003) to the agent
 * that now holds it: copies them into the account's shard, owned, with their New York days marked
 * dirty (and the intraday roll-up's watermark moved back to their first hour) in the same batch, so
 * the roll-ups (which never saw ownerless calls) count them for the owner from then on; then deletes
 * them from the directory. The copy is idempotent by call_id, so a move cut between the two steps
 * is finished by the next adoption. Returns how many were adopted.
 * Once both steps committed, the adopted calls' texts move from their orphan keys in R2 to the
 * owner's (a reader meanwhile finds the orphan object; decision 077).
 * `known`: the orphans as read already (in a batch with other statements), else they are read here.
 */
export async function adoptOrphanCalls(
  directory: Database,
  shard: Database,
  text: CallTextBucket,
  assistantId: string,
  owner: CallOwner,
  known?: OrphanCall[],
): Promise<number> {
  const rows = known ?? (await orphanCalls(directory, assistantId));
  if (rows.length === 0) return 0;
  const callIds = rows.map((r) => r.callId);
  const copies = copyOrphansStatements(shard, rows, owner);
  const marks = markDaysDirty(shard, "call_logs", rows.map((r) => nyDayOf(r.startTime)));
  const moved = and(inArray(callLogs.callId, jsonList(callIds)), eq(callLogs.userId, owner.userId))!;
  await shard.batch([copies[0], ...copies.slice(1), ...marks, callHoursChanged(shard, moved)]);
  await directory.batch([deleteOrphansStatement(directory, callIds)]);
  await moveOrphanTexts(text, owner.userId, callIds);
  return rows.length;
}

// Two conditions: and() is never undefined here.
const orphansOf = (assistantId: string) => and(eq(callLogs.assistantId, assistantId), isNull(callLogs.userId))!;

/**
 * An assistant's ownerless calls in the directory (none for a null assistant), to send in a batch
 * with other statements and hand to adoptOrphanCalls as `known`.
 */
export const orphanCalls = (directory: Database, assistantId: string | null) =>
  directory
    .select()
    .from(callLogs)
    .where(assistantId === null ? sql`0` : orphansOf(assistantId));
