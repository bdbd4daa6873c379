// Settings → Webhooks through the routes: Pro and admins only (402 with the plan refusal's shape for
// the others), the secret answered once in Standard Webhooks' form, at most 10 endpoints, URLs refused
// with the field and the reason, another account's endpoint as if it did not exist, rotation, the
// test event, the delivery log and resend, deletion with the log.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_RESEND_RATE, WEBHOOK_TEST_RATE } from "@shared/webhooks";
import { adminAuditLog, webhookDeliveries, webhookEndpoints } from "../db/schema";
import { call, db, shardNameOf, shardOf, signUpAndSignIn, subscribe } from "../test/helpers";
import { PRODUCTION_BINDINGS } from "../test/production";

const sent: unknown[] = [];
/** A queue that only records, so no attempt runs behind the test's back. */
const bindings = {
  WEBHOOK_QUEUE: {
    send: (body: unknown) => Promise.resolve(void sent.push(body)),
    sendBatch: (messages: { body: unknown }[]) => Promise.resolve(void sent.push(...[...messages].map((m) => m.body))),
  },
};

const create = (token: string, json: unknown) => call("/api/webhook-endpoints", { method: "POST", token, json, bindings });
const valid = { url: "https://hooks.example.com/voice", description: "CRM", events: ["call.started", "call.ended"] };

describe("who may use webhooks", () => {
  it("Pro accounts and admins; Basic, Pro-trial and plan-less accounts get the plan refusal", async () => {
    const pro = await signUpAndSignIn();
    expect((await call("/api/webhook-endpoints", { token: pro.accessToken })).body).toMatchObject({ allowed: true });
    const admin = await signUpAndSignIn({ plan: null, appMetadata: { is_admin: true } });
    expect((await create(admin.accessToken, valid)).status).toBe(201);
    const trial = await signUpAndSignIn({ plan: null });
    await subscribe(trial.userId, "pro", "trialing");
    for (const s of [await signUpAndSignIn({ plan: "basic" }), await signUpAndSignIn({ plan: null }), trial]) {
      // The screen's read says so; every operation is refused.
      expect((await call("/api/webhook-endpoints", { token: s.accessToken })).body).toEqual({ allowed: false, endpoints: [], limit: MAX_WEBHOOK_ENDPOINTS });
      // A refused URL too: the plan's refusal comes first.
      for (const res of [await create(s.accessToken, valid), await create(s.accessToken, { ...valid, url: "http://10.0.0.1/in" })]) {
        expect(res.status).toBe(402);
        expect(res.body).toMatchObject({ code: "subscription_required", upgradeUrl: "/buy", error: expect.stringContaining("Pro plan") });
      }
      // The add's insert went beside the plan check on the shard: refused, it is gone again and unrecorded (decision 078).
      expect(await (await shardOf(s.userId)).select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, s.userId))).toEqual([]);
      expect(await db().select().from(adminAuditLog).where(eq(adminAuditLog.actorId, s.userId))).toEqual([]);
    }
    expect((await call("/api/webhook-endpoints")).status).toBe(401);
  });
});

