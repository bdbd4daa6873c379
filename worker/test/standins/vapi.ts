// VAPI stand-in for the real voice adapter's tests: assistants, calls and phone numbers with VAPI's
// paths, bearer-key check, validation errors and answer shapes, kept in memory.
// Test-only control lives under /__standin: finish a call with the fields VAPI would add.
// Tests import the constants from here too, so the module does no I/O when imported.
import type { StandinHandler, StandinRequest, StandinResponse } from "./server";

export const VAPI_STANDIN = {
  privateKey: "standin-vapi-private-key",
  orgId: "standin-org",
} as const;

type Json = Record<string, any>;

// Top-level fields VAPI accepts on an assistant (it refuses unknown properties), and on `server`.
const ASSISTANT_FIELDS = new Set([
  "name", "firstMessage", "firstMessageMode", "model", "voice", "transcriber", "serverMessages", "clientMessages",
  "server", "metadata", "voicemailMessage", "endCallMessage", "endCallPhrases", "analysisPlan", "artifactPlan",
  "maxDurationSeconds", "silenceTimeoutSeconds", "backgroundSound",
]);
const SERVER_FIELDS = new Set(["url", "headers", "credentialId", "timeoutSeconds", "backoffPlan", "staticIpAddressesEnabled"]);
const SERVER_MESSAGES = new Set(["end-of-call-report", "status-update", "transcript", "hang", "tool-calls", "speech-update", "conversation-update"]);
const CALL_FIELDS = new Set(["assistantId", "assistant", "assistantOverrides", "phoneNumberId", "customer", "metadata", "name", "squadId"]);
const PHONE_PROVIDERS = new Set(["twilio", "vonage", "vapi", "telnyx", "byo-phone-number"]);

const error = (status: number, message: string | string[]): StandinResponse => ({
  status,
  json: { message, error: status === 404 ? "Not Found" : status === 401 ? "Unauthorized" : "Bad Request", statusCode: status },
});

function validateAssistant(body: Json, partial: boolean): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(body)) if (!ASSISTANT_FIELDS.has(key)) problems.push(`property ${key} should not exist`);
  if (!partial && body.name !== undefined && typeof body.name !== "string") problems.push("name must be a string");
  if (typeof body.name === "string" && body.name.length > 40) problems.push("name must be shorter than or equal to 40 characters");
  if (body.model !== undefined) {
    if (typeof body.model?.provider !== "string" || typeof body.model?.model !== "string") problems.push("model.provider and model.model must be strings");
    if (body.model?.messages !== undefined && !Array.isArray(body.model.messages)) problems.push("model.messages must be an array");
  }
  if (body.voice !== undefined && (typeof body.voice?.provider !== "string" || typeof body.voice?.voiceId !== "string")) {
    problems.push("voice.provider and voice.voiceId must be strings");
  }
  if (body.server !== undefined) {
    for (const key of Object.keys(body.server ?? {})) if (!SERVER_FIELDS.has(key)) problems.push(`server.property ${key} should not exist`);
    if (typeof body.server?.url !== "string" || !/^https?:\/\//.test(body.server.url)) problems.push("server.url must be a URL address");
  }
  if (body.serverMessages !== undefined) {
    if (!Array.isArray(body.serverMessages) || body.serverMessages.some((m: unknown) => !SERVER_MESSAGES.has(String(m)))) {
      problems.push("each value in serverMessages must be one of the following values: " + [...SERVER_MESSAGES].join(", "));
    }
  }
  return problems;
}

