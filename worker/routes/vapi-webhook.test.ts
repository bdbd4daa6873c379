// POST /api/webhooks/vapi: authenticity on the raw body, zod-checked payloads, each event applied once.
import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { callLogs, rollupDirtyDays, webhookEvents } from "../db/schema";
import { DEV_VAPI_WEBHOOK_SECRET } from "../providers/voice/local";
import { insertAgent } from "../test/factories";
import { call, db, shardNameOf, shardOf, signUpAndSignIn, testShards } from "../test/helpers";
import { vapiCall, vapiReport as report } from "../test/payloads";
import { PRODUCTION_BINDINGS } from "../test/production";
import { callTextKey } from "../services/call-text";

async function account() {
  const session = await signUpAndSignIn();
  const assistantId = `asst-${crypto.randomUUID()}`;
  const agent = await insertAgent(session.userId, { vapiAssistantId: assistantId, name: `Desk ${assistantId.slice(-8)}` }, { store: "MIAMI" });
  return { ...session, assistantId, agent };
}

const callId = () => crypto.randomUUID();

function statusUpdate(id: string, assistantId: string, status: string, over: Record<string, unknown> = {}) {
  return { message: { type: "status-update", status, call: vapiCall(id, assistantId, { status: "queued" }), ...over } };
}

function post(body: unknown, headers: Record<string, string> = { "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET }, bindings?: Record<string, unknown>) {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  return call("/api/webhooks/vapi", { method: "POST", body: raw, headers: { "content-type": "application/json", ...headers }, bindings });
}

/** Every database holding the call's row ("DB" for the directory, else the shard's name), with the row. */
async function whereIs(id: string) {
  const databases = [{ name: "DB", db: db() }, ...testShards()];
  const found = await Promise.all(databases.map(async (d) => ({ name: d.name, row: await d.db.query.callLogs.findFirst({ where: eq(callLogs.callId, id) }) })));
  return found.filter((f) => f.row !== undefined);
}
/** The call's row, wherever it is; a call is never in two databases. */
const row = async (id: string) => {
  const found = await whereIs(id);
  expect(found.length, `${id} is in ${found.map((f) => f.name).join(", ")}`).toBeLessThanOrEqual(1);
  return found[0]?.row;
};
const textOf = async (key: string) => {
  const object = await env.CALL_TEXT.get(key);
  return object ? ((await object.json()) as unknown) : null;
};
const eventsOf = async (id: string) => {
  const prefix = `vapi:${id}:`;
  return db().select().from(webhookEvents).where(sql`substr(${webhookEvents.id}, 1, ${prefix.length}) = ${prefix}`);
};
const countRows = async () => {
  const counts = await Promise.all([db(), ...testShards().map((s) => s.db)].map(async (d) => (await d.select({ n: sql<number>`count(*)` }).from(callLogs))[0].n));
  return counts.reduce((a, b) => a + b, 0);
};

async function hmac(secret: string, payload: string, encoding: "hex" | "base64" = "hex") {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(payload)));
  return encoding === "hex" ? [...mac].map((b) => b.toString(16).padStart(2, "0")).join("") : btoa(String.fromCharCode(...mac));
}

