// Voice simulator: the default voice adapter when no VAPI key is configured. It keeps its own records,
// as the platform does: assistants in sim_assistants, calls in sim_calls (ADR 007). A test call ends a
// few seconds later with a realistic end-of-call report that is posted through the same webhook route,
// with the same secret header, as real VAPI uses. It depends on its port and D1 only.
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "../../db/client";
import { simAssistants, simCalls } from "../../db/schema";
import { providerError } from "../../lib/errors";
import { log } from "../../lib/log";
import { fnv1a32 } from "../../lib/random";
import { catalogueVoices } from "./catalogue";
import {
  VOICE_WEBHOOK_PATH,
  queuedCall,
  type Assistant,
  type AssistantSpec,
  type ImportedNumber,
  type OutboundCallRequest,
  type PlatformCall,
  type Voice,
  type VoicePort,
} from "./port";

/** Webhook secret of local mode when VAPI_WEBHOOK_SECRET is unset; refused in production. */
export const DEV_VAPI_WEBHOOK_SECRET = "local-development-vapi-webhook-secret-0001";
export const SIM_DEFAULT_DELAY_MS = 4_000;
export const SIM_RECORDING_PATH = "/api/vapi/sim-recordings";

export type LocalVoiceOptions = {
  /** Origin of the current request; reports go to `<origin>` + VOICE_WEBHOOK_PATH. */
  origin: string;
  /** Sent as `x-vapi-secret`, exactly as VAPI sends the secret we gave it. */
  webhookSecret: string | null;
  /** Dispatches a request to the app in-process (the app is not imported here, to avoid a cycle). */
  deliver?: (request: Request) => Promise<Response>;
  /** Keeps the delivery alive after the response (ExecutionContext.waitUntil). */
  defer?: (promise: Promise<unknown>) => void;
  /** How long after the call starts the report arrives; tests use a few milliseconds. */
  delayMs?: number;
};

export class LocalVoice implements VoicePort {
  readonly kind = "local" as const;

  constructor(
    private db: Database,
    private opts: LocalVoiceOptions,
  ) {}

  async createAssistant(ownerId: string, spec: AssistantSpec): Promise<Assistant> {
    const id = `sim_asst_${crypto.randomUUID()}`;
    await this.db.insert(simAssistants).values({ id, ownerId, name: spec.name, prompt: spec.prompt, voiceId: spec.voiceId });
    return { id, name: spec.name, voiceId: spec.voiceId };
  }

  async updateAssistant(ownerId: string, assistantId: string, spec: AssistantSpec): Promise<Assistant> {
    const [row] = await this.db
      .update(simAssistants)
      .set({ name: spec.name, prompt: spec.prompt, voiceId: spec.voiceId, updatedAt: new Date().toISOString() })
      .where(and(eq(simAssistants.id, assistantId), eq(simAssistants.ownerId, ownerId)))
      .returning({ id: simAssistants.id });
    // The same failure VAPI gives for an assistant that does not exist.
    if (!row) throw providerError("VAPI", "404 Couldn't Find Assistant");
    return { id: assistantId, name: spec.name, voiceId: spec.voiceId };
  }

  async deleteAssistant(ownerId: string, assistantId: string): Promise<void> {
    await this.db.delete(simAssistants).where(and(eq(simAssistants.id, assistantId), eq(simAssistants.ownerId, ownerId)));
  }

  async listVoices(): Promise<Voice[]> {
    return catalogueVoices();
  }

  async startOutboundCall(ownerId: string, req: OutboundCallRequest): Promise<PlatformCall> {
    const assistant = await this.db.query.simAssistants.findFirst({
      where: and(eq(simAssistants.id, req.assistantId), eq(simAssistants.ownerId, ownerId)),
    });
    if (!assistant) throw providerError("VAPI", "400 Couldn't Find Assistant");
    const createdAt = new Date().toISOString();
    const call = queuedCall(`sim_call_${crypto.randomUUID()}`, { ...req, assistantId: assistant.id }, createdAt);
    await this.db.insert(simCalls).values({ id: call.id, ownerId, assistantId: assistant.id, call, createdAt });
    const { deliver, defer } = this.opts;
    if (deliver && defer) defer(this.playCall(call, assistant.name, deliver));
    return call;
  }

