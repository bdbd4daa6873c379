// Call logs: the account's unified log (GET /api/call-logs) and the voice platform's view of the
// account's calls, voices and assistants (/api/vapi/...). Everything is scoped to the signed-in account.
import {
  assistantParams,
  callLogsQuery,
  vapiCallLogsQuery,
  vapiCallParams,
  type CallLogView,
  type CallLogsResponse,
  type VapiCallDetail,
  type VapiCallLogsResponse,
  type VapiCallView,
  type VoicesResponse,
} from "@shared/schemas/call-logs";
import { and, eq } from "drizzle-orm";
import { Hono } from "hono";
import { VAPI_CALL_LOGS_STALE_MS } from "@shared/constants";
import { z } from "zod";
import { agents } from "../db/schema";
import type { AppEnv } from "../env";
import { badRequest, notFound } from "../lib/errors";
import { validate } from "../lib/validate";
import { currentUser, requireUser } from "../middleware/auth";
import { simulatedRecordingWav } from "../providers/voice/local";
import type { PlatformCall } from "../providers/voice/port";
import { deactivateAgent } from "../services/agents";
import {
  accountAssistantIds,
  callLogToPlatformCall,
  decodeCursor,
  findCallLog,
  listCallLogPage,
  type CallLogListRow,
} from "../services/call-logs";

function toCallLogView(r: CallLogListRow): CallLogView {
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

function toVapiCallView(c: PlatformCall): VapiCallView {
  return {
    id: c.id,
    assistantId: c.assistantId,
    type: c.type,
    status: c.status,
    endedReason: c.endedReason,
    customer: { number: c.customerNumber },
    phoneNumberId: c.phoneNumberId,
    startedAt: c.startedAt,
    endedAt: c.endedAt,
    createdAt: c.createdAt,
    summary: c.summary,
    duration: c.durationSeconds,
    recordingUrl: c.recordingUrl,
    cost: c.cost,
  };
}

export const callLogRoutes = new Hono<AppEnv>().get("/", requireUser, validate("query", callLogsQuery), async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const after = cursor ? decodeCursor(cursor) : null;
  if (cursor && !after) throw badRequest("cursor: Invalid cursor", "cursor");
  const page = await listCallLogPage(c.var.db, currentUser(c).id, limit, after);
  const body: CallLogsResponse = { logs: page.rows.map(toCallLogView), nextCursor: page.nextCursor };
  return c.json(body);
});

const simRecordingParams = z.object({
  file: z.string().regex(/^sim_call_[0-9a-f-]{36}\.wav$/, "file is not a simulated recording"),
});

export const vapiRoutes = new Hono<AppEnv>()
  .get("/call-logs", requireUser, validate("query", vapiCallLogsQuery), async (c) => {
    const { limit } = c.req.valid("query");
    const assistantIds = await accountAssistantIds(c.var.db, currentUser(c).id);
    const mine = new Set(assistantIds);
    const calls = await c.var.providers.voice.listCalls({ assistantIds, limit });
    // Only calls of the account's own assistants, whatever the platform answered.
    const body: VapiCallLogsResponse = { calls: calls.filter((k) => k.assistantId && mine.has(k.assistantId)).map(toVapiCallView) };
    // The platform's call list is fresh enough for 30 s (spec 2 §9); the browser may reuse it that long.
    c.header("cache-control", `private, max-age=${VAPI_CALL_LOGS_STALE_MS / 1000}`);
    return c.json(body);
  })
  .get("/call/:call_id", requireUser, validate("param", vapiCallParams), async (c) => {
    const { call_id } = c.req.valid("param");
    const userId = currentUser(c).id;
    const row = await findCallLog(c.var.db, call_id);
    // Another account's call answers exactly like a call that does not exist.
    if (row && row.userId !== userId) throw notFound("Call not found");
    let call = await c.var.providers.voice.getCall(call_id);
    if (!call) {
      if (!row) throw notFound("Call not found");
      call = callLogToPlatformCall(row);
    } else if (!row) {
      const mine = await accountAssistantIds(c.var.db, userId);
      if (!call.assistantId || !mine.includes(call.assistantId)) throw notFound("Call not found");
    }
    const body: VapiCallDetail = { ...toVapiCallView(call), transcript: call.transcript };
    return c.json(body);
  })
  .get("/voices", requireUser, async (c) => {
    const body: VoicesResponse = { voices: await c.var.providers.voice.listVoices() };
    return c.json(body);
  })
  .delete("/assistant/:assistantId", requireUser, validate("param", assistantParams), async (c) => {
    const { assistantId } = c.req.valid("param");
    const user = currentUser(c);
    const agent = await c.var.db.query.agents.findFirst({
      columns: { id: true },
      where: and(eq(agents.userId, user.id), eq(agents.vapiAssistantId, assistantId)),
    });
    if (!agent) throw notFound("Assistant not found");
    // The same as deactivating the agent: its imported number is unpointed too (ADR 004).
    await deactivateAgent({ db: c.var.db, voice: c.var.providers.voice, prompt: c.var.providers.prompt }, user.id, agent.id);
    return c.json({ success: true, agentId: agent.id });
  })
  // Simulated calls' recordings: public like a platform recording URL (an <audio> element sends no
  // bearer token), local mode only, and only a generated tone, never call content.
  .get("/sim-recordings/:file", validate("param", simRecordingParams), async (c) => {
    if (c.var.providers.voice.kind !== "local") throw notFound("Recording not found");
    const callId = c.req.valid("param").file.replace(/\.wav$/, "");
    return c.body(simulatedRecordingWav(callId), 200, { "content-type": "audio/wav", "cache-control": "public, max-age=86400" });
  });