describe("POST /api/webhooks/vapi: effects", () => {
  it("stores an end-of-call report in the owner's call log", async () => {
    const a = await account();
    const id = callId();
    const res = await post(report(id, a.assistantId));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, duplicate: false });
    expect(await row(id)).toMatchObject({
      userId: a.userId,
      agentId: a.agent.id,
      store: "MIAMI",
      assistantId: a.assistantId,
      direction: "outbound",
      phoneNumber: "+13055550100",
      status: "ended",
      endedReason: "customer-ended-call",
      startTime: "2026-03-02T15:00:00.000Z",
      endTime: "2026-03-02T15:02:05.600Z",
      duration: 126,
      summary: "The customer booked a hearing test for Friday.",
      // The transcript is R2's (decision 077): the row carries none.
      transcript: null,
      recordingUrl: "https://storage.vapi.ai/r.wav",
      cost: 0.23,
    });
    // On the account's shard, nowhere else (decision 076); the event id is the directory's.
    expect((await whereIs(id)).map((f) => f.name)).toEqual([await shardNameOf(a.userId)]);
    expect(await textOf(callTextKey(a.userId, id))).toEqual({ transcript: "AI: Hello, this is the Miami desk.\nHuman: Hi, I'd like to book a test." });
    expect((await eventsOf(id)).map((e) => [e.id, e.provider, e.eventType])).toEqual([[`vapi:${id}:end-of-call-report`, "vapi", "end-of-call-report"]]);
  });

  it("maps call types to directions", async () => {
    const a = await account();
    const inbound = callId();
    const web = callId();
    await post(statusUpdate(inbound, a.assistantId, "ringing", { call: vapiCall(inbound, a.assistantId, { type: "inboundPhoneCall" }) }));
    await post(statusUpdate(web, a.assistantId, "in-progress", { call: vapiCall(web, a.assistantId, { type: "webCall", customer: undefined }) }));
    expect(await row(inbound)).toMatchObject({ direction: "inbound", status: "ringing" });
    expect(await row(web)).toMatchObject({ direction: "web", status: "in-progress", phoneNumber: null });
  });

  it("follows status updates, and a late update never reopens an ended call", async () => {
    const a = await account();
    const id = callId();
    expect((await post(statusUpdate(id, a.assistantId, "queued"))).status).toBe(200);
    expect(await row(id)).toMatchObject({ status: "queued", startTime: "2026-03-02T14:59:58.000Z", duration: 0 });
    await post(statusUpdate(id, a.assistantId, "in-progress", { call: vapiCall(id, a.assistantId, { startedAt: "2026-03-02T15:00:00.000Z" }) }));
    expect(await row(id)).toMatchObject({ status: "in-progress", startTime: "2026-03-02T15:00:00.000Z" });
    // A 'ringing' update delivered late does not move the call back.
    expect((await post(statusUpdate(id, a.assistantId, "ringing"))).body).toEqual({ received: true, duplicate: false });
    expect(await row(id)).toMatchObject({ status: "in-progress" });
    await post(report(id, a.assistantId));
    const ended = await row(id);
    expect(ended).toMatchObject({ status: "ended", duration: 126 });
    // Out of order: an 'in-progress' update for another status id arrives after the report.
    const late = await post(statusUpdate(id, a.assistantId, "forwarding"));
    expect(late.body).toEqual({ received: true, duplicate: false });
    expect(await row(id)).toMatchObject({ status: "ended", summary: ended!.summary, transcript: ended!.transcript, duration: 126, startTime: ended!.startTime });
  });

  it("keeps a call of an unknown assistant with no owner, and adopts it once an agent has that assistant", async () => {
    const id = callId();
    const stray = `asst-${crypto.randomUUID()}`;
    expect((await post(statusUpdate(id, stray, "queued"))).status).toBe(200);
    expect(await row(id)).toMatchObject({ userId: null, agentId: null, store: null, assistantId: stray });
    // No account owns it: it waits in the directory.
    expect((await whereIs(id)).map((f) => f.name)).toEqual(["DB"]);

    const other = await signUpAndSignIn();
    const list = await call("/api/call-logs", { token: other.accessToken });
    expect(list.body.logs.map((l: { call_id: string }) => l.call_id)).not.toContain(id);

    const a = await signUpAndSignIn();
    const agent = await insertAgent(a.userId, { vapiAssistantId: stray, name: `Adopter ${id.slice(0, 6)}` }, { store: "OKC" });
    await post(report(id, stray));
    expect(await row(id)).toMatchObject({ userId: a.userId, agentId: agent.id, store: "OKC", status: "ended" });
    // Moved with the report to the owner's shard, and gone from the directory.
    expect((await whereIs(id)).map((f) => f.name)).toEqual([await shardNameOf(a.userId)]);
    expect(await textOf(callTextKey(a.userId, id))).toMatchObject({ transcript: expect.stringContaining("Miami desk") });
  });

  it("stores an orphan call's transcript under orphans/, and an adopting report moves it under the owner", async () => {
    const id = callId();
    const stray = `asst-${crypto.randomUUID()}`;
    await post(report(id, stray, { artifact: { transcript: "AI: Before anyone owned it.", messages: [] } }));
    expect(await row(id)).toMatchObject({ userId: null, transcript: null });
    expect(await textOf(callTextKey(null, id))).toEqual({ transcript: "AI: Before anyone owned it." });

    const a = await signUpAndSignIn();
    await insertAgent(a.userId, { vapiAssistantId: stray, name: `Adopter ${id.slice(0, 6)}` }, { store: "OKC" });
    // A later event without a transcript adopts the row: the orphan object moves under the owner.
    await post(statusUpdate(id, stray, "ended", { call: vapiCall(id, stray, { status: "ended" }) }));
    expect(await row(id)).toMatchObject({ userId: a.userId });
    expect(await textOf(callTextKey(a.userId, id))).toEqual({ transcript: "AI: Before anyone owned it." });
    expect(await env.CALL_TEXT.head(callTextKey(null, id))).toBeNull();
    const detail = await call(`/api/vapi/call/${id}`, { token: a.accessToken });
    expect(detail.body.transcript).toBe("AI: Before anyone owned it.");
  });

  it("acknowledges message types it does not handle and writes nothing", async () => {
    const a = await account();
    const id = callId();
    const res = await post({ message: { type: "transcript", role: "user", transcript: "hello", call: vapiCall(id, a.assistantId) } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, ignored: true });
    expect(await row(id)).toBeUndefined();
    expect(await eventsOf(id)).toEqual([]);
  });
});