export async function vapiStandin(): Promise<StandinHandler> {
  const assistants = new Map<string, Json>();
  const calls = new Map<string, Json>();
  const numbers = new Map<string, Json>();
  const now = () => new Date().toISOString();

  return (req: StandinRequest): StandinResponse => {
    if (req.headers.authorization !== `Bearer ${VAPI_STANDIN.privateKey}`) return error(401, "Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa.");
    const seg = req.path.split("/").filter(Boolean);
    let body: Json = {};
    if (req.rawBody) {
      try {
        body = req.json();
      } catch {
        return error(400, "Unexpected token in JSON");
      }
    }

    // ---- test control: finish a call as VAPI would after it ended ----
    if (seg[0] === "__standin" && seg[1] === "calls" && seg[3] === "end" && req.method === "POST") {
      const call = calls.get(seg[2]);
      if (!call) return error(404, "Couldn't Find Call");
      Object.assign(call, body, { updatedAt: now() });
      return { json: call };
    }

    // ---- assistants ----
    if (seg[0] === "assistant") {
      const id = seg[1];
      if (!id && req.method === "POST") {
        const problems = validateAssistant(body, false);
        if (problems.length) return error(400, problems);
        const a = { id: crypto.randomUUID(), orgId: VAPI_STANDIN.orgId, ...body, createdAt: now(), updatedAt: now() };
        assistants.set(a.id, a);
        return { status: 201, json: a };
      }
      if (!id && req.method === "GET") return { json: [...assistants.values()] };
      const a = id ? assistants.get(id) : undefined;
      if (!a) return error(404, "Couldn't Find Assistant");
      if (req.method === "GET") return { json: a };
      if (req.method === "PATCH") {
        const problems = validateAssistant(body, true);
        if (problems.length) return error(400, problems);
        Object.assign(a, body, { updatedAt: now() });
        return { json: a };
      }
      if (req.method === "DELETE") {
        assistants.delete(a.id);
        return { json: a };
      }
    }

    // ---- calls ----
    if (seg[0] === "call") {
      const id = seg[1];
      if (!id && req.method === "POST") {
        const problems: string[] = [];
        for (const key of Object.keys(body)) if (!CALL_FIELDS.has(key)) problems.push(`property ${key} should not exist`);
        if (!body.assistantId && !body.assistant && !body.squadId) problems.push("Need Either `assistant` Or `assistantId` Or `squadId`.");
        if (!body.phoneNumberId) problems.push("Need Either `phoneNumberId` Or `phoneNumber`.");
        if (typeof body.customer?.number !== "string" || !/^\+\d{8,15}$/.test(body.customer.number)) problems.push("customer.number must be a valid phone number in the E.164 format.");
        if (problems.length) return error(400, problems);
        if (body.assistantId && !assistants.has(body.assistantId)) return error(400, "Couldn't Get Assistant. `assistantId` Not Found.");
        const call = {
          id: crypto.randomUUID(),
          orgId: VAPI_STANDIN.orgId,
          type: "outboundPhoneCall",
          status: "queued",
          assistantId: body.assistantId,
          phoneNumberId: body.phoneNumberId,
          customer: body.customer,
          ...(body.metadata ? { metadata: body.metadata } : {}),
          phoneCallProvider: "twilio",
          phoneCallTransport: "pstn",
          createdAt: now(),
          updatedAt: now(),
        };
        calls.set(call.id, call);
        return { status: 201, json: call };
      }
      if (!id && req.method === "GET") {
        const assistantId = req.query.get("assistantId");
        const limit = Math.min(1000, Number(req.query.get("limit") ?? 100) || 100);
        const list = [...calls.values()]
          .filter((c) => !assistantId || c.assistantId === assistantId)
          .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
          .slice(0, limit);
        return { json: list };
      }
      const call = id ? calls.get(id) : undefined;
      if (!call) return error(404, "Couldn't Find Call");
      if (req.method === "GET") return { json: call };
    }

    // ---- phone numbers ----
    if (seg[0] === "phone-number") {
      const id = seg[1];
      if (!id && req.method === "POST") {
        const problems: string[] = [];
        if (!PHONE_PROVIDERS.has(body.provider)) problems.push("provider must be one of the following values: " + [...PHONE_PROVIDERS].join(", "));
        if (typeof body.number !== "string" || !/^\+\d{8,15}$/.test(body.number)) problems.push("number must be a valid phone number in the E.164 format.");
        if (body.provider === "twilio" && (!body.twilioAccountSid || !body.twilioAuthToken)) problems.push("twilioAccountSid and twilioAuthToken should not be empty");
        if (problems.length) return error(400, problems);
        if ([...numbers.values()].some((n) => n.number === body.number)) return error(400, "Number Already Exists");
        const { twilioAuthToken: _secret, ...shown } = body;
        const n = { id: crypto.randomUUID(), orgId: VAPI_STANDIN.orgId, status: "active", ...shown, createdAt: now(), updatedAt: now() };
        numbers.set(n.id, n);
        return { status: 201, json: n };
      }
      const n = id ? numbers.get(id) : undefined;
      if (!n) return error(404, "Couldn't Find Phone Number");
      if (req.method === "GET") return { json: n };
      if (req.method === "PATCH") {
        if (body.assistantId && !assistants.has(body.assistantId)) return error(400, "Couldn't Get Assistant. `assistantId` Not Found.");
        Object.assign(n, body, { updatedAt: now() });
        if (body.assistantId === null) delete n.assistantId;
        return { json: n };
      }
      if (req.method === "DELETE") {
        numbers.delete(n.id);
        return { json: n };
      }
    }

    return error(404, `Cannot ${req.method} ${req.path}`);
  };
}
