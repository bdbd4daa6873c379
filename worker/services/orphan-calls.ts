// Orphan calls (ADR 003): calls of an assistant that no agent held when they were logged, kept
// without an owner and adopted once an agent holds the assistant.
import { and, eq, isNull, sql } from "drizzle-orm";
import { nyDayOf } from "@shared/ny-time";
import type { Database } from "../db/client";
import { callLogs } from "../db/schema";
import { moveOrphanTexts, type CallTextBucket } from "./call-text";
import { callHoursChanged, markDaysDirty } from "./rollup-dirty";

/** Who a call belongs to, found through the agent whose assistant placed or took it. */
export type CallOwner = { userId: string; agentId: number | null; store: string | null };

/**
 * Gives the calls of an assistant that no agent held when they were logged (ADR 003) to the agent
 * that now holds it, and marks their New York days dirty (and moves the intraday roll-up's watermark
 * back to their first hour) in the same batch, so the roll-ups (which leave ownerless calls out)
 * count them for the owner from then on. Returns how many were adopted.
 * A call logged after the read is adopted too; its own webhook marked its day.
 * Once committed, the adopted calls' texts move from their orphan keys in R2 to the owner's (a reader
 * meanwhile finds the orphan object; decision 077).
 */
export async function adoptOrphanCalls(db: Database, text: CallTextBucket, assistantId: string, owner: CallOwner, known?: string[]): Promise<number> {
  const starts = known ?? (await orphanCallStarts(db, assistantId)).map((r) => r.startTime);
  if (starts.length === 0) return 0;
  const orphans = orphansOf(assistantId);
  // updated_at moves, so the search index's healing pass sees the adoption (decision 059).
  const adopt = db
    .update(callLogs)
    .set({ userId: owner.userId, agentId: owner.agentId, store: owner.store, updatedAt: sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` })
    .where(orphans)
    .returning({ callId: callLogs.callId });
  const [, adopted] = await db.batch([callHoursChanged(db, orphans), adopt, ...markDaysDirty(db, "call_logs", starts.map((s) => nyDayOf(s)))]);
  await moveOrphanTexts(text, owner.userId, adopted.map((r) => r.callId));
  return starts.length;
}

// Two conditions: and() is never undefined here.
const orphansOf = (assistantId: string) => and(eq(callLogs.assistantId, assistantId), isNull(callLogs.userId))!;

/**
 * The start times of an assistant's ownerless calls (none for a null assistant), to send in a batch
 * with other statements and hand to adoptOrphanCalls as `known`.
 */
export const orphanCallStarts = (db: Database, assistantId: string | null) =>
  db
    .select({ startTime: callLogs.startTime })
    .from(callLogs)
    .where(assistantId === null ? sql`0` : orphansOf(assistantId));