describe("POST /api/webhooks/vapi: idempotency", () => {
  it("applies a duplicate report once: row count, values and updated_at unchanged", async () => {
    const a = await account();
    const id = callId();
    const body = report(id, a.assistantId);
    expect((await post(body)).body).toEqual({ received: true, duplicate: false });
    const before = await row(id);
    const rowsBefore = await countRows();
    const eventsBefore = await eventsOf(id);

    const again = await post(body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, duplicate: true });
    // A retry that carries different content under the same event id changes nothing either.
    const altered = await post(report(id, a.assistantId, { analysis: { summary: "Something else" }, cost: 9 }));
    expect(altered.body).toEqual({ received: true, duplicate: true });

    expect(await countRows()).toBe(rowsBefore);
    expect(await row(id)).toEqual(before);
    expect(await eventsOf(id)).toEqual(eventsBefore);
  });

  it("a report whose shard write failed is not recorded, so its retry applies it; one whose record failed is applied again, once", async () => {
    const a = await account();
    const home = await shardNameOf(a.userId);
    const id = callId();
    const body = report(id, a.assistantId);
    // The account's shard refuses every write batch (an outage at that moment); the directory is fine.
    const real = (env as unknown as Record<string, D1Database>)[home];
    const failing = (d1: D1Database | D1DatabaseSession) =>
      new Proxy(d1, { get: (t, k) => (k === "batch" ? () => Promise.reject(new Error("D1_ERROR: shard unavailable")) : Reflect.get(t, k, t)) });
    const down = { [home]: new Proxy(real, { get: (t, k) => (k === "withSession" ? (c?: string) => failing(t.withSession(c)) : k === "batch" ? failing(t).batch : Reflect.get(t, k, t)) }) };
    expect((await post(body, undefined, down)).status).toBe(500);
    expect(await row(id)).toBeUndefined();
    // The event's record was taken back: the platform's retry is not taken for a duplicate.
    expect(await eventsOf(id)).toEqual([]);
    expect((await post(body)).body).toEqual({ received: true, duplicate: false });
    expect(await row(id)).toMatchObject({ userId: a.userId, status: "ended" });
    expect((await whereIs(id)).map((f) => f.name)).toEqual([home]);

    // The directory refuses the record after the shard wrote: the retry writes the same row again.
    const second = callId();
    const directoryDown = { DB: new Proxy(env.DB, { get: (t, k) => (k === "withSession" ? (c?: string) => failingRecord(t.withSession(c)) : Reflect.get(t, k, t)) }) };
    const failingRecord = (session: D1DatabaseSession) => {
      let batches = 0;
      // The first batch (the owner's read) passes; the second (the record) fails.
      return new Proxy(session, { get: (t, k) => (k === "batch" ? (q: D1PreparedStatement[]) => (++batches === 1 ? t.batch(q) : Promise.reject(new Error("D1_ERROR: directory unavailable"))) : Reflect.get(t, k, t)) });
    };
    expect((await post(report(second, a.assistantId), undefined, directoryDown)).status).toBe(500);
    const written = await row(second);
    expect(written).toMatchObject({ userId: a.userId, status: "ended" });
    expect(await eventsOf(second)).toEqual([]);
    expect((await post(report(second, a.assistantId))).body).toEqual({ received: true, duplicate: false });
    const again = await row(second);
    expect({ ...again, updatedAt: null }).toEqual({ ...written, updatedAt: null });
    expect((await whereIs(second)).map((f) => f.name)).toEqual([home]);
  });

  it("applies duplicate status updates once", async () => {
    const a = await account();
    const id = callId();
    await post(statusUpdate(id, a.assistantId, "ringing"));
    const before = await row(id);
    expect((await post(statusUpdate(id, a.assistantId, "ringing"))).body).toEqual({ received: true, duplicate: true });
    expect(await row(id)).toEqual(before);
    expect(await eventsOf(id)).toHaveLength(1);
  });
});

