// Orphan calls (ADR 003): calls of an assistant that no agent held when they were logged, kept
// without an owner and adopted once an agent holds the assistant.
import { and, eq, isNull } from "drizzle-orm";
import { nyDayOf } from "@shared/ny-time";
import type { Database } from "../db/client";
import { callLogs } from "../db/schema";
import { callHoursChanged, markDaysDirty } from "./rollup-dirty";

/** Who a call belongs to, found through the agent whose assistant placed or took it. */
export type CallOwner = { userId: string; agentId: number | null; store: string | null };

/**
 * Gives the calls of an assistant that no agent held when they were logged (ADR 003) to the agent
 * that now holds it, and marks their New York days dirty (and moves the intraday roll-up's watermark
 * back to their first hour) in the same batch, so the roll-ups (which leave ownerless calls out)
 * count them for the owner from then on. Returns how many were adopted.
 * A call logged after the read is adopted too; its own webhook marked its day.
 */
export async function adoptOrphanCalls(db: Database, assistantId: string, owner: CallOwner): Promise<number> {
  // Two conditions: and() is never undefined here.
  const orphans = and(eq(callLogs.assistantId, assistantId), isNull(callLogs.userId))!;
  const rows = await db.select({ startTime: callLogs.startTime }).from(callLogs).where(orphans);
  if (rows.length === 0) return 0;
  const adopt = db.update(callLogs).set({ userId: owner.userId, agentId: owner.agentId, store: owner.store }).where(orphans);
  await db.batch([callHoursChanged(db, orphans), adopt, ...markDaysDirty(db, "call_logs", rows.map((r) => nyDayOf(r.startTime)))]);
  return rows.length;
}
