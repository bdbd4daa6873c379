// The unified call log: one row per voice-platform call, written from the platform's call object
// (the test call's queued call, then the webhook's status updates and end-of-call report), and read
// back as the account's log and as the platform's view of the account's calls.
import { and, desc, eq, gte, inArray, isNotNull, isNull, like, lt, or, sql, type SQL } from "drizzle-orm";
import { FAILURE_ENDED_REASON_PATTERNS, FORWARDED_ENDED_REASONS } from "@shared/call-outcomes";
import { AGENT_API_TEXT } from "@shared/messages";
import type { CallLogFilters, CallLogView, VapiCallDetail, VapiCallLogsResponse } from "@shared/schemas/call-logs";
import { nyDayOf, parseUtc } from "@shared/ny-time";
import type { Database } from "../db/client";
import { agents, callLogs, profiles, webhookEvents } from "../db/schema";
import { placeAccount } from "../db/shards";
import { fromBase64Url, toBase64Url } from "../lib/crypto";
import { badRequest, notFound } from "../lib/errors";
import { log } from "../lib/log";
import type { CallEvent, PlatformCall, VoicePort } from "../providers/voice/port";
import { firstActiveAgent, getAgent, onVoice, type AgentRecord } from "./agents";
import { deleteOrphanTexts, moveOrphanTexts, putCallText, storedTranscript, type CallTextBucket } from "./call-text";
import { copyOrphansStatements, deleteOrphansStatement, type CallOwner } from "./orphan-calls";
import { callHoursChanged, markDaysDirty } from "./rollup-dirty";
import { insertUnlessRecorded, recordEvent, wasDuplicate } from "./webhook-events";

export type { CallOwner } from "./orphan-calls";

export type CallLogRow = typeof callLogs.$inferSelect;

const DIRECTIONS = { inboundPhoneCall: "inbound", outboundPhoneCall: "outbound", webCall: "web" } as const;
const TYPES = { inbound: "inboundPhoneCall", outbound: "outboundPhoneCall", web: "webCall" } as const;

/** A stored transcript (a string as given, an array of turns as JSON) back as the platform's. */
export function decodeTranscript(stored: string | null): PlatformCall["transcript"] {
  if (stored == null) return null;
  if (stored.startsWith("[")) {
    try {
      const parsed = JSON.parse(stored) as unknown;
      if (Array.isArray(parsed) && parsed.every((t) => t && typeof t === "object" && typeof (t as { role?: unknown }).role === "string")) {
        return parsed as Exclude<PlatformCall["transcript"], string | null>;
      }
    } catch {
      // plain text that happens to start with '['
    }
  }
  return stored;
}

function iso(value: string | null): string | null {
  if (!value) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? value : new Date(t).toISOString();
}

/** The agent of an assistant and its account's shard, in one read of the directory. */
const callOwnerQuery = (directory: Database, assistantId: string) =>
  directory
    .select({ userId: agents.userId, agentId: agents.id, store: agents.store, shard: profiles.shard })
    .from(agents)
    .leftJoin(profiles, eq(profiles.id, agents.userId))
    .where(eq(agents.vapiAssistantId, assistantId))
    .limit(1);

/** Order of a call's life on the voice platform; statuses it may add later sit beside 'in-progress'. */
const statusRank = (status: SQL) =>
  sql`(case ${status} when 'scheduled' then 0 when 'queued' then 1 when 'ringing' then 2 when 'in-progress' then 3 when 'forwarding' then 4 when 'ended' then 5 when 'completed' then 5 else 3 end)`;

/**
 * The statement(s) that insert or update the call's row, keyed by `call_id`, for a `db.batch`.
 * Later events never undo earlier ones: an ended call stays ended, known fields are not blanked by
 * sparser events, and the owner, once known, is kept. With `unlessEvent`, the statement does nothing
 * when that webhook event id is already recorded (the webhook adds the event insert after it in the
 * same batch, so a duplicate delivery changes nothing).
 * The transcript is not the row's (decision 077): the caller stored it in R2 first (putCallText). The
 * column stays null on new rows; a row written before keeps its text there until a call's newer
 * transcript (now in R2) empties it.
 */
