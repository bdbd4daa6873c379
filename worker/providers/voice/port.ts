// Voice platform port (VAPI): shaped by what the product does with voice agents.
import type { PlatformCall } from "@shared/schemas/call-logs";

export type { PlatformCall };

/**
 * Where the voice platform posts its server messages, on every deployment: the adapters build the
 * URL they hand to the platform from the request's origin and this path, and the app mounts the
 * webhook route at it.
 */
export const VOICE_WEBHOOK_PATH = "/api/webhooks/vapi";

export type AssistantSpec = {
  name: string;
  prompt: string;
  voiceId: string;
  /** Our own ids, echoed back in webhooks as metadata. */
  metadata?: Record<string, string>;
};

export type Assistant = { id: string; name: string; voiceId: string };

export type Voice = { id: string; name: string; provider: string; gender?: string; accent?: string };

export type OutboundCallRequest = {
  assistantId: string;
  customerNumber: string;
  /** The platform's id of the caller number (our imported number, or the configured default). */
  phoneNumberId?: string;
  metadata?: Record<string, string>;
};

/** One authenticated webhook event: what the platform says happened to a call, under an id unique per event. */
/** A call the platform has just accepted: queued, nothing known yet about how it goes. */
export function queuedCall(id: string, req: OutboundCallRequest, createdAt = new Date().toISOString()): PlatformCall {
  return {
    id,
    assistantId: req.assistantId,
    type: "outboundPhoneCall",
    status: "queued",
    endedReason: null,
    customer: { number: req.customerNumber },
    phoneNumberId: req.phoneNumberId ?? null,
    startedAt: null,
    endedAt: null,
    createdAt,
    summary: null,
    transcript: null,
    recordingUrl: null,
    cost: null,
    duration: null,
    ...(req.metadata ? { metadata: req.metadata } : {}),
  };
}

export type CallEvent = { id: string; provider: "vapi"; type: string; call: PlatformCall };

export type ImportedNumber = { id: string; number: string };

export interface VoicePort {
  readonly kind: "local" | "vapi";
  createAssistant(ownerId: string, spec: AssistantSpec): Promise<Assistant>;
  updateAssistant(ownerId: string, assistantId: string, spec: AssistantSpec): Promise<Assistant>;
  /** Deleting an assistant that is already gone is not an error. */
  deleteAssistant(ownerId: string, assistantId: string): Promise<void>;
  listVoices(): Promise<Voice[]>;
  /** Starts an outbound call; the end-of-call report arrives later through POST VOICE_WEBHOOK_PATH. */
  startOutboundCall(ownerId: string, req: OutboundCallRequest): Promise<PlatformCall>;
  listCalls(opts: { assistantIds: string[]; limit: number }): Promise<PlatformCall[]>;
  getCall(callId: string): Promise<PlatformCall | null>;
  /** Imports a bought Twilio number so the platform can use it for AI calls. */
  importTwilioNumber(input: { number: string; twilioAccountSid?: string; twilioAuthToken?: string; name?: string; assistantId?: string }): Promise<ImportedNumber>;
  /** Points an imported number at an assistant (or none). */
  setNumberAssistant(phoneNumberId: string, assistantId: string | null): Promise<void>;
  /** Removes an imported number from the platform (the telephony provider keeps it); one already gone is not an error. */
  removeNumber(phoneNumberId: string): Promise<void>;
}
