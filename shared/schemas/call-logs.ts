// Call-log contracts: the unified call log, the voice platform's call views and the voices list.
import { z } from "zod";

/** GET /api/call-logs?limit=50&cursor=<opaque> */
export const callLogsQuery = z.object({
  limit: z.coerce.number().int("limit must be a whole number").min(1, "limit must be at least 1").max(200, "limit must be at most 200").default(50),
  cursor: z.string().min(1, "cursor is empty").max(200, "cursor is too long").optional(),
});
export type CallLogsQuery = z.infer<typeof callLogsQuery>;

/** One row of the unified call log (docs/product/call-logs.md#the-call-log-record "Call log (unified)", plus the fields the dashboard reads). */
export type CallLogView = {
  id: number;
  user_id: string;
  call_id: string;
  phone_number: string | null;
  /** UTC ISO-8601. */
  start_time: string;
  /** Seconds. */
  duration: number;
  status: string;
  summary: string | null;
  ended_reason: string | null;
  direction: "inbound" | "outbound" | "web";
  agent_id: number | null;
  recording_url: string | null;
};
export type CallLogsResponse = { logs: CallLogView[]; nextCursor: string | null };

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
export type SearchSnippet = { text: string; highlights: [number, number][] };
export type CallLogSearchResult = { log: CallLogView; snippet: SearchSnippet };
export type CallLogSearchResponse = { results: CallLogSearchResult[]; nextCursor: string | null };

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

export type TranscriptTurn = { role: string; content?: string; text?: string };
/** 'AI: ... / Human: ...' text, or an array of turns with role and content or text (docs/product/call-logs.md#call-details-and-transcripts "Call detail"). */
export type Transcript = string | TranscriptTurn[];

/**
 * A call as the voice platform reports it (VAPI's call object, normalised), under the names the spec
 * reads (docs/product/call-logs.md#voice-platform-fields-read): what the voice port gives and, less
 * our metadata, what /api/vapi/call-logs and /api/vapi/call answer.
 */
export type PlatformCall = {
  id: string;
  assistantId: string | null;
  type: "inboundPhoneCall" | "outboundPhoneCall" | "webCall";
  status: string;
  endedReason: string | null;
  customer: { number: string | null };
  phoneNumberId: string | null;
  startedAt: string | null;
  endedAt: string | null;
  createdAt: string;
  summary: string | null;
  /** Seconds. */
  duration: number | null;
  recordingUrl: string | null;
  cost: number | null;
  transcript: Transcript | null;
  /** Our own ids the call was placed with, echoed back by the platform; never answered. */
  metadata?: Record<string, string>;
};
/** GET /api/vapi/call-logs: the calls without their transcripts. */
export type VapiCallLogsResponse = { calls: Omit<PlatformCall, "transcript" | "metadata">[] };
/** GET /api/vapi/call/{call_id} */
export type VapiCallDetail = Omit<PlatformCall, "metadata">;

export type VoiceView = { id: string; name: string; provider: string; gender?: string; accent?: string };
export type VoicesResponse = { voices: VoiceView[] };
