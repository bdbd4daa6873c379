// VAPI adapter: assistants, outbound calls, call reads and Twilio number import over VAPI's REST API.
// Every non-2xx answer becomes providerError("VAPI", ...), so a configured VAPI that fails reaches the user.
import { z } from "zod";
import { providerError } from "../../lib/errors";
import { fetchFailure, providerSignal } from "../timeout";
import { catalogueVoices, toVapiVoice } from "./catalogue";
import { VOICE_WEBHOOK_PATH, type Assistant, type AssistantSpec, type ImportedNumber, type OutboundCallRequest, type PlatformCall, type Voice, type VoicePort } from "./port";
import { toPlatformCall, vapiCallSchema } from "./vapi-shapes";
import { VAPI_SERVER_MESSAGES } from "./vapi-webhook";

export const VAPI_DEFAULT_BASE_URL = "https://api.vapi.ai";
/** The model behind every assistant; the prompt is its system message. */
export const VAPI_ASSISTANT_MODEL = { provider: "openai", model: "gpt-4.1" } as const;
/** VAPI limits assistant names to 40 characters. */
const NAME_MAX = 40;

export type VapiSettings = {
  apiKey: string;
  baseUrl?: string;
  /** Sent back to us as the `x-vapi-secret` header on every server message. */
  webhookSecret?: string | null;
  /** Origin of this deployment as the request reached it; assistants report to `<origin>` + VOICE_WEBHOOK_PATH. */
  origin?: string;
  /** Caller number used for outbound calls when the request names none (VAPI_PHONE_NUMBER_ID). */
  defaultPhoneNumberId?: string;
  /** Twilio credentials used when importing a bought number (TWILIO_ACCOUNT_SID / TWILIO_AUTH_TOKEN). */
  twilioAccountSid?: string;
  twilioAuthToken?: string;
  fetch?: typeof fetch;
  /** Milliseconds one request may take (default DEFAULT_PROVIDER_TIMEOUT_MS). */
  timeoutMs?: number;
};

const assistantSchema = z.looseObject({ id: z.string().min(1), name: z.string().nullish() });
const phoneNumberSchema = z.looseObject({ id: z.string().min(1), number: z.string().nullish() });

/** The first line the assistant speaks when a call connects. */
export function firstMessageFor(name: string) {
  return `Hi, this is ${name}. How can I help you today?`;
}

export class VapiVoice implements VoicePort {
  readonly kind = "vapi" as const;
  private readonly base: string;

  constructor(private settings: VapiSettings) {
    this.base = (settings.baseUrl ?? VAPI_DEFAULT_BASE_URL).replace(/\/+$/, "");
  }

