// VAPI's wire shapes (call objects from the REST API, server messages posted to our webhook)
// and their normalisation to the port's PlatformCall. Vendor payloads are parsed loosely:
// only the fields the product reads are checked, everything else passes through untouched.
import { z } from "zod";
import type { PlatformCall } from "./port";

const str = z.string().nullish();
const num = z.number().nullish();

const transcriptItem = z.looseObject({ role: z.string(), content: z.string().optional(), text: z.string().optional() });
/** A transcript is either 'AI: ... / User: ...' text or an array of turns (docs/product/call-logs.md#call-details-and-transcripts "Call detail"). */
const transcript = z.union([z.string(), z.array(transcriptItem)]).nullish();

/** VAPI's artifact messages: `{ role: 'bot' | 'user' | 'system' | ..., message }`. */
const artifactMessage = z.looseObject({ role: z.string(), message: z.string().optional() });

const artifact = z
  .looseObject({
    transcript: z.string().nullish(),
    recordingUrl: str,
    recording: z.looseObject({ mono: z.looseObject({ combinedUrl: str }).nullish() }).nullish(),
    messages: z.array(artifactMessage).nullish(),
  })
  .nullish();

const analysis = z.looseObject({ summary: str }).nullish();

export const vapiCallSchema = z.looseObject({
  id: z.string().min(1, "call id is required").max(200),
  assistantId: str,
  type: str,
  status: str,
  endedReason: str,
  customer: z.looseObject({ number: str }).nullish(),
  // Where else the platform puts a call's number (docs/product/README.md#records): a bare string or the number object,
  // the caller of an inbound call, the callee of an outbound one.
  phoneNumber: z.union([z.string(), z.looseObject({ number: str })]).nullish(),
  from: z.looseObject({ phoneNumber: str }).nullish(),
  recipient: z.looseObject({ phone_number: str }).nullish(),
  phoneNumberId: str,
  startedAt: str,
  endedAt: str,
  createdAt: str,
  summary: str,
  transcript,
  recordingUrl: str,
  analysis,
  artifact,
  cost: num,
  /** Seconds, when the platform gives it; it wins over the start and end times. */
  duration: num,
  durationSeconds: num,
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
export type VapiCall = z.infer<typeof vapiCallSchema>;

/** Fields an end-of-call report carries beside `call` (they are newer than the call snapshot). */
const reportFields = {
  endedReason: str,
  startedAt: str,
  endedAt: str,
  cost: num,
  durationSeconds: num,
  summary: str,
  transcript,
  recordingUrl: str,
  analysis,
  artifact,
};

export const vapiStatusUpdateSchema = z.looseObject({
  type: z.literal("status-update"),
  status: z.string().min(1).max(40),
  endedReason: str,
  call: vapiCallSchema,
});

export const vapiEndOfCallReportSchema = z.looseObject({
  type: z.literal("end-of-call-report"),
  ...reportFields,
  call: vapiCallSchema,
});

/** The envelope VAPI posts to the server URL: `{ message: { type, ... } }`. */
export const vapiServerEnvelopeSchema = z.object({
  message: z.looseObject({ type: z.string().min(1, "message.type is required").max(100) }),
});

const CALL_TYPES = ["inboundPhoneCall", "outboundPhoneCall", "webCall"] as const;

function callType(type: string | null | undefined): PlatformCall["type"] {
  if (type && (CALL_TYPES as readonly string[]).includes(type)) return type as PlatformCall["type"];
  // Newer transports (e.g. 'vapi.websocketCall') are browser-side calls for our purposes.
  return type ? "webCall" : "outboundPhoneCall";
}

function durationOf(startedAt: string | null, endedAt: string | null, fallback: number | null | undefined): number | null {
  if (startedAt && endedAt) {
    const ms = Date.parse(endedAt) - Date.parse(startedAt);
    if (Number.isFinite(ms) && ms >= 0) return Math.round(ms / 1000);
  }
  return fallback == null ? null : Math.max(0, Math.round(fallback));
}

function transcriptOf(c: { transcript?: VapiCall["transcript"]; artifact?: VapiCall["artifact"] }): PlatformCall["transcript"] {
  if (c.artifact?.transcript) return c.artifact.transcript;
  if (c.transcript != null && c.transcript !== "") {
    return typeof c.transcript === "string"
      ? c.transcript
      : c.transcript.map((t) => ({ role: t.role, ...(t.content !== undefined ? { content: t.content } : {}), ...(t.text !== undefined ? { text: t.text } : {}) }));
  }
  // Only the spoken turns, without the system prompt.
  const turns = c.artifact?.messages?.filter((m) => (m.role === "bot" || m.role === "assistant" || m.role === "user") && m.message);
  if (turns?.length) return turns.map((m) => ({ role: m.role === "user" ? "user" : "assistant", content: m.message! }));
  return null;
}

function stringRecord(v: Record<string, unknown> | null | undefined): Record<string, string> | undefined {
  if (!v) return undefined;
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) if (typeof val === "string") out[k] = val;
  return Object.keys(out).length ? out : undefined;
}

/** The call's number, from the first of the places docs/product/README.md#records names that holds one. */
function numberOf(c: VapiCall): string | null {
  const phoneNumber = typeof c.phoneNumber === "string" ? c.phoneNumber : c.phoneNumber?.number;
  return c.customer?.number || phoneNumber || c.from?.phoneNumber || c.recipient?.phone_number || null;
}

/** VAPI's call object → PlatformCall (docs/product/call-logs.md#voice-platform-fields-read "Voice-provider call fields read"). */
export function toPlatformCall(c: VapiCall): PlatformCall {
  const startedAt = c.startedAt ?? null;
  const endedAt = c.endedAt ?? null;
  const metadata = stringRecord(c.metadata);
  return {
    id: c.id,
    assistantId: c.assistantId ?? null,
    type: callType(c.type),
    status: c.status ?? "queued",
    endedReason: c.endedReason ?? null,
    customer: { number: numberOf(c) },
    phoneNumberId: c.phoneNumberId ?? null,
    startedAt,
    endedAt,
    createdAt: c.createdAt ?? startedAt ?? new Date().toISOString(),
    summary: c.analysis?.summary ?? c.summary ?? null,
    transcript: transcriptOf(c),
    recordingUrl: c.recordingUrl ?? c.artifact?.recordingUrl ?? c.artifact?.recording?.mono?.combinedUrl ?? null,
    cost: c.cost ?? null,
    duration: c.duration != null ? Math.max(0, Math.round(c.duration)) : durationOf(startedAt, endedAt, c.durationSeconds),
    ...(metadata ? { metadata } : {}),
  };
}

/** A status update: the call snapshot with the new status (and the ended reason when it ended). */
export function callFromStatusUpdate(m: z.infer<typeof vapiStatusUpdateSchema>): PlatformCall {
  return toPlatformCall({ ...m.call, status: m.status, endedReason: m.endedReason ?? m.call.endedReason });
}

/** An end-of-call report: the report's own fields win over the (older) call snapshot. */
export function callFromEndOfCallReport(m: z.infer<typeof vapiEndOfCallReportSchema>): PlatformCall {
  const pick = <K extends keyof typeof reportFields>(k: K) => (m[k] ?? m.call[k]) as VapiCall[K];
  return toPlatformCall({
    ...m.call,
    status: "ended",
    endedReason: pick("endedReason"),
    startedAt: pick("startedAt"),
    endedAt: pick("endedAt"),
    cost: pick("cost"),
    durationSeconds: pick("durationSeconds"),
    summary: pick("summary"),
    transcript: pick("transcript"),
    recordingUrl: pick("recordingUrl"),
    analysis: m.analysis?.summary ? m.analysis : m.call.analysis,
    artifact: m.artifact ? { ...(m.call.artifact ?? {}), ...m.artifact } : m.call.artifact,
  });
}
