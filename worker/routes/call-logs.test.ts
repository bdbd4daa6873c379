// Call-log routes: the unified log with keyset pages, and the voice platform's calls, all scoped to
// the signed-in account.
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { eq } from "drizzle-orm";
import { agents, callLogs, simCalls } from "../db/schema";
import { callTextKey } from "../services/call-text";
import { DEV_VAPI_WEBHOOK_SECRET, LocalVoice } from "../providers/voice/local";
import type { PlatformCall } from "../providers/voice/port";
import { VapiVoice } from "../providers/voice/vapi";
import { callLogPageQuery, decodeCursor } from "../services/call-logs";
import { insertAgent, insertCallLogs } from "../test/factories";
import { call, db, shardOf, signUpAndSignIn } from "../test/helpers";
import { VAPI_STANDIN } from "../test/standins/vapi";

async function account(opts: { assistantId?: string } = {}) {
  const session = await signUpAndSignIn();
  const assistantId = opts.assistantId ?? `asst-${crypto.randomUUID()}`;
  const agent = await insertAgent(session.userId, { vapiAssistantId: assistantId, name: `Desk ${assistantId.slice(-8)}` }, { store: "NAPLES", type: "outbound" });
  return { ...session, assistantId, agent };
}

const vapiBindings = () => ({ VAPI_PRIVATE_KEY: VAPI_STANDIN.privateKey, VAPI_BASE_URL: inject("standins").vapi });
const standinVoice = () => new VapiVoice({ apiKey: VAPI_STANDIN.privateKey, baseUrl: inject("standins").vapi });
const spec = { name: "Naples Desk", prompt: "Answer calls for Naples.", voiceId: "marissa-11labs" };

