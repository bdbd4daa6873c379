// The public API's reads of an account's own data (/v1; docs/api.md): calls a page at a time with
// filters, one call, and the wire shapes of calls and agents. Every read is scoped by the key's
// account; another account's call or agent is not found.
import { and, desc, eq } from "drizzle-orm";
import type { V1Agent, V1Call, V1CallDetail, V1CallList, V1CallsQuery } from "@shared/schemas/v1";
import type { Database } from "../db/client";
import { callLogs } from "../db/schema";
import { badRequest, notFound } from "../lib/errors";
import type { AgentRecord } from "./agents";
import { callListWhere, decodeCursor, decodeTranscript, encodeCursor, type CallLogRow } from "./call-logs";
import { storedTranscript, type CallTextBucket } from "./call-text";

/** An instant as ISO-8601 UTC (stored instants are; anything unreadable is answered as stored). */
const iso = (value: string) => {
  const t = Date.parse(value);
  return Number.isNaN(t) ? value : new Date(t).toISOString();
};

const listColumns = {
  id: callLogs.id,
  callId: callLogs.callId,
  agentId: callLogs.agentId,
  direction: callLogs.direction,
  status: callLogs.status,
  endedReason: callLogs.endedReason,
  phoneNumber: callLogs.phoneNumber,
  startTime: callLogs.startTime,
  endTime: callLogs.endTime,
  duration: callLogs.duration,
  cost: callLogs.cost,
};
type ListRow = Pick<CallLogRow, keyof typeof listColumns>;

export const toV1Call = (r: ListRow): V1Call => ({
  id: r.callId,
  agent_id: r.agentId === null ? null : String(r.agentId),
  direction: r.direction,
  status: r.status,
  ended_reason: r.endedReason,
  phone_number: r.phoneNumber,
  started_at: iso(r.startTime),
  ended_at: r.endTime ? iso(r.endTime) : null,
  duration_seconds: r.duration,
  cost: r.cost,
});

/** A page of the account's calls, newest first; `(start_time, id)` keyset over call_logs_user_time_idx. */
export async function listCalls(db: Database, userId: string, q: V1CallsQuery): Promise<V1CallList> {
  const after = q.cursor ? decodeCursor(q.cursor) : null;
  if (q.cursor && !after) throw badRequest("cursor: Invalid cursor", "cursor");
  const filters = { from: q.from, to: q.to, direction: q.direction, agentId: q.agent_id ? Number(q.agent_id) : undefined, status: q.status };
  const rows = await db
    .select(listColumns)
    .from(callLogs)
    .where(callListWhere(userId, after, filters))
    .orderBy(desc(callLogs.startTime), desc(callLogs.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return { data: page.map(toV1Call), next_cursor: rows.length > q.limit && last ? encodeCursor({ t: last.startTime, id: last.id }) : null };
}

/** One of the account's calls by its id, with summary, transcript (R2's, or an older row's column: decision 077) and recording URL. */
export async function getCall(db: Database, text: CallTextBucket, userId: string, callId: string): Promise<V1CallDetail> {
  const [row] = await db
    .select({ ...listColumns, summary: callLogs.summary, transcript: callLogs.transcript, recordingUrl: callLogs.recordingUrl })
    .from(callLogs)
    .where(and(eq(callLogs.callId, callId), eq(callLogs.userId, userId)))
    .limit(1);
  if (!row) throw notFound("No such call");
  const transcript = await storedTranscript(text, { userId, callId: row.callId, transcript: row.transcript });
  return { ...toV1Call(row), summary: row.summary, transcript: decodeTranscript(transcript), recording_url: row.recordingUrl };
}

export const toV1Agent = (a: AgentRecord): V1Agent => ({
  id: String(a.id),
  name: a.name,
  status: a.vapiAssistantId ? "active" : "inactive",
  assistant_id: a.vapiAssistantId,
  phone_number: a.number?.phoneNumber ?? a.assignedPhoneNumber ?? null,
  store: a.store,
  voice_id: a.voiceId,
  created_at: iso(a.createdAt),
  updated_at: iso(a.updatedAt),
});