export function upsertCallLogFromPlatform(db: Database, call: PlatformCall, owner?: CallOwner | null, opts: { unlessEvent?: string } = {}) {
  const startedAt = iso(call.startedAt);
  const startTime = startedAt ?? iso(call.createdAt) ?? new Date().toISOString();
  const now = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
  // Every column, so the typed record fails to compile when the table gains one.
  const values: { [K in keyof CallLogRow]: SQL } = {
    id: sql`null`,
    userId: sql`${owner?.userId ?? null}`,
    callId: sql`${call.id}`,
    agentId: sql`${owner?.agentId ?? null}`,
    assistantId: sql`${call.assistantId}`,
    store: sql`${owner?.store ?? null}`,
    direction: sql`${DIRECTIONS[call.type]}`,
    phoneNumber: sql`${call.customer.number}`,
    status: sql`${call.status}`,
    endedReason: sql`${call.endedReason}`,
    startTime: sql`${startTime}`,
    endTime: sql`${iso(call.endedAt)}`,
    duration: sql`${call.duration ?? 0}`,
    summary: sql`${call.summary}`,
    transcript: sql`null`,
    recordingUrl: sql`${call.recordingUrl}`,
    cost: sql`${call.cost}`,
    createdAt: now,
    updatedAt: now,
  };
  const ex = (column: string) => sql.raw(`excluded.${column}`);
  const ownerKnown = sql`${callLogs.userId} is not null`;
  const statement = insertUnlessRecorded(db, callLogs, values, opts.unlessEvent).onConflictDoUpdate({
    target: callLogs.callId,
    set: {
      userId: sql`case when ${ownerKnown} then ${callLogs.userId} else ${ex("user_id")} end`,
      agentId: sql`case when ${ownerKnown} then ${callLogs.agentId} else ${ex("agent_id")} end`,
      store: sql`case when ${ownerKnown} then ${callLogs.store} else ${ex("store")} end`,
      assistantId: sql`coalesce(${ex("assistant_id")}, ${callLogs.assistantId})`,
      direction: ex("direction"),
      phoneNumber: sql`coalesce(${ex("phone_number")}, ${callLogs.phoneNumber})`,
      // A call's status only moves forward: a late 'queued' never replaces 'in-progress', nothing replaces 'ended'.
      status: sql`case when ${statusRank(ex("status"))} >= ${statusRank(sql`${callLogs.status}`)} then ${ex("status")} else ${callLogs.status} end`,
      endedReason: sql`coalesce(${ex("ended_reason")}, ${callLogs.endedReason})`,
      startTime: startedAt ? ex("start_time") : sql`${callLogs.startTime}`,
      endTime: sql`coalesce(${ex("end_time")}, ${callLogs.endTime})`,
      duration: call.duration != null ? ex("duration") : sql`${callLogs.duration}`,
      summary: sql`coalesce(${ex("summary")}, ${callLogs.summary})`,
      transcript: call.transcript != null ? sql`null` : sql`${callLogs.transcript}`,
      recordingUrl: sql`coalesce(${ex("recording_url")}, ${callLogs.recordingUrl})`,
      cost: sql`coalesce(${ex("cost")}, ${callLogs.cost})`,
      updatedAt: now,
    },
  });
  return [statement] as const;
}

/** The shards a write may go to: each by its binding's name, and the names bound (to place an account). */
export type AccountShards = { named: (name: string) => Database; bound: readonly string[] };

/**
 * Applies one voice-platform webhook event to the call log exactly once, in the database its call
 * belongs to (decision 076): the account's shard when one of our agents holds the call's assistant,
 * else the directory, where calls no account owns wait (ADR 003). Returns where it wrote.
 *
 * An ownerless call: the event id is recorded in the same batch (one transaction) as its effect, and
 * the effect is conditional on the id being new.
 * An account's call: the event ids stay in the directory (webhook_events) and the call is on the
 * shard, so no transaction spans both. One read of the directory (the owner and its shard, an orphan
 * row of the call, whether the event is recorded), then the shard's batch and the event's record at
 * once: two round trips. The shard's write is idempotent (a later event never undoes an earlier one,
 * and applying one twice leaves the row as once), so a delivery whose record failed is applied again
 * when it is retried; a record whose shard write failed is taken back, so the retry is not mistaken
 * for a duplicate. Two copies of one event arriving together both apply it; only the one that records
 * it answers as new (and so notifies).
 * A transcript the event carries is stored in R2 first (decision 077), under the account that gets the
 * row (an ownerless call's under orphans/): if that fails, nothing is written and the error answers
 * the platform, which delivers the event again.
 */