function webhook(message: Record<string, unknown>) {
  return call("/api/webhooks/vapi", {
    method: "POST",
    body: JSON.stringify({ message }),
    headers: { "content-type": "application/json", "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET },
  });
}

function endOfCall(id: string, assistantId: string, extra: Record<string, unknown>) {
  return webhook({
    type: "end-of-call-report",
    endedReason: "customer-ended-call",
    startedAt: "2026-03-03T16:00:00.000Z",
    endedAt: "2026-03-03T16:01:00.000Z",
    analysis: { summary: "Asked about opening hours." },
    call: { id, type: "inboundPhoneCall", status: "in-progress", assistantId, customer: { number: "+12395550111" }, createdAt: "2026-03-03T15:59:59.000Z" },
    ...extra,
  });
}

/** A call as the simulator keeps it (its own record, as VAPI keeps its calls), ended an hour ago. */
async function simulatedCall(owner: { userId: string; assistantId: string }, id: string) {
  const placed: PlatformCall = {
    id,
    assistantId: owner.assistantId,
    type: "inboundPhoneCall",
    status: "ended",
    endedReason: "customer-ended-call",
    customer: { number: "+12395550111" },
    phoneNumberId: null,
    startedAt: "2026-03-03T16:00:00.000Z",
    endedAt: "2026-03-03T16:01:00.000Z",
    createdAt: "2026-03-03T15:59:59.000Z",
    summary: "Asked about opening hours.",
    transcript: null,
    recordingUrl: null,
    cost: null,
    duration: 60,
  };
  await db().insert(simCalls).values({ id, ownerId: owner.userId, assistantId: owner.assistantId, call: placed, createdAt: placed.createdAt });
}

const LOG_KEYS = ["agent_id", "call_id", "direction", "duration", "ended_reason", "id", "phone_number", "recording_url", "start_time", "status", "summary", "user_id"];

describe("GET /api/call-logs", () => {
  it("lists only the signed-in account's calls, newest first, with the unified fields", async () => {
    const a = await account();
    const b = await account();
    const agentRef = { id: a.agent.id, vapiAssistantId: a.assistantId, store: a.agent.store, type: "outbound" };
    const mine = await insertCallLogs(a.userId, 6, {}, { agent: agentRef });
    await insertCallLogs(b.userId, 4, {}, { agent: { id: b.agent.id, vapiAssistantId: b.assistantId, store: null, type: "inbound" } });

    const res = await call("/api/call-logs", { token: a.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.logs).toHaveLength(6);
    expect(Object.keys(res.body.logs[0]).sort()).toEqual(LOG_KEYS);
    const expected = [...mine].sort((x, y) => (y.startTime > x.startTime ? 1 : y.startTime < x.startTime ? -1 : y.id - x.id));
    expect(res.body.logs.map((l: { call_id: string }) => l.call_id)).toEqual(expected.map((r) => r.callId));
    const first = expected[0];
    expect(res.body.logs[0]).toEqual({
      id: first.id,
      user_id: a.userId,
      call_id: first.callId,
      phone_number: first.phoneNumber,
      start_time: first.startTime,
      duration: first.duration,
      status: first.status,
      summary: first.summary,
      ended_reason: first.endedReason,
      direction: first.direction,
      agent_id: a.agent.id,
      recording_url: first.recordingUrl,
    });
  });

  it("pages with an opaque cursor that never repeats or skips a row, ties on start_time included", async () => {
    const a = await account();
    const tie = "2026-02-10T15:00:00.000Z";
    const rows = [...(await insertCallLogs(a.userId, 17)), ...(await insertCallLogs(a.userId, 6, { startTime: tie }))];
    const expected = [...rows]
      .sort((x, y) => (y.startTime > x.startTime ? 1 : y.startTime < x.startTime ? -1 : y.id - x.id))
      .map((r) => r.id);

    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor ? `?limit=5&cursor=${encodeURIComponent(cursor)}` : "?limit=5";
      const res = await call(`/api/call-logs${q}`, { token: a.accessToken });
      expect(res.status).toBe(200);
      expect(res.body.logs.length).toBeLessThanOrEqual(5);
      seen.push(...res.body.logs.map((l: { id: number }) => l.id));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor && pages < 20);
    expect(pages).toBe(5);
    expect(seen).toEqual(expected);
  });

  it("reads the page through call_logs_user_time_idx, without sorting in a temporary tree", async () => {
    for (const after of [null, decodeCursor(btoa(JSON.stringify(["2026-02-10T15:00:00.000Z", 5])))]) {
      const { sql: text, params } = callLogPageQuery(db(), "some-user", 50, after).toSQL();
      const plan = await env.DB.prepare(`explain query plan ${text}`).bind(...params).all<{ detail: string }>();
      const details = plan.results.map((r) => r.detail).join("\n");
      expect(details).toContain("call_logs_user_time_idx");
      expect(details).not.toMatch(/TEMP B-TREE/);
      expect(details).not.toMatch(/SCAN call_logs(?! USING)/);
    }
  });

  it("refuses bad paging input with 400 naming the field", async () => {
    const a = await account();
    const zero = await call("/api/call-logs?limit=0", { token: a.accessToken });
    expect(zero.status).toBe(400);
    expect(zero.body.field).toBe("limit");
    const big = await call("/api/call-logs?limit=5000", { token: a.accessToken });
    expect(big.body.field).toBe("limit");
    const forged = await call("/api/call-logs?cursor=not-a-cursor", { token: a.accessToken });
    expect(forged.status).toBe(400);
    expect(forged.body.field).toBe("cursor");
  });

  describe("filters", () => {
    const T = (m: number) => new Date(Date.UTC(2026, 10, 20, 14, m)).toISOString();
    /** Account a: per agent, an error, a forwarded and a connected call at 14:05, and one of each before and after the window. */
    async function seeded() {
      const a = await account();
      const other = await insertAgent(a.userId, { vapiAssistantId: `asst-${crypto.randomUUID()}` });
      const rows = [];
      for (const [agentId, assistantId] of [
        [a.agent.id, a.assistantId],
        [other.id, other.vapiAssistantId!],
      ] as const) {
        for (const [m, endedReason] of [
          [5, "pipeline-error-openai-llm-failed"],
          [6, "assistant-forwarded-call"],
          [7, "customer-ended-call"],
          [0, "call.start.error-get-transport"],
          [15, "twilio-failed-to-connect-call"],
        ] as const) {
          rows.push(...(await insertCallLogs(a.userId, 1, { startTime: T(m), endedReason, assistantId, agentId })));
        }
      }
      return { a, other, rows };
    }
    const ids = (res: { body: unknown }) => (res.body as { logs: { call_id: string }[] }).logs.map((l) => l.call_id).sort();
    const expectIds = (rows: { callId: string }[]) => rows.map((r) => r.callId).sort();

    it("each filter narrows the list: [from, to), the assistant, the error and forwarded outcomes", async () => {
      const { a, other, rows } = await seeded();
      const get = (q: string) => call(`/api/call-logs?${q}`, { token: a.accessToken });
      const all = await get("");
      expect(ids(all)).toEqual(expectIds(rows));

      const window = await get(`from=${T(1)}&to=${T(15)}`);
      expect(ids(window)).toEqual(expectIds(rows.filter((r) => r.startTime >= T(1) && r.startTime < T(15))));
      expect(window.body.logs).toHaveLength(6);

      const agent = await get(`agent=${a.assistantId}`);
      expect(ids(agent)).toEqual(expectIds(rows.filter((r) => r.assistantId === a.assistantId)));
      expect(agent.body.logs).toHaveLength(5);

      const errors = await get("outcome=error");
      expect(ids(errors)).toEqual(expectIds(rows.filter((r) => /error|failed/.test(r.endedReason!))));
      expect(errors.body.logs).toHaveLength(6);

      const forwarded = await get("outcome=forwarded");
      expect(forwarded.body.logs.map((l: { ended_reason: string }) => l.ended_reason)).toEqual(["assistant-forwarded-call", "assistant-forwarded-call"]);

      // An alert's link: one agent's error calls in a 15-minute window (an offset instant is read as the same UTC instant).
      const alert = await get(`from=${encodeURIComponent("2026-11-20T09:00:00-05:00")}&to=${T(15)}&agent=${other.vapiAssistantId}&outcome=error`);
      expect(alert.body.logs.map((l: { start_time: string }) => l.start_time)).toEqual([T(5), T(0)]);
      expect(ids(alert)).toEqual(expectIds(rows.filter((r) => r.assistantId === other.vapiAssistantId && r.startTime < T(15) && /error/.test(r.endedReason!))));
    });

    it("gives nothing for another account's assistant, and pages filtered without leaving the filter or the account", async () => {
      const { a, rows } = await seeded();
      const b = await account();
      await insertCallLogs(b.userId, 3, { startTime: T(5), endedReason: "pipeline-error-x", assistantId: b.assistantId });
      const foreign = await call(`/api/call-logs?agent=${b.assistantId}`, { token: a.accessToken });
      expect(foreign.status).toBe(200);
      expect(foreign.body.logs).toEqual([]);

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const q: string = `?limit=2&outcome=error${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
        const res = await call(`/api/call-logs${q}`, { token: a.accessToken });
        expect(res.status).toBe(200);
        seen.push(...res.body.logs.map((l: { call_id: string }) => l.call_id));
        cursor = res.body.nextCursor;
        pages++;
      } while (cursor && pages < 10);
      expect(pages).toBe(3);
      expect(seen.sort()).toEqual(expectIds(rows.filter((r) => /error|failed/.test(r.endedReason!))));
      // A cursor placed past b's calls still reads a's calls only.
      const forged = btoa(JSON.stringify(["2027-01-01T00:00:00.000Z", 1e9])).replace(/=+$/, "");
      const past = await call(`/api/call-logs?outcome=error&cursor=${forged}`, { token: a.accessToken });
      expect(past.status).toBe(200);
      expect(past.body.logs.every((l: { user_id: string }) => l.user_id === a.userId)).toBe(true);
      expect(past.body.logs).toHaveLength(6);
    });

    it("refuses bad filters with 400 naming the field", async () => {
      const a = await account();
      for (const [q, field] of [
        ["from=yesterday", "from"],
        ["to=2026-11-20", "to"],
        [`from=${T(15)}&to=${T(0)}`, "to"],
        [`from=${T(0)}&to=${T(0)}`, "to"],
        ["outcome=voicemail", "outcome"],
        ["agent=", "agent"],
        [`agent=${"x".repeat(201)}`, "agent"],
      ] as const) {
        const res = await call(`/api/call-logs?${q}`, { token: a.accessToken });
        expect(res.status, q).toBe(400);
        expect(res.body.field, q).toBe(field);
      }
    });

    it("reads a filtered page through an index, never a scan of the table", async () => {
      const filters = [
        { from: T(0), to: T(15) },
        { agent: "asst-1" },
        { outcome: "error" as const },
        { outcome: "forwarded" as const, from: T(0) },
        { from: T(0), to: T(15), agent: "asst-1", outcome: "error" as const },
      ];
      for (const f of filters) {
        for (const after of [null, { t: T(10), id: 5 }]) {
          const { sql: text, params } = callLogPageQuery(db(), "some-user", 50, after, f).toSQL();
          const plan = await env.DB.prepare(`explain query plan ${text}`).bind(...params).all<{ detail: string }>();
          const details = plan.results.map((r) => r.detail).join("\n");
          expect(details, JSON.stringify(f)).toMatch(/USING (COVERING )?INDEX call_logs_(user_time|assistant_time)_idx/);
          expect(details, JSON.stringify(f)).not.toMatch(/SCAN call_logs(?! USING)/);
        }
      }
    });
  });

  it("is for signed-in users only", async () => {
    const res = await call("/api/call-logs");
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("unauthorized");
  });
});

describe("GET /api/vapi/call-logs", () => {
  it("lists the account's calls from the simulator in the platform's field names", async () => {
    const a = await account();
    const b = await account();
    const mine = crypto.randomUUID();
    await simulatedCall(a, mine);
    await simulatedCall(b, crypto.randomUUID());
    const res = await call("/api/vapi/call-logs", { token: a.accessToken });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, max-age=30");
    expect(res.body.calls).toEqual([
      {
        id: mine,
        assistantId: a.assistantId,
        type: "inboundPhoneCall",
        status: "ended",
        endedReason: "customer-ended-call",
        customer: { number: "+12395550111" },
        phoneNumberId: null,
        startedAt: "2026-03-03T16:00:00.000Z",
        endedAt: "2026-03-03T16:01:00.000Z",
        createdAt: expect.any(String),
        summary: "Asked about opening hours.",
        duration: 60,
        recordingUrl: null,
        cost: null,
      },
    ]);
  });

  it("lists the account's calls from VAPI when VAPI is configured", async () => {
    const voice = standinVoice();
    const assistant = await voice.createAssistant("x", spec);
    const other = await voice.createAssistant("y", spec);
    const a = await account({ assistantId: assistant.id });
    await account({ assistantId: other.id });
    const placed = await voice.startOutboundCall("x", { assistantId: assistant.id, customerNumber: "+12395550112", phoneNumberId: "pn-1" });
    await voice.startOutboundCall("y", { assistantId: other.id, customerNumber: "+12395550113", phoneNumberId: "pn-1" });
    const res = await call("/api/vapi/call-logs", { token: a.accessToken, bindings: vapiBindings() });
    expect(res.status).toBe(200);
    expect(res.body.calls.map((c: { id: string }) => c.id)).toEqual([placed.id]);
    expect(res.body.calls[0]).toMatchObject({ status: "queued", type: "outboundPhoneCall", customer: { number: "+12395550112" } });
  });

  it("lists the calls of an account with more active agents than one D1 statement can bind", async () => {
    const a = await account();
    // 120 more active agents: their assistant ids alone exceed D1's 100 bound parameters.
    const more = Array.from({ length: 120 }, (_, i) => ({
      userId: a.userId,
      name: `Busy desk ${i}`,
      vapiAssistantId: `asst-busy-${i}-${crypto.randomUUID()}`,
    }));
    for (let i = 0; i < more.length; i += 10) await db().insert(agents).values(more.slice(i, i + 10));
    const last = crypto.randomUUID();
    await simulatedCall({ userId: a.userId, assistantId: more[119].vapiAssistantId }, last);
    const res = await call("/api/vapi/call-logs", { token: a.accessToken });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.calls.map((c: { id: string }) => c.id)).toEqual([last]);
  });

  it("answers an empty list for an account without active agents", async () => {
    const s = await signUpAndSignIn();
    const res = await call("/api/vapi/call-logs", { token: s.accessToken });
    expect(res.body).toEqual({ calls: [] });
  });

  it("refuses a bad limit and signed-out callers", async () => {
    const a = await account();
    const bad = await call("/api/vapi/call-logs?limit=0", { token: a.accessToken });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("limit");
    expect((await call("/api/vapi/call-logs")).status).toBe(401);
  });
});

describe("GET /api/vapi/call/:call_id", () => {
  it("returns the call with its transcript text as stored", async () => {
    const a = await account();
    const id = crypto.randomUUID();
    const text = "AI: Good morning, Naples office.\nHuman: Are you open Saturday?\nAI: Yes, from nine to one.";
    await endOfCall(id, a.assistantId, { artifact: { transcript: text, recordingUrl: "https://storage.vapi.ai/n.wav" } });
    const res = await call(`/api/vapi/call/${id}`, { token: a.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, transcript: text, summary: "Asked about opening hours.", recordingUrl: "https://storage.vapi.ai/n.wav", duration: 60 });
  });

  it("round-trips a transcript given as an array of turns", async () => {
    const a = await account();
    const id = crypto.randomUUID();
    const turns = [
      { role: "assistant", content: "Good morning, Naples office." },
      { role: "user", text: "Are you open Saturday?" },
    ];
    await endOfCall(id, a.assistantId, { transcript: turns });
    const res = await call(`/api/vapi/call/${id}`, { token: a.accessToken });
    expect(res.body.transcript).toEqual(turns);
  });

  it("reads the transcript from R2 (the row holds none), and a row written before the move from its column (decision 077)", async () => {
    const a = await account();
    const id = crypto.randomUUID();
    await endOfCall(id, a.assistantId, { artifact: { transcript: "AI: Stored in R2." } });
    const [row] = await (await shardOf(a.userId)).select().from(callLogs).where(eq(callLogs.callId, id));
    expect(row.transcript).toBeNull();
    expect(await (await env.CALL_TEXT.get(callTextKey(a.userId, id)))?.json()).toEqual({ transcript: "AI: Stored in R2." });
    expect((await call(`/api/vapi/call/${id}`, { token: a.accessToken })).body.transcript).toBe("AI: Stored in R2.");

    // A row written before: its column, with no object in R2.
    const [legacy] = await insertCallLogs(a.userId, 1, { transcript: "AI: Stored in D1 before." });
    expect(await env.CALL_TEXT.head(callTextKey(a.userId, legacy.callId))).toBeNull();
    expect((await call(`/api/vapi/call/${legacy.callId}`, { token: a.accessToken })).body.transcript).toBe("AI: Stored in D1 before.");
  });

  it("lists read no object: the log answers with an R2 that fails every call", async () => {
    const a = await account();
    await endOfCall(crypto.randomUUID(), a.assistantId, { artifact: { transcript: "AI: Hello." } });
    const broken = () => Promise.reject(new Error("R2 is unavailable"));
    const bindings = { CALL_TEXT: { get: broken, head: broken, put: broken, list: broken, delete: broken } };
    const res = await call("/api/call-logs", { token: a.accessToken, bindings });
    expect(res.status).toBe(200);
    expect(res.body.logs).toHaveLength(1);
  });

  it("refuses ids starting with 'call_' (the client never asks for them) with 400 naming call_id", async () => {
    const a = await account();
    const res = await call("/api/vapi/call/call_123", { token: a.accessToken });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("call_id");
  });

  it("hides another account's call and unknown calls behind 404", async () => {
    const a = await account();
    const b = await account();
    const id = crypto.randomUUID();
    await endOfCall(id, b.assistantId, {});
    const res = await call(`/api/vapi/call/${id}`, { token: a.accessToken });
    expect(res.status).toBe(404);
    expect((await call(`/api/vapi/call/${crypto.randomUUID()}`, { token: a.accessToken })).status).toBe(404);
    expect((await call(`/api/vapi/call/${id}`)).status).toBe(401);
  });

  it("reads a call straight from VAPI when it belongs to one of the account's assistants", async () => {
    const voice = standinVoice();
    const assistant = await voice.createAssistant("x", spec);
    const other = await voice.createAssistant("y", spec);
    const a = await account({ assistantId: assistant.id });
    const placed = await voice.startOutboundCall("x", { assistantId: assistant.id, customerNumber: "+12395550114", phoneNumberId: "pn-1" });
    const foreign = await voice.startOutboundCall("y", { assistantId: other.id, customerNumber: "+12395550115", phoneNumberId: "pn-1" });
    const mine = await call(`/api/vapi/call/${placed.id}`, { token: a.accessToken, bindings: vapiBindings() });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ id: placed.id, status: "queued", transcript: null });
    const theirs = await call(`/api/vapi/call/${foreign.id}`, { token: a.accessToken, bindings: vapiBindings() });
    expect(theirs.status).toBe(404);
  });
});

describe("a test call in local mode, end to end", () => {
  it("is listed at once as queued, then ends with a summary and transcript delivered by the simulator", async () => {
    const s = await signUpAndSignIn();
    const assistant = await new LocalVoice(db(), { origin: "http://localhost", webhookSecret: null }).createAssistant(s.userId, spec);
    await insertAgent(s.userId, { vapiAssistantId: assistant.id, name: "End-to-end desk" });
    const bindings = { VAPI_SIM_DELAY_MS: "20" };
    const started = await call("/api/trigger-call", { method: "POST", json: { phoneNumber: "+12395550120" }, token: s.accessToken, bindings });
    expect(started.status).toBe(200);
    const callId = started.body.callId as string;

    const first = await call("/api/call-logs", { token: s.accessToken });
    expect(first.body.logs[0]).toMatchObject({ call_id: callId, status: "queued", phone_number: "+12395550120" });

    // The simulator's reports travel through the app's own webhook route; wait for the last one.
    let log: Record<string, unknown> | undefined;
    for (let i = 0; i < 200 && log?.status !== "ended"; i++) {
      await new Promise((r) => setTimeout(r, 25));
      log = (await call("/api/call-logs", { token: s.accessToken })).body.logs[0];
    }
    expect(log).toMatchObject({ call_id: callId, status: "ended", summary: expect.stringContaining(spec.name) });
    const detail = await call(`/api/vapi/call/${callId}`, { token: s.accessToken });
    expect(detail.body.transcript).toMatch(/^AI: /);
  });
});

describe("GET /api/health", () => {
  it("reports the voice simulator by default and VAPI when its key is set", async () => {
    expect((await call("/api/health")).body.providers.voice).toBe("local");
    expect((await call("/api/health", { bindings: vapiBindings() })).body.providers.voice).toBe("real");
  });
});
