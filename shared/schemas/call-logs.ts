// Call-log contracts: the unified call log, the voice platform's call views and the voices list.
import { z } from "zod";
import { CALL_LOG_OUTCOMES } from "../call-outcomes";

const instant = z.iso.datetime({ offset: true, error: "must be an ISO-8601 date-time, e.g. 2026-05-01T14:00:00Z" });

/**
 * The call log's filters, each optional: calls started in [from, to), of one voice assistant
 * (`agent`, a VAPI assistant id; another account's finds nothing), ending in an error or forwarded.
 */
export const callLogFilters = z.object({
  from: instant.optional(),
  to: instant.optional(),
  agent: z.string().trim().min(1, "agent is empty").max(200, "agent is too long").optional(),
  outcome: z.enum(CALL_LOG_OUTCOMES, { error: `outcome must be one of ${CALL_LOG_OUTCOMES.join(", ")}` }).optional(),
});
export type CallLogFilters = z.infer<typeof callLogFilters>;

/** GET /api/call-logs?limit=50&cursor=<opaque>&from=&to=&agent=&outcome= */
export const callLogsQuery = callLogFilters
  .extend({
    limit: z.coerce.number().int("limit must be a whole number").min(1, "limit must be at least 1").max(200, "limit must be at most 200").default(50),
    cursor: z.string().min(1, "cursor is empty").max(200, "cursor is too long").optional(),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && Date.parse(q.to) <= Date.parse(q.from)) ctx.addIssue({ code: "custom", path: ["to"], message: "to must be after from" });
  });
export type CallLogsQuery = z.infer<typeof callLogsQuery>;

/** One row of the unified call log (docs/product/call-logs.md#the-call-log-record "Call log (unified)", plus the fields the dashboard reads). */
export const callLogView = z.object({
  id: z.number(),
  user_id: z.string(),
  call_id: z.string(),
  phone_number: z.string().nullable(),
  /** UTC ISO-8601. */
  start_time: z.string(),
  /** Seconds. */
  duration: z.number(),
  status: z.string(),
  summary: z.string().nullable(),
  ended_reason: z.string().nullable(),
  direction: z.enum(["inbound", "outbound", "web"]),
  agent_id: z.number().nullable(),
  recording_url: z.string().nullable(),
});
export type CallLogView = z.infer<typeof callLogView>;
export const callLogsResponse = z.object({ logs: z.array(callLogView), nextCursor: z.string().nullable() });
export type CallLogsResponse = z.infer<typeof callLogsResponse>;

/** GET /api/call-logs/search?q=&limit=&cursor=: the account's calls whose transcript or summary (or number) match (decision 059). */
export const callLogSearchQuery = z.object({
  q: z.string().trim().min(2, "q must be at least 2 characters").max(200, "q must be at most 200 characters"),
  limit: z.coerce.number().int("limit must be a whole number").min(1, "limit must be at least 1").max(50, "limit must be at most 50").default(20),
  cursor: z.string().min(1, "cursor is empty").max(40, "cursor is too long").optional(),
});
export type CallLogSearchQuery = z.infer<typeof callLogSearchQuery>;

/**
 * A piece of the call's summary or transcript around the words that matched: plain text, never HTML,
 * and the [start, end) character ranges of the matching words in it.
 */
export const searchSnippet = z.object({ text: z.string(), highlights: z.array(z.tuple([z.number(), z.number()])) });
export type SearchSnippet = z.infer<typeof searchSnippet>;
export const callLogSearchResult = z.object({ log: callLogView, snippet: searchSnippet });
export type CallLogSearchResult = z.infer<typeof callLogSearchResult>;
export const callLogSearchResponse = z.object({ results: z.array(callLogSearchResult), nextCursor: z.string().nullable() });
export type CallLogSearchResponse = z.infer<typeof callLogSearchResponse>;

/** GET /api/vapi/call-logs?limit= */
export const vapiCallLogsQuery = z.object({
  limit: z.coerce.number().int("limit must be a whole number").min(1, "limit must be at least 1").max(100, "limit must be at most 100").default(50),
});

/** GET /api/vapi/call/{call_id}: the client asks only for ids that do not start with 'call_' (docs/product/api.md#api). */
export const vapiCallParams = z.object({
  call_id: z
    .string()
    .min(1, "call_id is required")
    .max(200, "call_id is too long")
    .regex(/^[\w.-]+$/, "call_id has invalid characters")
    .refine((id) => !id.startsWith("call_"), "call_id must not start with 'call_'"),
});

/** DELETE /api/vapi/assistant/{assistantId} */
export const assistantParams = z.object({
  assistantId: z.string().min(1, "assistantId is required").max(200, "assistantId is too long"),
});

export const transcriptTurn = z.object({ role: z.string(), content: z.string().optional(), text: z.string().optional() });
export type TranscriptTurn = z.infer<typeof transcriptTurn>;
/** 'AI: ... / Human: ...' text, or an array of turns with role and content or text (docs/product/call-logs.md#call-details-and-transcripts "Call detail"). */
export const transcript = z.union([z.string(), z.array(transcriptTurn)]);
export type Transcript = z.infer<typeof transcript>;

/**
 * A call as the voice platform reports it (VAPI's call object, normalised), under the names the spec
 * reads (docs/product/call-logs.md#voice-platform-fields-read): what the voice port gives and, less
 * our metadata, what /api/vapi/call-logs and /api/vapi/call answer.
 */
export const platformCall = z.object({
  id: z.string(),
  assistantId: z.string().nullable(),
  type: z.enum(["inboundPhoneCall", "outboundPhoneCall", "webCall"]),
  status: z.string(),
  endedReason: z.string().nullable(),
  customer: z.object({ number: z.string().nullable() }),
  phoneNumberId: z.string().nullable(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  createdAt: z.string(),
  summary: z.string().nullable(),
  /** Seconds. */
  duration: z.number().nullable(),
  recordingUrl: z.string().nullable(),
  cost: z.number().nullable(),
  transcript: transcript.nullable(),
  /** Our own ids the call was placed with, echoed back by the platform; never answered. */
  metadata: z.record(z.string(), z.string()).optional(),
});
export type PlatformCall = z.infer<typeof platformCall>;
/** GET /api/vapi/call-logs: the calls without their transcripts. */
export const vapiCallLogsResponse = z.object({ calls: z.array(platformCall.omit({ transcript: true, metadata: true })) });
export type VapiCallLogsResponse = z.infer<typeof vapiCallLogsResponse>;
/** GET /api/vapi/call/{call_id} */
export const vapiCallDetail = platformCall.omit({ metadata: true });
export type VapiCallDetail = z.infer<typeof vapiCallDetail>;

export const voiceView = z.object({ id: z.string(), name: z.string(), provider: z.string(), gender: z.string().optional(), accent: z.string().optional() });
export type VoiceView = z.infer<typeof voiceView>;
export const voicesResponse = z.object({ voices: z.array(voiceView) });
export type VoicesResponse = z.infer<typeof voicesResponse>;