  private async request(method: string, path: string, body?: unknown, opts: { allow404?: boolean } = {}): Promise<unknown> {
    let res: Response;
    try {
      res = await (this.settings.fetch ?? fetch)(`${this.base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.settings.apiKey}`,
          accept: "application/json",
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: providerSignal(this.settings.timeoutMs),
      });
    } catch (e) {
      throw providerError("VAPI", fetchFailure(e));
    }
    if (res.status === 404 && opts.allow404) return null;
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      throw providerError("VAPI", fetchFailure(e));
    }
    if (!res.ok) throw providerError("VAPI", `${res.status} ${errorMessage(text) || res.statusText}`);
    if (!text) return null;
    try {
      return JSON.parse(text);
    } catch {
      throw providerError("VAPI", `unreadable answer to ${method} ${path}`);
    }
  }

  private parse<T extends z.ZodType>(schema: T, data: unknown, what: string): z.infer<T> {
    const parsed = schema.safeParse(data);
    if (!parsed.success) throw providerError("VAPI", `unexpected ${what} shape`);
    return parsed.data;
  }

  private assistantBody(ownerId: string, spec: AssistantSpec) {
    const name = spec.name.trim().slice(0, NAME_MAX);
    const secret = this.settings.webhookSecret;
    const serverUrl = this.settings.origin ? `${this.settings.origin}${VOICE_WEBHOOK_PATH}` : undefined;
    return {
      name,
      firstMessage: firstMessageFor(name),
      model: { ...VAPI_ASSISTANT_MODEL, messages: [{ role: "system", content: spec.prompt }] },
      voice: toVapiVoice(spec.voiceId),
      serverMessages: [...VAPI_SERVER_MESSAGES],
      // VAPI's current Server object carries custom headers (the inline `secret` field is gone);
      // the secret comes back as `x-vapi-secret`, which the webhook checks.
      ...(serverUrl ? { server: { url: serverUrl, ...(secret ? { headers: { "x-vapi-secret": secret } } : {}) } } : {}),
      metadata: { ...spec.metadata, ownerId },
    };
  }

  async createAssistant(ownerId: string, spec: AssistantSpec): Promise<Assistant> {
    const data = await this.request("POST", "/assistant", this.assistantBody(ownerId, spec));
    const a = this.parse(assistantSchema, data, "assistant");
    return { id: a.id, name: a.name ?? spec.name, voiceId: spec.voiceId };
  }

  async updateAssistant(ownerId: string, assistantId: string, spec: AssistantSpec): Promise<Assistant> {
    const data = await this.request("PATCH", `/assistant/${encodeURIComponent(assistantId)}`, this.assistantBody(ownerId, spec));
    const a = this.parse(assistantSchema, data, "assistant");
    return { id: a.id, name: a.name ?? spec.name, voiceId: spec.voiceId };
  }

  async deleteAssistant(_ownerId: string, assistantId: string): Promise<void> {
    // 404: already gone, which is what the caller wants.
    await this.request("DELETE", `/assistant/${encodeURIComponent(assistantId)}`, undefined, { allow404: true });
  }

  async listVoices(): Promise<Voice[]> {
    return catalogueVoices();
  }

  async startOutboundCall(_ownerId: string, req: OutboundCallRequest): Promise<PlatformCall> {
    const phoneNumberId = req.phoneNumberId ?? this.settings.defaultPhoneNumberId;
    const data = await this.request("POST", "/call", {
      assistantId: req.assistantId,
      ...(phoneNumberId ? { phoneNumberId } : {}),
      customer: { number: req.customerNumber },
      ...(req.metadata ? { metadata: req.metadata } : {}),
    });
    const call = toPlatformCall(this.parse(vapiCallSchema, data, "call"));
    // VAPI echoes these, but a queued call may come back sparse: keep what we asked for.
    return {
      ...call,
      assistantId: call.assistantId ?? req.assistantId,
      customer: { number: call.customer.number ?? req.customerNumber },
      phoneNumberId: call.phoneNumberId ?? phoneNumberId ?? null,
      type: "outboundPhoneCall",
    };
  }

  async listCalls(opts: { assistantIds: string[]; limit: number }): Promise<PlatformCall[]> {
    if (opts.assistantIds.length === 0) return [];
    // GET /call filters by one assistant at a time; the lists are merged newest first.
    const lists = await Promise.all(
      opts.assistantIds.map(async (assistantId) => {
        const q = new URLSearchParams({ assistantId, limit: String(opts.limit) });
        const data = await this.request("GET", `/call?${q}`);
        return this.parse(z.array(vapiCallSchema), data, "call list").map(toPlatformCall);
      }),
    );
    return lists
      .flat()
      .sort((a, b) => (b.createdAt > a.createdAt ? 1 : b.createdAt < a.createdAt ? -1 : b.id.localeCompare(a.id)))
      .slice(0, opts.limit);
  }

  async getCall(callId: string): Promise<PlatformCall | null> {
    const data = await this.request("GET", `/call/${encodeURIComponent(callId)}`, undefined, { allow404: true });
    return data === null ? null : toPlatformCall(this.parse(vapiCallSchema, data, "call"));
  }

  async importTwilioNumber(input: {
    number: string;
    twilioAccountSid?: string;
    twilioAuthToken?: string;
    name?: string;
    assistantId?: string;
  }): Promise<ImportedNumber> {
    const twilioAccountSid = input.twilioAccountSid ?? this.settings.twilioAccountSid;
    const twilioAuthToken = input.twilioAuthToken ?? this.settings.twilioAuthToken;
    if (!twilioAccountSid || !twilioAuthToken) throw providerError("VAPI", "Twilio credentials are needed to import a number");
    const data = await this.request("POST", "/phone-number", {
      provider: "twilio",
      number: input.number,
      twilioAccountSid,
      twilioAuthToken,
      ...(input.name ? { name: input.name.slice(0, NAME_MAX) } : {}),
      ...(input.assistantId ? { assistantId: input.assistantId } : {}),
    });
    const n = this.parse(phoneNumberSchema, data, "phone number");
    return { id: n.id, number: n.number ?? input.number };
  }

  async setNumberAssistant(phoneNumberId: string, assistantId: string | null): Promise<void> {
    await this.request("PATCH", `/phone-number/${encodeURIComponent(phoneNumberId)}`, { assistantId });
  }

  async removeNumber(phoneNumberId: string): Promise<void> {
    // 404: already gone, which is what the caller wants.
    await this.request("DELETE", `/phone-number/${encodeURIComponent(phoneNumberId)}`, undefined, { allow404: true });
  }
}

/** VAPI errors read `{ message: string | string[], error, statusCode }`. */
function errorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    const m = Array.isArray(body.message) ? body.message.join("; ") : body.message;
    if (typeof m === "string" && m) return m;
    if (typeof body.error === "string") return body.error;
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.slice(0, 300);
}