export async function recordCallEvent(
  directory: Database,
  shards: AccountShards,
  text: CallTextBucket,
  event: CallEvent,
): Promise<{ duplicate: boolean; userId: string | null; db: Database; shard: string | null }> {
  const assistantId = event.call.assistantId;
  const [ownerRows, orphan, seen] = await directory.batch([
    callOwnerQuery(directory, assistantId ?? ""),
    directory
      .select()
      .from(callLogs)
      .where(and(eq(callLogs.callId, event.call.id), isNull(callLogs.userId))),
    directory.select({ id: webhookEvents.id }).from(webhookEvents).where(eq(webhookEvents.id, event.id)),
  ]);
  const found = assistantId ? ownerRows[0] : undefined;
  const putText = (userId: string | null) =>
    event.call.transcript != null ? putCallText(text, userId, event.call.id, { transcript: event.call.transcript }) : Promise.resolve();
  // The call's New York day is re-counted by the next roll-up run: a report for a day that is
  // already rolled up (a retried or very late delivery) would otherwise be missed by the counts.
  const started = parseUtc(event.call.startedAt) ?? parseUtc(event.call.createdAt);
  const days = started ? [nyDayOf(started)] : [];
  const record = recordEvent(directory, { id: event.id, provider: event.provider, eventType: event.type });

  if (!found) {
    // No roll-up counts an ownerless call (the directory rolls up the store network only): no marks.
    if (seen.length > 0) return { duplicate: true, userId: null, db: directory, shard: null };
    await putText(null);
    const [upsert] = upsertCallLogFromPlatform(directory, event.call, null, { unlessEvent: event.id });
    const [, recorded] = await directory.batch([upsert, record]);
    return { duplicate: wasDuplicate(recorded), userId: null, db: directory, shard: null };
  }
  if (seen.length > 0) return { duplicate: true, userId: found.userId, db: directory, shard: found.shard };
  const owner: CallOwner = { userId: found.userId, agentId: found.agentId, store: found.store };
  // An account made before the shards is placed now.
  const shardName = found.shard ?? (await placeAccount(directory, shards.bound, found.userId));
  const shard = shards.named(shardName);
  // An ownerless row of the call (its first events came before the agent held the assistant) moves
  // to the shard with this event, and into the owner's roll-ups on the day it is stored under.
  const moving = orphan.slice(0, 1);
  if (moving.length > 0) days.push(nyDayOf(moving[0].startTime));
  const [upsert] = upsertCallLogFromPlatform(shard, event.call, owner);
  const marks = markDaysDirty(shard, "call_logs", days);
  // The intraday roll-up's hours of the row before and after the event are read live again.
  const hours = callHoursChanged(shard, eq(callLogs.callId, event.call.id));
  await putText(owner.userId);
  const [written, recorded] = await Promise.allSettled([
    shard.batch([hours, ...copyOrphansStatements(shard, moving, null), upsert, ...marks, hours]),
    directory.batch([record]),
  ]);
  if (written.status === "rejected") {
    if (recorded.status === "fulfilled" && !wasDuplicate(recorded.value[0])) {
      await directory.delete(webhookEvents).where(eq(webhookEvents.id, event.id)).catch((e: unknown) => {
        log(null, "error", "taking back a webhook event whose call was not written failed: its retry will be taken for a duplicate", {
          eventId: event.id,
          error: e instanceof Error ? e.message : String(e),
        });
      });
    }
    throw written.reason;
  }
  if (recorded.status === "rejected") throw recorded.reason;
  // The moved row leaves the directory only once the shard holds it (a failure here leaves a copy
  // the next event or adoption removes; the lists read the shard alone).
  if (moving.length > 0) {
    await directory.batch([deleteOrphansStatement(directory, [event.call.id])]);
    // Its earlier text moves under the owner too (a transcript in this event was already written
    // there; the orphan copy goes). The event is applied whatever happens here: a failure is logged,
    // and the call still reads its orphan object.
    try {
      if (event.call.transcript != null) await deleteOrphanTexts(text, [event.call.id]);
      else await moveOrphanTexts(text, owner.userId, [event.call.id]);
    } catch (e) {
      log(null, "warn", "moving an adopted call's text failed", { callId: event.call.id, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return { duplicate: wasDuplicate(recorded.value[0]), userId: owner.userId, db: shard, shard: shardName };
}

/**
 * Starts an outbound test call from the chosen agent (default: the account's first active agent)
 * and records it as queued at once, so it shows in Call Logs before the end-of-call report arrives.
 * `db` is the directory (the agents), `shard` the account's shard (its calls).
 */
export async function triggerTestCall(
  deps: { db: Database; shard: Database; voice: VoicePort },
  userId: string,
  input: { phoneNumber: string; agentId?: number },
  defaultPhoneNumberId: string | undefined,
  caller: Promise<AgentRecord | null> = testCaller(deps.db, userId, input),
): Promise<{ callId: string }> {
  const { voice, shard } = deps;
  const agent = await caller;
  if (input.agentId !== undefined) {
    if (!agent?.vapiAssistantId) throw badRequest(AGENT_API_TEXT.agentNotActive, "agentId");
  } else if (!agent) {
    throw badRequest(AGENT_API_TEXT.activateFirst, "agentId");
  }
  const call = await onVoice("Starting the call", () =>
    voice.startOutboundCall(userId, {
      assistantId: agent.vapiAssistantId!,
      customerNumber: input.phoneNumber,
      // Call from the agent's own imported number when it has one, else the configured default.
      phoneNumberId: agent.number?.vapiPhoneNumberId ?? defaultPhoneNumberId,
      metadata: { agentId: String(agent.id), userId },
    }),
  );
  try {
    const [statement] = upsertCallLogFromPlatform(shard, call, { userId, agentId: agent.id, store: agent.store });
    await shard.batch([statement, callHoursChanged(shard, eq(callLogs.callId, call.id))]);
  } catch (e) {
    // The call is already ringing: answer success; the end-of-call report will still create the log.
    log(null, "warn", "recording the queued call failed", { callId: call.id, error: e instanceof Error ? e.message : String(e) });
  }
  return { callId: call.id };
}

/**
 * The agent a test call goes out from: the one named (another account's is not found), else the
 * account's first active agent (null when it has none). A route may start this read early, with its
 * other reads, and hand it to triggerTestCall.
 */
export const testCaller = (db: Database, userId: string, input: { agentId?: number }): Promise<AgentRecord | null> =>
  input.agentId !== undefined ? getAgent(db, userId, input.agentId) : firstActiveAgent(db, userId);

/**
 * A stored row back as the platform's call (the call detail's fallback when the platform no longer
 * has it), with its stored transcript (storedTranscript: the column of an older row, else R2's).
 */
export function callLogToPlatformCall(row: CallLogRow, transcript: string | null): PlatformCall {
  return {
    id: row.callId,
    assistantId: row.assistantId,
    type: TYPES[row.direction],
    status: row.status,
    endedReason: row.endedReason,
    customer: { number: row.phoneNumber },
    phoneNumberId: null,
    startedAt: row.startTime,
    endedAt: row.endTime,
    createdAt: row.createdAt,
    summary: row.summary,
    transcript: decodeTranscript(transcript),
    recordingUrl: row.recordingUrl,
    cost: row.cost,
    duration: row.duration,
  };
}

/** The assistant ids of an account's active agents. */
export async function accountAssistantIds(db: Database, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: agents.vapiAssistantId })
    .from(agents)
    .where(and(eq(agents.userId, userId), isNotNull(agents.vapiAssistantId)));
  return rows.map((r) => r.id!).filter(Boolean);
}

// ---- GET /api/call-logs: the account's unified log, newest first, keyset pages ----

export type CallLogCursor = { t: string; id: number };

export function encodeCursor(c: CallLogCursor): string {
  return toBase64Url(new TextEncoder().encode(JSON.stringify([c.t, c.id])));
}

/** An opaque cursor back to its position; null when it is not one of ours. */
export function decodeCursor(cursor: string): CallLogCursor | null {
  try {
    const json = new TextDecoder().decode(fromBase64Url(cursor));
    const v = JSON.parse(json) as unknown;
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === "string" && Number.isInteger(v[1])) return { t: v[0], id: v[1] };
  } catch {
    // fall through
  }
  return null;
}

/**
 * The filters of a list of the account's calls, as SQL conditions (GET /api/call-logs and the public
 * /v1/calls read the same): start time in [from, to), one voice assistant, our agent id, an outcome,
 * a direction, a status. Stored start times are ISO-8601 UTC with milliseconds, so they compare as
 * text. Assistant and ended reason are columns of call_logs_user_time_idx, so those filters are
 * read from the index the page walks, without visiting the rows they leave out.
 */
export type CallListFilters = CallLogFilters & { agentId?: number; direction?: CallLogRow["direction"]; status?: string };

export function callListConditions(f: CallListFilters): SQL[] {
  const where: SQL[] = [];
  if (f.from) where.push(gte(callLogs.startTime, new Date(f.from).toISOString()));
  if (f.to) where.push(lt(callLogs.startTime, new Date(f.to).toISOString()));
  if (f.agent) where.push(eq(callLogs.assistantId, f.agent));
  if (f.agentId !== undefined) where.push(eq(callLogs.agentId, f.agentId));
  if (f.outcome === "error") where.push(or(...FAILURE_ENDED_REASON_PATTERNS.map((p) => like(callLogs.endedReason, p)))!);
  if (f.outcome === "forwarded") where.push(inArray(callLogs.endedReason, [...FORWARDED_ENDED_REASONS]));
  if (f.direction) where.push(eq(callLogs.direction, f.direction));
  if (f.status) where.push(eq(callLogs.status, f.status));
  return where;
}

/**
 * The WHERE of one page of an account's calls: its own rows only, after the cursor, filtered. The
 * cursor is a position, never a scope: whatever it says, the account and the filters still apply.
 */
export function callListWhere(userId: string, after: CallLogCursor | null, filters: CallListFilters = {}) {
  return and(
    eq(callLogs.userId, userId),
    after ? sql`(${callLogs.startTime}, ${callLogs.id}) < (${after.t}, ${after.id})` : undefined,
    ...callListConditions(filters),
  );
}

/** One page of an account's call log; `(start_time, id)` keyset over call_logs_user_time_idx. */
export function callLogPageQuery(db: Database, userId: string, limit: number, after: CallLogCursor | null, filters: CallLogFilters = {}) {
  return db
    .select(callLogListColumns)
    .from(callLogs)
    .where(callListWhere(userId, after, filters))
    .orderBy(desc(callLogs.startTime), desc(callLogs.id))
    .limit(limit + 1);
}

/** What a list row shows; transcripts and other large fields are read only for a call's details. */
export const callLogListColumns = {
  id: callLogs.id,
  userId: callLogs.userId,
  callId: callLogs.callId,
  phoneNumber: callLogs.phoneNumber,
  startTime: callLogs.startTime,
  duration: callLogs.duration,
  status: callLogs.status,
  summary: callLogs.summary,
  endedReason: callLogs.endedReason,
  direction: callLogs.direction,
  agentId: callLogs.agentId,
  recordingUrl: callLogs.recordingUrl,
};
export type CallLogListRow = { [K in keyof typeof callLogListColumns]: CallLogRow[K] };

export async function listCallLogPage(db: Database, userId: string, limit: number, after: CallLogCursor | null, filters: CallLogFilters = {}) {
  const rows = await callLogPageQuery(db, userId, limit, after, filters);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { rows: page, nextCursor: rows.length > limit && last ? encodeCursor({ t: last.startTime, id: last.id }) : null };
}

export function toCallLogView(r: CallLogListRow): CallLogView {
  return {
    id: r.id,
    user_id: r.userId!,
    call_id: r.callId,
    phone_number: r.phoneNumber,
    start_time: r.startTime,
    duration: r.duration,
    status: r.status,
    summary: r.summary,
    ended_reason: r.endedReason,
    direction: r.direction,
    agent_id: r.agentId,
    recording_url: r.recordingUrl,
  };
}

// ---- the voice platform's view of the account's calls (/api/vapi/call-logs, /api/vapi/call/:id) ----

/** The platform's newest calls of the account's own assistants, whatever else the platform answered; no transcripts. */
export async function listPlatformCalls(deps: { db: Database; voice: VoicePort }, userId: string, limit: number): Promise<VapiCallLogsResponse["calls"]> {
  const assistantIds = await accountAssistantIds(deps.db, userId);
  const mine = new Set(assistantIds);
  const calls = await deps.voice.listCalls({ assistantIds, limit });
  return calls.filter((k) => k.assistantId && mine.has(k.assistantId)).map(({ transcript: _transcript, metadata: _metadata, ...call }) => call);
}

/**
 * One call with its transcript, as the platform has it (else as our log has it). Ownership: a call
 * in our log is the account's only if its row says so; a call only the platform knows is the
 * account's only if one of its agents placed or took it. Anything else answers exactly like a call
 * that does not exist. The row is read from the account's shard (`shard`), the agents' assistants
 * from the directory (`db`), at once (decision 076).
 */
export async function getCallDetail(deps: { db: Database; shard: Database; voice: VoicePort; text: CallTextBucket }, userId: string, callId: string): Promise<VapiCallDetail> {
  const [found, mine] = await Promise.all([
    deps.shard.query.callLogs.findFirst({ where: eq(callLogs.callId, callId) }),
    accountAssistantIds(deps.db, userId),
  ]);
  const row = found ?? null;
  if (row && row.userId !== userId) throw notFound("Call not found");
  let call = await deps.voice.getCall(callId);
  if (!call) {
    if (!row) throw notFound("Call not found");
    call = callLogToPlatformCall(row, await storedTranscript(deps.text, row));
  } else if (!row) {
    if (!call.assistantId || !mine.includes(call.assistantId)) throw notFound("Call not found");
  }
  const { metadata: _metadata, ...answer } = call;
  return answer;
}