describe("endpoints", () => {
  it("the secret is whsec_ and 32 random bytes in base64, answered on creation only", async () => {
    const s = await signUpAndSignIn();
    const res = await create(s.accessToken, valid);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const secret = res.body.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(atob(secret.slice(6))).toHaveLength(32);
    expect(res.body.endpoint).toMatchObject({ url: valid.url, description: "CRM", events: ["call.started", "call.ended"], enabled: true, secretPrefix: `${secret.slice(0, 10)}…` });
    const list = await call("/api/webhook-endpoints", { token: s.accessToken });
    expect(list.body).toMatchObject({ allowed: true, endpoints: [{ id: res.body.endpoint.id }], limit: MAX_WEBHOOK_ENDPOINTS });
    expect(JSON.stringify(list.body)).not.toContain(secret);
    const one = await call(`/api/webhook-endpoints/${res.body.endpoint.id}`, { token: s.accessToken });
    expect(JSON.stringify(one.body)).not.toContain(secret);
  });

  it("at most 10 per account", async () => {
    const s = await signUpAndSignIn();
    const made = await Promise.all(Array.from({ length: MAX_WEBHOOK_ENDPOINTS + 2 }, (_, i) => create(s.accessToken, { ...valid, url: `https://h${i}.example.com/in` })));
    expect(made.filter((r) => r.status === 201)).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
    expect(made.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(["conflict", "conflict"]);
    expect(((await call("/api/webhook-endpoints", { token: s.accessToken })).body.endpoints as unknown[]).length).toBe(MAX_WEBHOOK_ENDPOINTS);
  });

  it("a refused URL answers 400 naming the field url and the reason, on create and on update", async () => {
    const s = await signUpAndSignIn();
    const bad = await create(s.accessToken, { ...valid, url: "https://0x7f.0.0.1/hook" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: "url", error: "The URL points to a loopback address" });
    const made = await create(s.accessToken, valid);
    const update = await call(`/api/webhook-endpoints/${made.body.endpoint.id}`, { method: "PATCH", token: s.accessToken, json: { url: "https://169.254.169.254/" } });
    expect(update.status).toBe(400);
    expect(update.body).toMatchObject({ field: "url", error: "The URL points to a link-local or cloud metadata address" });
    const noEvents = await create(s.accessToken, { ...valid, events: [] });
    expect(noEvents.status).toBe(400);
    expect(noEvents.body.field).toBe("events");
    const unknownEvent = await create(s.accessToken, { ...valid, events: ["call.exploded"] });
    expect(unknownEvent.status).toBe(400);
  });

  it("another account's endpoint is not found, for every operation", async () => {
    const owner = await signUpAndSignIn();
    const other = await signUpAndSignIn();
    const id = (await create(owner.accessToken, valid)).body.endpoint.id as string;
    const attempts = [
      call(`/api/webhook-endpoints/${id}`, { token: other.accessToken }),
      call(`/api/webhook-endpoints/${id}`, { method: "PATCH", token: other.accessToken, json: { description: "mine" } }),
      call(`/api/webhook-endpoints/${id}`, { method: "DELETE", token: other.accessToken }),
      call(`/api/webhook-endpoints/${id}/rotate-secret`, { method: "POST", token: other.accessToken, bindings }),
      call(`/api/webhook-endpoints/${id}/test`, { method: "POST", token: other.accessToken, bindings }),
      call(`/api/webhook-endpoints/${id}/deliveries`, { token: other.accessToken }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(404);
    expect((await call(`/api/webhook-endpoints/${id}`, { token: owner.accessToken })).body.endpoint.description).toBe("CRM");
  });

  it("rotation answers a new secret once and keeps the old one signing for 24 hours", async () => {
    const s = await signUpAndSignIn();
    const made = await create(s.accessToken, valid);
    const before = Date.now();
    const rotated = await call(`/api/webhook-endpoints/${made.body.endpoint.id}/rotate-secret`, { method: "POST", token: s.accessToken });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(made.body.secret);
    const until = Date.parse(rotated.body.endpoint.previousSecretExpiresAt as string) - before;
    expect(until).toBeGreaterThanOrEqual(24 * 3_600_000 - 1000);
    expect(until).toBeLessThanOrEqual(24 * 3_600_000 + 60_000);
  });

  it("a third rotation within 24 hours answers 409 saying when it becomes possible; the two before it went through", async () => {
    const s = await signUpAndSignIn();
    const id = (await create(s.accessToken, valid)).body.endpoint.id as string;
    const rotate = () => call(`/api/webhook-endpoints/${id}/rotate-secret`, { method: "POST", token: s.accessToken });
    const first = await rotate();
    expect(first.status).toBe(200);
    expect((await rotate()).status).toBe(200);
    const third = await rotate();
    expect(third.status).toBe(409);
    // The secret rotated out first stops signing 24 hours after the first rotation.
    expect(third.body).toMatchObject({ code: "conflict", error: expect.stringContaining(`The oldest stops signing at ${first.body.endpoint.previousSecretExpiresAt as string}`) });
  });

  it("a test event and a resend are queued with the same webhook-id, and show in the delivery log", async () => {
    const s = await signUpAndSignIn();
    const id = (await create(s.accessToken, { ...valid, events: ["call.ended"] })).body.endpoint.id as string;
    sent.length = 0;
    const test = await call(`/api/webhook-endpoints/${id}/test`, { method: "POST", token: s.accessToken, bindings });
    expect(test.status).toBe(202);
    const deliveryId = test.body.deliveryId as string;
    // The message names the account's shard, where the delivery's rows are (decision 078).
    const shard = await shardNameOf(s.userId);
    expect(sent).toEqual([{ deliveryId, attempt: 1, shard }]);
    const log = await call(`/api/webhook-endpoints/${id}/deliveries`, { token: s.accessToken });
    expect(log.body).toMatchObject({ deliveries: [{ id: deliveryId, eventType: "test", status: "pending", attempts: 0, attemptLog: [] }], nextCursor: null });
    // Still queued: a resend would only race its own first attempt.
    const early = await call(`/api/webhook-endpoints/${id}/deliveries/${deliveryId}/resend`, { method: "POST", token: s.accessToken, bindings });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: "conflict", error: "This delivery is already queued; its next attempt has not finished yet." });
    await (await shardOf(s.userId)).update(webhookDeliveries).set({ status: "failed", attempts: 8 }).where(eq(webhookDeliveries.id, deliveryId));
    const resend = await call(`/api/webhook-endpoints/${id}/deliveries/${deliveryId}/resend`, { method: "POST", token: s.accessToken, bindings });
    expect(resend.status).toBe(202);
    expect(resend.body).toEqual({ deliveryId, attempt: 9 });
    expect(sent).toEqual([
      { deliveryId, attempt: 1, shard },
      { deliveryId, attempt: 9, shard },
    ]);
    expect((await call(`/api/webhook-endpoints/${id}/deliveries/msg_unknown/resend`, { method: "POST", token: s.accessToken, bindings })).status).toBe(404);
  });

  it("20 parallel resends of a failed delivery: one is queued, the others answer 409", async () => {
    const s = await signUpAndSignIn();
    const id = (await create(s.accessToken, valid)).body.endpoint.id as string;
    const deliveryId = (await call(`/api/webhook-endpoints/${id}/test`, { method: "POST", token: s.accessToken, bindings })).body.deliveryId as string;
    await (await shardOf(s.userId)).update(webhookDeliveries).set({ status: "failed", attempts: 8 }).where(eq(webhookDeliveries.id, deliveryId));
    sent.length = 0;
    const resends = await Promise.all(
      Array.from({ length: 20 }, () => call(`/api/webhook-endpoints/${id}/deliveries/${deliveryId}/resend`, { method: "POST", token: s.accessToken, bindings })),
    );
    expect(resends.filter((r) => r.status === 202)).toHaveLength(1);
    expect(resends.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(Array<string>(19).fill("conflict"));
    expect(sent).toEqual([{ deliveryId, attempt: 9, shard: await shardNameOf(s.userId) }]);
  });

  it("test events are limited per account: 60 at once are mostly refused with 429 and Retry-After", async () => {
    const s = await signUpAndSignIn();
    const id = (await create(s.accessToken, valid)).body.endpoint.id as string;
    const tests = await Promise.all(Array.from({ length: 60 }, () => call(`/api/webhook-endpoints/${id}/test`, { method: "POST", token: s.accessToken, bindings })));
    const accepted = tests.filter((r) => r.status === 202);
    const refused = tests.filter((r) => r.status === 429);
    // One minute's window (two, if the burst straddles a minute's end).
    expect(accepted.length).toBeGreaterThanOrEqual(WEBHOOK_TEST_RATE.limit);
    expect(accepted.length).toBeLessThanOrEqual(2 * WEBHOOK_TEST_RATE.limit);
    expect(refused).toHaveLength(60 - accepted.length);
    for (const r of refused) {
      expect(r.body).toMatchObject({ code: "rate_limited", error: expect.stringContaining(`At most ${WEBHOOK_TEST_RATE.limit} test events a minute`) });
      const wait = Number(r.headers.get("retry-after"));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
    }
    const rows = await (await shardOf(s.userId)).select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id));
    expect(rows).toHaveLength(accepted.length);
    // Another account has its own count.
    const other = await signUpAndSignIn();
    const otherId = (await create(other.accessToken, valid)).body.endpoint.id as string;
    expect((await call(`/api/webhook-endpoints/${otherId}/test`, { method: "POST", token: other.accessToken, bindings })).status).toBe(202);
  });

  it("resends are limited per account, 429 with Retry-After past the limit", async () => {
    const s = await signUpAndSignIn();
    const id = (await create(s.accessToken, valid)).body.endpoint.id as string;
    const over = WEBHOOK_RESEND_RATE.limit * 2 + 5;
    const answers = await Promise.all(Array.from({ length: over }, () => call(`/api/webhook-endpoints/${id}/deliveries/msg_unknown/resend`, { method: "POST", token: s.accessToken, bindings })));
    const refused = answers.filter((r) => r.status === 429);
    expect(answers.filter((r) => r.status === 404).length).toBeLessThanOrEqual(2 * WEBHOOK_RESEND_RATE.limit);
    expect(refused.length).toBeGreaterThanOrEqual(5);
    expect(refused[0].body).toMatchObject({ code: "rate_limited", error: expect.stringContaining(`At most ${WEBHOOK_RESEND_RATE.limit} resends a minute`) });
    expect(Number(refused[0].headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("the delivery log pages newest first with a cursor", async () => {
    const s = await signUpAndSignIn();
    const id = (await create(s.accessToken, valid)).body.endpoint.id as string;
    for (let i = 0; i < 3; i++) await call(`/api/webhook-endpoints/${id}/test`, { method: "POST", token: s.accessToken, bindings });
    const first = await call(`/api/webhook-endpoints/${id}/deliveries?limit=2`, { token: s.accessToken });
    expect(first.body.deliveries).toHaveLength(2);
    const second = await call(`/api/webhook-endpoints/${id}/deliveries?limit=2&cursor=${encodeURIComponent(first.body.nextCursor as string)}`, { token: s.accessToken });
    expect(second.body.deliveries).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    const ids = [...(first.body.deliveries as { id: string }[]), ...(second.body.deliveries as { id: string }[])].map((d) => d.id);
    expect(new Set(ids).size).toBe(3);
    expect((await call(`/api/webhook-endpoints/${id}/deliveries?cursor=nonsense`, { token: s.accessToken })).body).toMatchObject({ field: "cursor" });
  });

  it("an update changes events and description; deleting removes the endpoint and its log", async () => {
    const s = await signUpAndSignIn();
    const id = (await create(s.accessToken, valid)).body.endpoint.id as string;
    const updated = await call(`/api/webhook-endpoints/${id}`, { method: "PATCH", token: s.accessToken, json: { events: ["daily_report.ready"], description: "Reports" } });
    expect(updated.body.endpoint).toMatchObject({ events: ["daily_report.ready"], description: "Reports" });
    expect((await call(`/api/webhook-endpoints/${id}`, { method: "PATCH", token: s.accessToken, json: { colour: "red" } })).status).toBe(400);
    await call(`/api/webhook-endpoints/${id}/test`, { method: "POST", token: s.accessToken, bindings });
    const deleted = await call(`/api/webhook-endpoints/${id}`, { method: "DELETE", token: s.accessToken });
    expect(deleted.body).toEqual({ deleted: true, id });
    expect(await (await shardOf(s.userId)).select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id))).toEqual([]);
    expect((await call(`/api/webhook-endpoints/${id}`, { token: s.accessToken })).status).toBe(404);
  });
});

describe("the audit log", () => {
  it("records every change of an endpoint with its actor and address, and nothing for a refused or empty one", async () => {
    const s = await signUpAndSignIn();
    const audit = async () =>
      (await db().select().from(adminAuditLog).where(eq(adminAuditLog.actorId, s.userId)).orderBy(adminAuditLog.id)).map((r) => ({ action: r.action, detail: r.detail, ip: r.ip, actorEmail: r.actorEmail }));
    const made = await call("/api/webhook-endpoints", { method: "POST", token: s.accessToken, json: valid, bindings, ip: "203.0.113.9" });
    const id = made.body.endpoint.id as string;
    const patch = (json: unknown) => call(`/api/webhook-endpoints/${id}`, { method: "PATCH", token: s.accessToken, json, ip: "203.0.113.9" });
    expect((await patch({ url: "https://other.example.com/voice", events: ["call.ended"] })).status).toBe(200);
    expect((await patch({ enabled: false })).status).toBe(200);
    expect((await patch({ enabled: true, description: "CRM" })).status).toBe(200);
    // Refused or changing nothing: not recorded.
    expect((await patch({ description: "CRM" })).status).toBe(200);
    expect((await patch({ url: "https://127.0.0.1/x" })).status).toBe(400);
    const other = await signUpAndSignIn();
    expect((await call(`/api/webhook-endpoints/${id}`, { method: "DELETE", token: other.accessToken })).status).toBe(404);
    const rotated = await call(`/api/webhook-endpoints/${id}/rotate-secret`, { method: "POST", token: s.accessToken, ip: "203.0.113.9" });
    expect((await call(`/api/webhook-endpoints/${id}`, { method: "DELETE", token: s.accessToken, ip: "203.0.113.9" })).status).toBe(200);

    const rows = await audit();
    expect(rows.map((r) => r.action)).toEqual(["create_webhook_endpoint", "update_webhook_endpoint", "update_webhook_endpoint", "update_webhook_endpoint", "rotate_webhook_secret", "delete_webhook_endpoint"]);
    for (const r of rows) expect(r).toMatchObject({ ip: "203.0.113.9", actorEmail: s.email.toLowerCase(), detail: { endpoint_id: id } });
    expect(rows[0].detail).toMatchObject({ url: valid.url, events: valid.events, secret_prefix: `${(made.body.secret as string).slice(0, 10)}…` });
    expect(rows[1].detail).toEqual({
      endpoint_id: id,
      url: "https://other.example.com/voice",
      changes: { url: { before: valid.url, after: "https://other.example.com/voice" }, events: { before: valid.events, after: ["call.ended"] } },
    });
    expect(rows[2].detail.changes).toEqual({ enabled: { before: true, after: false } });
    expect(rows[3].detail.changes).toEqual({ enabled: { before: false, after: true } });
    expect(rows[4].detail).toMatchObject({ secret_prefix: `${(rotated.body.secret as string).slice(0, 10)}…`, previous_secret_prefix: `${(made.body.secret as string).slice(0, 10)}…` });
    expect(rows[5].detail).toMatchObject({ url: "https://other.example.com/voice", events: ["call.ended"] });
    // No secret is ever written to the log.
    expect(JSON.stringify(rows)).not.toContain(made.body.secret);
    expect(JSON.stringify(rows)).not.toContain(rotated.body.secret);
    expect(await db().select().from(adminAuditLog).where(eq(adminAuditLog.actorId, other.userId))).toEqual([]);
  });

  it("an add refused by the limit of 10 is not recorded", async () => {
    const s = await signUpAndSignIn();
    const made = await Promise.all(Array.from({ length: MAX_WEBHOOK_ENDPOINTS + 2 }, (_, i) => create(s.accessToken, { ...valid, url: `https://a${i}.example.com/in` })));
    expect(made.filter((r) => r.status === 409)).toHaveLength(2);
    const rows = await db().select().from(adminAuditLog).where(eq(adminAuditLog.actorId, s.userId));
    expect(rows.map((r) => r.detail.endpoint_id).sort()).toEqual(made.filter((r) => r.status === 201).map((r) => r.body.endpoint.id as string).sort());
  });
});

describe("the local receiver", () => {
  it("keeps what it receives with whether it verifies; off in production", async () => {
    const posted = await call("/api/local/webhook-inbox/route-test", {
      method: "POST",
      headers: { "content-type": "application/json", "webhook-id": "msg_x", "webhook-timestamp": "1", "webhook-signature": "v1,AAAA" },
      body: JSON.stringify({ type: "test", data: {} }),
    });
    expect(posted.body).toEqual({ received: true, verified: false });
    const page = await call("/api/local/webhook-inbox?inbox=route-test");
    expect(page.body).toMatchObject({ inbox: "route-test", path: "/api/local/webhook-inbox/route-test", deliveries: [{ webhookId: "msg_x", eventType: "test", verified: false, verifyError: "no endpoint points at this inbox" }] });
    // Faults asked for in the URL: a receiver that fails, or is down until a time.
    const failing = await call("/api/local/webhook-inbox/route-test?fail=100", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(failing.status).toBe(500);
    const down = await call(`/api/local/webhook-inbox/route-test?down_until=${Date.now() + 60_000}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(down.status).toBe(503);
    const up = await call(`/api/local/webhook-inbox/route-test?down_until=${Date.now() - 1}&fail=0`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(up.status).toBe(200);
    const answered = ((await call("/api/local/webhook-inbox?inbox=route-test")).body.deliveries as { answered: number }[]).map((d) => d.answered);
    expect(answered.slice(0, 3)).toEqual([200, 503, 500]);
    expect((await call("/api/local/webhook-inbox/route-test?fail=300", { method: "POST", json: {} })).body).toMatchObject({ field: "fail" });
    expect((await call("/api/local/webhook-inbox?inbox=route-test", { bindings: PRODUCTION_BINDINGS })).status).toBe(404);
    expect((await call("/api/local/webhook-inbox/route-test", { method: "POST", json: {}, bindings: PRODUCTION_BINDINGS })).status).toBe(404);
  });
});