describe("POST /api/webhooks/vapi: authenticity", () => {
  it("refuses a forged or missing secret with 401 JSON and writes nothing", async () => {
    const a = await account();
    const id = callId();
    const rowsBefore = await countRows();
    const forged = await post(report(id, a.assistantId), { "x-vapi-secret": "guessed-secret" });
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ code: "unauthorized", error: "Invalid webhook signature" });
    const missing = await post(report(id, a.assistantId), {});
    expect(missing.status).toBe(401);
    expect(await row(id)).toBeUndefined();
    expect(await eventsOf(id)).toEqual([]);
    expect(await countRows()).toBe(rowsBefore);
  });

  it("checks authenticity before parsing: a forged request with a broken body is 401, not 400", async () => {
    const res = await post("{not json", { "x-vapi-secret": "nope" });
    expect(res.status).toBe(401);
  });

  it("accepts an HMAC-SHA256 signature of the raw body (hex, base64, 'sha256=' prefix)", async () => {
    const a = await account();
    for (const make of [
      async (raw: string) => ({ "x-vapi-signature": await hmac(DEV_VAPI_WEBHOOK_SECRET, raw) }),
      async (raw: string) => ({ "x-signature": `sha256=${await hmac(DEV_VAPI_WEBHOOK_SECRET, raw)}` }),
      async (raw: string) => ({ "x-vapi-signature": await hmac(DEV_VAPI_WEBHOOK_SECRET, raw, "base64") }),
    ]) {
      const id = callId();
      const raw = JSON.stringify(report(id, a.assistantId));
      const res = await post(raw, await make(raw));
      expect(res.status).toBe(200);
      expect((await row(id))?.status).toBe("ended");
    }
  });

  it("accepts a timestamped signature only while it is recent", async () => {
    const a = await account();
    const fresh = callId();
    const raw = JSON.stringify(report(fresh, a.assistantId));
    const ts = String(Math.floor(Date.now() / 1000));
    const ok = await post(raw, { "x-vapi-signature": await hmac(DEV_VAPI_WEBHOOK_SECRET, `${ts}.${raw}`), "x-vapi-timestamp": ts });
    expect(ok.status).toBe(200);

    const stale = callId();
    const staleRaw = JSON.stringify(report(stale, a.assistantId));
    const old = String(Math.floor(Date.now() / 1000) - 3600);
    const res = await post(staleRaw, { "x-vapi-signature": await hmac(DEV_VAPI_WEBHOOK_SECRET, `${old}.${staleRaw}`), "x-vapi-timestamp": old });
    expect(res.status).toBe(401);
    expect(await row(stale)).toBeUndefined();
  });

  it("refuses a signature of another body, or made with another secret", async () => {
    const a = await account();
    const id = callId();
    const raw = JSON.stringify(report(id, a.assistantId));
    const tampered = raw.replace("0.23", "0.01");
    expect((await post(tampered, { "x-vapi-signature": await hmac(DEV_VAPI_WEBHOOK_SECRET, raw) })).status).toBe(401);
    expect((await post(raw, { "x-vapi-signature": await hmac("another-secret", raw) })).status).toBe(401);
    expect(await row(id)).toBeUndefined();
  });

  it("uses VAPI_WEBHOOK_SECRET when set, and then refuses the development secret", async () => {
    const a = await account();
    const bindings = { VAPI_WEBHOOK_SECRET: "configured-webhook-secret" };
    const id = callId();
    expect((await post(report(id, a.assistantId), { "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET }, bindings)).status).toBe(401);
    expect((await post(report(id, a.assistantId), { authorization: "Bearer configured-webhook-secret" }, bindings)).status).toBe(200);
    expect((await row(id))?.status).toBe("ended");
  });

  it("never accepts the development secret in production", async () => {
    const a = await account();
    const bindings = PRODUCTION_BINDINGS;
    const id = callId();
    expect((await post(report(id, a.assistantId), { "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET }, bindings)).status).toBe(401);
    expect(await row(id)).toBeUndefined();
  });
});

describe("POST /api/webhooks/vapi: bad input", () => {
  it("answers malformed JSON with 400 naming body", async () => {
    const res = await post("{not json");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_error", field: "body" });
  });

  it("names the missing field of the envelope and of the call", async () => {
    const noType = await post({ message: {} });
    expect(noType.status).toBe(400);
    expect(noType.body.field).toBe("message.type");

    const noMessage = await post({ hello: "world" });
    expect(noMessage.status).toBe(400);
    expect(noMessage.body.field).toBe("message");

    const a = await account();
    const noCallId = await post(report("x", a.assistantId, { call: { ...vapiCall("x", a.assistantId), id: undefined } }));
    expect(noCallId.status).toBe(400);
    expect(noCallId.body.field).toBe("message.call.id");

    const badStatus = await post({ message: { type: "status-update", call: vapiCall(callId(), a.assistantId) } });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.field).toBe("message.status");
  });
});

describe("POST /api/webhooks/vapi: the transcript in R2 before the row (decision 077)", () => {
  /** The bucket, except that every put fails (as an R2 outage would). */
  const failingPuts = {
    get: (key: string) => env.CALL_TEXT.get(key),
    head: (key: string) => env.CALL_TEXT.head(key),
    list: (o: R2ListOptions) => env.CALL_TEXT.list(o),
    delete: (keys: string | string[]) => env.CALL_TEXT.delete(keys),
    put: () => Promise.reject(new Error("R2 is unavailable")),
  };

  it("an R2 put that fails leaves no row and no recorded event, and answers 500, which the platform delivers again", async () => {
    const a = await account();
    const id = callId();
    const res = await post(report(id, a.assistantId), { "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET }, { CALL_TEXT: failingPuts });
    expect(res.status).toBe(500);
    expect(await row(id)).toBeUndefined();
    expect(await eventsOf(id)).toEqual([]);
    expect(await textOf(callTextKey(a.userId, id))).toBeNull();

    // The platform's retry of the same event is applied in full.
    expect((await post(report(id, a.assistantId))).body).toEqual({ received: true, duplicate: false });
    expect(await row(id)).toMatchObject({ userId: a.userId, status: "ended", transcript: null });
    expect(await textOf(callTextKey(a.userId, id))).toMatchObject({ transcript: expect.stringContaining("Miami desk") });
  });

  it("an adopting event whose move of the orphan object fails is still applied, and the call reads its orphan object", async () => {
    const id = callId();
    const stray = `asst-${crypto.randomUUID()}`;
    await post(report(id, stray, { artifact: { transcript: "AI: Still an orphan's object.", messages: [] } }));
    const a = await signUpAndSignIn();
    await insertAgent(a.userId, { vapiAssistantId: stray, name: `Adopter ${id.slice(0, 6)}` }, { store: "OKC" });
    const res = await post(statusUpdate(id, stray, "ended", { call: vapiCall(id, stray, { status: "ended" }) }), { "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET }, { CALL_TEXT: failingPuts });
    expect(res.status).toBe(200);
    expect(await row(id)).toMatchObject({ userId: a.userId });
    expect(await textOf(callTextKey(a.userId, id))).toBeNull();
    expect((await call(`/api/vapi/call/${id}`, { token: a.accessToken })).body.transcript).toBe("AI: Still an orphan's object.");
  });

  it("an event without a transcript writes no object, and a status update never blanks the stored one", async () => {
    const a = await account();
    const id = callId();
    expect((await post(statusUpdate(id, a.assistantId, "ringing"), { "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET }, { CALL_TEXT: failingPuts })).status).toBe(200);
    expect(await textOf(callTextKey(a.userId, id))).toBeNull();
    // Turns, as the platform may send them beside the artifact.
    const sent = await post(report(id, a.assistantId, { artifact: { messages: [] }, transcript: [{ role: "assistant", content: "Hello" }, { role: "user", text: "Hi" }] }));
    expect(sent.status).toBe(200);
    await post(statusUpdate(id, a.assistantId, "ended", { timestamp: 1772463800000 }));
    expect(await textOf(callTextKey(a.userId, id))).toEqual({ transcript: [{ role: "assistant", content: "Hello" }, { role: "user", text: "Hi" }] });
  });

  it("a report for a row written before the move empties its transcript column: the newer text is R2's", async () => {
    const a = await account();
    const id = callId();
    await post(statusUpdate(id, a.assistantId, "in-progress"));
    await (await shardOf(a.userId)).update(callLogs).set({ transcript: "AI: The old text." }).where(eq(callLogs.callId, id));
    await post(report(id, a.assistantId));
    expect(await row(id)).toMatchObject({ transcript: null });
    const detail = await call(`/api/vapi/call/${id}`, { token: a.accessToken });
    expect(detail.body.transcript).toBe("AI: Hello, this is the Miami desk.\nHuman: Hi, I'd like to book a test.");
  });
});

describe("POST /api/webhooks/vapi: roll-ups", () => {
  it("marks the call's New York day for the next roll-up run, so a late report is counted", async () => {
    const a = await account();
    // 02:30 UTC on 2026-01-15 is still 2026-01-14 in New York (EST).
    const late = report(callId(), a.assistantId, { startedAt: "2026-01-15T02:30:00.000Z", endedAt: "2026-01-15T02:31:00.000Z" });
    expect((await post(late)).status).toBe(200);
    const marks = await (await shardOf(a.userId))
      .select({ source: rollupDirtyDays.source, day: rollupDirtyDays.day })
      .from(rollupDirtyDays)
      .where(sql`${rollupDirtyDays.day} in ('2026-01-14', '2026-01-15')`);
    expect(marks).toEqual([{ source: "call_logs", day: "2026-01-14" }]);
  });
});