  /** The call's life after it was queued: in progress, then ended with a report. */
  private async playCall(call: PlatformCall, assistantName: string, deliver: (r: Request) => Promise<Response>) {
    const delay = this.opts.delayMs ?? SIM_DEFAULT_DELAY_MS;
    try {
      await sleep(Math.floor(delay / 2));
      const startedAt = new Date().toISOString();
      await this.keep({ ...call, status: "in-progress", startedAt });
      await this.post(deliver, {
        type: "status-update",
        status: "in-progress",
        timestamp: Date.now(),
        call: vapiCall({ ...call, status: "in-progress", startedAt }),
      });
      await sleep(delay - Math.floor(delay / 2));
      const outcome = simulateOutcome(call.id, assistantName, startedAt);
      const ended: PlatformCall = { ...call, status: "ended", startedAt, ...outcome };
      await this.keep(ended);
      await this.post(deliver, {
        type: "end-of-call-report",
        timestamp: Date.now(),
        endedReason: ended.endedReason,
        startedAt: ended.startedAt,
        endedAt: ended.endedAt,
        cost: ended.cost,
        durationSeconds: ended.duration,
        analysis: { summary: ended.summary },
        artifact: {
          transcript: ended.transcript,
          ...(ended.recordingUrl ? { recordingUrl: ended.recordingUrl } : {}),
          messages: [],
        },
        call: vapiCall({ ...call, status: "in-progress", startedAt }),
      });
    } catch (e) {
      log(null, "warn", "voice simulator delivery failed", { callId: call.id, error: (e as Error).message });
    }
  }

  /** The simulator's own record of the call, updated as the call goes on (before it reports). */
  private async keep(call: PlatformCall) {
    await this.db.update(simCalls).set({ call, updatedAt: new Date().toISOString() }).where(eq(simCalls.id, call.id));
  }

  private async post(deliver: (r: Request) => Promise<Response>, message: Record<string, unknown>) {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.opts.webhookSecret) headers["x-vapi-secret"] = this.opts.webhookSecret;
    const res = await deliver(
      new Request(`${this.opts.origin}${VOICE_WEBHOOK_PATH}`, { method: "POST", headers, body: JSON.stringify({ message }) }),
    );
    if (!res.ok) throw new Error(`webhook answered ${res.status}: ${await res.text()}`);
  }

  /** The assistants' newest calls, newest first, like VAPI's GET /call. */
  async listCalls(opts: { assistantIds: string[]; limit: number }): Promise<PlatformCall[]> {
    const chunks: string[][] = [];
    for (let i = 0; i < opts.assistantIds.length; i += ASSISTANTS_PER_QUERY) chunks.push(opts.assistantIds.slice(i, i + ASSISTANTS_PER_QUERY));
    const pages = await Promise.all(
      chunks.map((ids) =>
        this.db
          .select({ call: simCalls.call, createdAt: simCalls.createdAt, id: simCalls.id })
          .from(simCalls)
          .where(inArray(simCalls.assistantId, ids))
          .orderBy(desc(simCalls.createdAt), desc(simCalls.id))
          .limit(opts.limit),
      ),
    );
    // Each chunk's newest `limit`, merged: the overall newest `limit` are among them.
    return pages
      .flat()
      .sort((a, b) => (b.createdAt > a.createdAt ? 1 : b.createdAt < a.createdAt ? -1 : b.id.localeCompare(a.id)))
      .slice(0, opts.limit)
      .map((r) => r.call as PlatformCall);
  }

  async getCall(callId: string): Promise<PlatformCall | null> {
    const row = await this.db.query.simCalls.findFirst({ columns: { call: true }, where: eq(simCalls.id, callId) });
    return row ? (row.call as PlatformCall) : null;
  }

  async importTwilioNumber(input: { number: string }): Promise<ImportedNumber> {
    return { id: `sim_pn_${crypto.randomUUID()}`, number: input.number };
  }

  async setNumberAssistant(): Promise<void> {
    // The simulator routes no real calls, so there is nothing to point at the assistant.
  }

  async removeNumber(): Promise<void> {
    // The simulator's imports are not stored, so there is nothing to remove.
  }
}

/** Assistant ids per statement: D1 binds at most 100 parameters, and the limit takes one. */
const ASSISTANTS_PER_QUERY = 90;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** A PlatformCall in VAPI's wire shape, as VAPI puts it in `message.call`. */
function vapiCall(c: PlatformCall) {
  return {
    id: c.id,
    orgId: "sim-org",
    type: c.type,
    status: c.status,
    assistantId: c.assistantId,
    phoneNumberId: c.phoneNumberId,
    customer: c.customer.number ? { number: c.customer.number } : undefined,
    createdAt: c.createdAt,
    updatedAt: new Date().toISOString(),
    startedAt: c.startedAt ?? undefined,
    ...(c.metadata ? { metadata: c.metadata } : {}),
  };
}

type Outcome = Pick<PlatformCall, "endedReason" | "endedAt" | "summary" | "transcript" | "recordingUrl" | "cost" | "duration">;

const CONVERSATIONS = [
  {
    summary: (a: string) =>
      `${a} reached the customer, who asked about availability this week. An appointment was booked for Thursday at 2 PM and the customer confirmed by text.`,
    turns: (a: string) => [
      `AI: Hi, this is ${a}. I'm calling to follow up on your recent inquiry. Is now a good time?`,
      "Human: Yes, sure. I was wondering if you have anything available this week.",
      "AI: We do. I have Thursday at 2 PM or Friday at 10 AM. Which works better for you?",
      "Human: Thursday at 2 works.",
      "AI: Great, you're booked for Thursday at 2 PM. You'll get a confirmation text shortly.",
      "Human: Perfect, thanks.",
      "AI: Thank you, have a great day!",
    ],
  },
  {
    summary: (a: string) =>
      `${a} answered the customer's pricing questions. The customer wants to compare options and asked for a callback next week.`,
    turns: (a: string) => [
      `AI: Hello, this is ${a}. Thanks for picking up. Do you have a minute to talk about your request?`,
      "Human: I do. Mostly I want to know about pricing.",
      "AI: Of course. Our standard package starts at forty-nine dollars a month, and there's a premium option with extra support.",
      "Human: Okay. I need to think about it and compare a couple of options.",
      "AI: That makes sense. Would you like me to call you back next week?",
      "Human: Yes, early next week is fine.",
      "AI: I'll make a note of that. Thanks for your time!",
    ],
  },
  {
    summary: (a: string) => `${a} spoke with the customer, who said they are no longer interested and asked not to be called again.`,
    turns: (a: string) => [
      `AI: Hi, this is ${a}, following up on your recent visit. Is this a good time?`,
      "Human: Actually, I'm not interested anymore.",
      "AI: I understand. Would you like me to remove you from our call list?",
      "Human: Yes, please.",
      "AI: Done. Sorry for the interruption, and have a nice day.",
    ],
  },
];

/**
 * The simulated end of a call, chosen from its id: mostly answered conversations (summary,
 * several turns, a recording), sometimes voicemail (short message, no recording).
 */
export function simulateOutcome(callId: string, assistantName: string, startedAt: string): Outcome {
  const h = fnv1a32(callId);
  const start = Date.parse(startedAt);
  if (h % 4 === 3) {
    const durationSeconds = 14 + (h % 9);
    return {
      endedReason: "voicemail",
      endedAt: new Date(start + durationSeconds * 1000).toISOString(),
      summary: `The call went to voicemail. ${assistantName} left a short message asking the customer to call back.`,
      transcript: `AI: Hi, this is ${assistantName}. Sorry I missed you. Please call us back when you have a moment. Thank you!`,
      recordingUrl: null,
      cost: Math.round(durationSeconds * 0.0018 * 100) / 100,
      duration: durationSeconds,
    };
  }
  const story = CONVERSATIONS[(h >>> 3) % CONVERSATIONS.length];
  const durationSeconds = 45 + ((h >>> 5) % 106);
  return {
    endedReason: (h >>> 9) % 2 === 0 ? "customer-ended-call" : "assistant-ended-call",
    endedAt: new Date(start + durationSeconds * 1000).toISOString(),
    summary: story.summary(assistantName),
    transcript: story.turns(assistantName).join("\n"),
    recordingUrl: `${SIM_RECORDING_PATH}/${callId}.wav`,
    cost: Math.round(durationSeconds * 0.0018 * 100) / 100,
    duration: durationSeconds,
  };
}

/**
 * A short, quiet two-tone WAV (8 kHz, 16-bit mono) so the call-detail player works offline.
 * The tones depend on the call id, so each simulated call sounds slightly different.
 */
export function simulatedRecordingWav(callId: string, seconds = 2): Uint8Array<ArrayBuffer> {
  const rate = 8000;
  const samples = rate * seconds;
  const buf = new ArrayBuffer(44 + samples * 2);
  const v = new DataView(buf);
  const ascii = (at: number, s: string) => [...s].forEach((ch, i) => v.setUint8(at + i, ch.charCodeAt(0)));
  ascii(0, "RIFF");
  v.setUint32(4, 36 + samples * 2, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, 1, true); // mono
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  ascii(36, "data");
  v.setUint32(40, samples * 2, true);
  const base = 330 + (fnv1a32(callId) % 5) * 55;
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const freq = t < seconds / 2 ? base : base * 1.25;
    // Fade in and out so the tone does not click.
    const envelope = Math.min(1, t * 8, (seconds - t) * 8);
    v.setInt16(44 + i * 2, Math.round(Math.sin(2 * Math.PI * freq * t) * 2500 * envelope), true);
  }
  return new Uint8Array(buf);
}
