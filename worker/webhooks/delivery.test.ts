// Delivery of custom webhooks, attempt by attempt, on a fake clock, a fake network and a recording
// queue: what a receiver gets verifies with the `standardwebhooks` package, as a receiver would check
// it (both secrets during a rotation); the retry schedule; one webhook-id across every attempt and a
// resend; the delivery log; redirects, timeouts and long answers; the URL checked again at delivery;
// disabling after 5 days of failures, with the owner's mail; the queue handler itself.
import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { WEBHOOK_RETRY_DELAYS_SECONDS } from "@shared/webhooks";
import worker from "../index";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../db/schema";
import type { Bindings } from "../env";
import type { MailPort, OutgoingMail } from "../providers";
import { call, db, shardNameOf, shardOf, signUpAndSignIn, testShards } from "../test/helpers";
import { createDb } from "../db/client";
import { shardDatabase } from "../db/shards";
import { attemptDelivery, type DeliveryDeps } from "./deliver";
import { createEndpoint, listDeliveries, resendDelivery, rotateSecret, sendTestEvent, updateEndpoint } from "./endpoints";
import { enqueueWebhookEvent, type WebhookEnv, type WebhookMessage } from "./enqueue";
import { inboxEntries } from "./inbox";
import { announceDailyReport, pruneWebhookLog, requeueLostDeliveries } from "./upkeep";

type Sent = { body: WebhookMessage; delaySeconds: number };
type Received = { url: string; headers: Record<string, string>; body: string; redirect: string };

let clock: Date;
let sent: Sent[];
let received: Received[];
let answer: (r: Received) => Response | Promise<Response>;
let mails: OutgoingMail[];

/** A queue that records what is sent, with its delay. */
const queue = {
  send: (body: WebhookMessage, opts?: QueueSendOptions) => {
    sent.push({ body, delaySeconds: opts?.delaySeconds ?? 0 });
    return Promise.resolve();
  },
  sendBatch: (messages: Iterable<MessageSendRequest<WebhookMessage>>) => {
    for (const m of messages) sent.push({ body: m.body, delaySeconds: m.delaySeconds ?? 0 });
    return Promise.resolve();
  },
} as unknown as Queue;

const fakeFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const request = new Request(input, init);
  const r: Received = { url: request.url, headers: Object.fromEntries(request.headers), body: await request.text(), redirect: request.redirect };
  received.push(r);
  return answer(r);
}) as typeof fetch;

const mail: MailPort = {
  kind: "local",
  send: (m) => {
    mails.push(m);
    return Promise.resolve();
  },
};

/** A test shard by its binding's name, as the consumer opens the one a message names. */
const shardByName = (name: string) => createDb(shardDatabase(env as unknown as Record<string, unknown>, name));
const deps = (over: Partial<DeliveryDeps> = {}): DeliveryDeps => ({ db: db(), shard: shardByName, queue, production: false, now: () => clock, fetch: fakeFetch, mail, ...over });
/** The services' dependencies for the account (its shard, decision 078); the audit log's actor is a stand-in (the routes' tests check the real one). */
const endpointDeps = async (userId: string) => ({
  db: db(),
  shard: { name: await shardNameOf(userId), db: await shardOf(userId) },
  queue,
  production: false,
  now: clock,
  actor: { id: "delivery-test", email: "delivery-test@example.com", ip: null },
});
/** The Worker's bindings with the recording queue. */
const bindings = () => ({ ...(env as unknown as WebhookEnv), WEBHOOK_QUEUE: queue });
/** The upkeep's requeue on every shard, as the job runs it. */
const requeueAll = (at: Date) => Promise.all(testShards().map((shard) => requeueLostDeliveries(shard, queue, at)));

/** Runs the queued messages in order, advancing the clock by each one's delay; returns the delays. */
async function drain(over: Partial<DeliveryDeps> = {}) {
  const delays: number[] = [];
  while (sent.length > 0) {
    const next = sent.shift()!;
    delays.push(next.delaySeconds);
    clock = new Date(clock.getTime() + next.delaySeconds * 1000);
    await attemptDelivery(deps(over), next.body);
  }
  return delays;
}

async function proAccountWithEndpoint(events: ("call.ended" | "call.started")[] = ["call.ended"], url = "https://hooks.example.com/in") {
  const s = await signUpAndSignIn();
  const { endpoint, secret } = await createEndpoint(await endpointDeps(s.userId), s.userId, { url, description: "CRM", events });
  return { ...s, endpoint, secret };
}

beforeEach(() => {
  clock = new Date("2026-11-02T12:00:00.000Z");
  sent = [];
  received = [];
  mails = [];
  answer = () => new Response("ok", { status: 200 });
});

describe("what a receiver gets", () => {
  it("verifies with the standardwebhooks package: id, timestamp, signature over the raw body", async () => {
    const { userId, secret } = await proAccountWithEndpoint();
    await enqueueWebhookEvent(bindings(), userId, "call.ended", { call_id: "c-1", summary: "Booked a visit" }, clock);
    expect(sent).toHaveLength(1);
    vi.useFakeTimers({ now: clock, toFake: ["Date"] });
    try {
      await drain();
      expect(received).toHaveLength(1);
      const [r] = received;
      expect(r.redirect).toBe("manual");
      expect(r.headers["webhook-timestamp"]).toBe(String(clock.getTime() / 1000));
      const payload = new Webhook(secret).verify(r.body, r.headers) as { type: string; data: Record<string, unknown> };
      expect(payload).toMatchObject({ type: "call.ended", data: { call_id: "c-1", summary: "Booked a visit" } });
      // Another secret, or a body changed by one byte, does not verify.
      expect(() => new Webhook(`whsec_${btoa("another secret of 32 bytes......")}`).verify(r.body, r.headers)).toThrow();
      expect(() => new Webhook(secret).verify(r.body.replace("Booked", "booked"), r.headers)).toThrow();
    } finally {
      vi.useRealTimers();
    }
  });

  it("during a rotation both secrets verify for 24 hours, then only the new one", async () => {
    const { userId, endpoint, secret: old } = await proAccountWithEndpoint(["call.ended"]);
    const { secret: fresh } = await rotateSecret(await endpointDeps(userId), userId, endpoint.id);
    const deliverAt = async (at: Date) => {
      clock = at;
      received = [];
      await enqueueWebhookEvent(bindings(), userId, "call.ended", { call_id: "c-2" }, clock);
      await drain();
      return received[0];
    };
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const during = await deliverAt(new Date(clock.getTime() + 23 * 3_600_000));
      vi.setSystemTime(clock);
      expect(during.headers["webhook-signature"].split(" ")).toHaveLength(2);
      expect(() => new Webhook(fresh).verify(during.body, during.headers)).not.toThrow();
      expect(() => new Webhook(old).verify(during.body, during.headers)).not.toThrow();
      const after = await deliverAt(new Date(clock.getTime() + 2 * 3_600_000));
      vi.setSystemTime(clock);
      expect(after.headers["webhook-signature"].split(" ")).toHaveLength(1);
      expect(() => new Webhook(fresh).verify(after.body, after.headers)).not.toThrow();
      expect(() => new Webhook(old).verify(after.body, after.headers)).toThrow();
    } finally {
      vi.useRealTimers();
    }
  });

  it("rotations within 24 hours: every secret that signed keeps signing until its own expiry, three at most; a fourth is refused until the oldest expires", async () => {
    const { userId, endpoint, secret: s0 } = await proAccountWithEndpoint(["call.ended"]);
    const start = clock.getTime();
    const hours = (h: number) => new Date(start + h * 3_600_000);
    const rotateAt = async (at: Date) => {
      clock = at;
      return (await rotateSecret(await endpointDeps(userId), userId, endpoint.id)).secret;
    };
    const deliverAt = async (at: Date) => {
      clock = at;
      received = [];
      vi.setSystemTime(clock);
      await enqueueWebhookEvent(bindings(), userId, "call.ended", { call_id: crypto.randomUUID() }, clock);
      await drain();
      return received[0];
    };
    const verifies = (secret: string, r: Received) => {
      try {
        new Webhook(secret).verify(r.body, r.headers);
        return true;
      } catch {
        return false;
      }
    };
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const s1 = await rotateAt(hours(0));
      const s2 = await rotateAt(hours(2));
      // Three sign: the current secret and both rotated out within the last 24 hours.
      let r = await deliverAt(hours(3));
      expect(r.headers["webhook-signature"].split(" ")).toHaveLength(3);
      expect([s0, s1, s2].map((s) => verifies(s, r))).toEqual([true, true, true]);
      // A fourth is refused, saying when the oldest (s0, rotated out at 0 h) stops signing.
      clock = hours(4);
      await expect(rotateSecret(await endpointDeps(userId), userId, endpoint.id)).rejects.toMatchObject({
        status: 409,
        code: "conflict",
        message: expect.stringContaining(`The oldest stops signing at ${hours(24).toISOString()}; you can rotate again from then.`),
      });
      r = await deliverAt(hours(5));
      expect([s0, s1, s2].map((s) => verifies(s, r))).toEqual([true, true, true]);
      // Once s0 has expired the rotation goes through; s1 and s2 keep their own expiries.
      const s3 = await rotateAt(hours(24.5));
      r = await deliverAt(hours(25));
      expect(r.headers["webhook-signature"].split(" ")).toHaveLength(3);
      expect([s0, s1, s2, s3].map((s) => verifies(s, r))).toEqual([false, true, true, true]);
      r = await deliverAt(hours(26.5));
      expect([s1, s2, s3].map((s) => verifies(s, r))).toEqual([false, true, true]);
      r = await deliverAt(hours(48.6));
      expect(r.headers["webhook-signature"].split(" ")).toHaveLength(1);
      expect([s2, s3].map((s) => verifies(s, r))).toEqual([false, true]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("goes only to the account's enabled endpoints subscribed to the type, and to none without the Pro plan", async () => {
    const { userId, endpoint } = await proAccountWithEndpoint(["call.started"]);
    const other = await createEndpoint(await endpointDeps(userId), userId, { url: "https://b.example.com/in", description: "", events: ["call.ended"] });
    await enqueueWebhookEvent(bindings(), userId, "call.started", { call_id: "c-3" });
    const rows = await (await shardOf(userId)).select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, userId));
    expect(rows.map((r) => r.endpointId)).toEqual([endpoint.id]);
    // The message names the account's shard, where the consumer claims and records the attempt.
    expect(sent).toEqual([{ body: { deliveryId: rows[0].id, attempt: 1, shard: await shardNameOf(userId) }, delaySeconds: 0 }]);
    sent = [];
    await updateEndpoint(await endpointDeps(userId), userId, other.endpoint.id, { enabled: false });
    await enqueueWebhookEvent(bindings(), userId, "call.ended", { call_id: "c-3" });
    expect(sent).toEqual([]);

    const basic = await signUpAndSignIn({ plan: "basic" });
    await (await shardOf(basic.userId)).insert(webhookEndpoints).values({ id: `we_basic_${basic.userId}`, userId: basic.userId, url: "https://c.example.com/in", events: '["call.ended"]', secret: "whsec_AAAA" });
    await enqueueWebhookEvent(bindings(), basic.userId, "call.ended", { call_id: "c-4" });
    expect(sent).toEqual([]);
  });
});

describe("retries", () => {
  it("follow the schedule on a fake clock, with one webhook-id, then the delivery is failed", async () => {
    const { userId, endpoint } = await proAccountWithEndpoint();
    answer = () => new Response("try later", { status: 503 });
    await enqueueWebhookEvent(bindings(), userId, "call.ended", { call_id: "c-5" }, clock);
    const started = clock.getTime();
    const delays = await drain();
    expect(delays).toEqual([...WEBHOOK_RETRY_DELAYS_SECONDS]);
    expect(received).toHaveLength(8);
    expect(new Set(received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    // Each attempt is signed at its own time: the schedule's sum after the first.
    const stamps = received.map((r) => Number(r.headers["webhook-timestamp"]) - started / 1000);
    const schedule: number[] = [...WEBHOOK_RETRY_DELAYS_SECONDS];
    expect(stamps).toEqual(schedule.map((_, i) => schedule.slice(0, i + 1).reduce((a, b) => a + b, 0)));
    const log = await listDeliveries(await endpointDeps(userId), userId, endpoint.id, { limit: 10 });
    expect(log.deliveries).toHaveLength(1);
    const [delivery] = log.deliveries;
    expect(delivery).toMatchObject({ id: received[0].headers["webhook-id"], status: "failed", attempts: 8, nextAttemptAt: null, eventType: "call.ended" });
    expect(delivery.attemptLog.map((a) => a.attempt)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(delivery.attemptLog[0]).toMatchObject({ responseStatus: 503, responseBody: "try later", error: null });
  });

  it("a success ends them; a redelivered message of an attempt already made is skipped", async () => {
    const { userId } = await proAccountWithEndpoint();
    let calls = 0;
    answer = () => new Response(null, { status: ++calls < 3 ? 500 : 204 });
    await enqueueWebhookEvent(bindings(), userId, "call.ended", { call_id: "c-6" }, clock);
    const first = sent[0].body;
    expect(await drain()).toEqual([0, 5, 300]);
    expect(await attemptDelivery(deps(), first)).toEqual({ status: "skipped" });
    const [row] = await (await shardOf(userId)).select().from(webhookDeliveries).where(eq(webhookDeliveries.id, first.deliveryId));
    expect(row).toMatchObject({ status: "succeeded", attempts: 3 });
  });

  it("a resend is one more attempt with the same webhook-id, on any delivery", async () => {
    const { userId, endpoint } = await proAccountWithEndpoint();
    await sendTestEvent(await endpointDeps(userId), userId, endpoint.id);
    await drain();
    const [delivery] = (await listDeliveries(await endpointDeps(userId), userId, endpoint.id, { limit: 5 })).deliveries;
    expect(delivery).toMatchObject({ eventType: "test", status: "succeeded", attempts: 1 });
    expect(await resendDelivery(await endpointDeps(userId), userId, endpoint.id, delivery.id)).toEqual({ deliveryId: delivery.id, attempt: 2 });
    await drain();
    expect(received.map((r) => r.headers["webhook-id"])).toEqual([delivery.id, delivery.id]);
    const [after] = (await listDeliveries(await endpointDeps(userId), userId, endpoint.id, { limit: 5 })).deliveries;
    expect(after).toMatchObject({ status: "succeeded", attempts: 2 });
  });
});

describe("one attempt at a time, whatever the concurrency", () => {
  /** Runs every queued message at once, as a queue consumer with many isolates would. */
  async function runAllAtOnce() {
    const messages = sent.splice(0);
    return Promise.all(messages.map((m) => attemptDelivery(deps(), m.body)));
  }

  it("20 parallel resends of a decided delivery make exactly one new attempt; the others answer 409", async () => {
    const { userId, endpoint } = await proAccountWithEndpoint();
    await sendTestEvent(await endpointDeps(userId), userId, endpoint.id);
    await drain();
    const [delivery] = (await listDeliveries(await endpointDeps(userId), userId, endpoint.id, { limit: 1 })).deliveries;
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1 });
    received = [];
    const d = await endpointDeps(userId);
    const resends = await Promise.allSettled(Array.from({ length: 20 }, () => resendDelivery(d, userId, endpoint.id, delivery.id)));
    expect(resends.filter((r) => r.status === "fulfilled").map((r) => r.value)).toEqual([{ deliveryId: delivery.id, attempt: 2 }]);
    const refused = resends.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as { status: number; code: string; message: string });
    expect(refused).toHaveLength(19);
    for (const e of refused) expect(e).toMatchObject({ status: 409, code: "conflict", message: "This delivery is already queued; its next attempt has not finished yet." });
    const outcomes = await runAllAtOnce();
    expect(outcomes.filter((o) => o.status !== "skipped")).toHaveLength(1);
    expect(received).toHaveLength(1);
    // A failure of the resent attempt queues one next retry, not one per resend.
    answer = () => new Response(null, { status: 500 });
    await resendDelivery(await endpointDeps(userId), userId, endpoint.id, delivery.id);
    await Promise.all([runAllAtOnce(), resendDelivery(await endpointDeps(userId), userId, endpoint.id, delivery.id).catch(() => null)]);
    // Attempt 3 failed: attempt 4 follows after the schedule's fourth delay.
    expect(sent).toEqual([{ body: { deliveryId: delivery.id, attempt: 4, shard: await shardNameOf(userId) }, delaySeconds: WEBHOOK_RETRY_DELAYS_SECONDS[3] }]);
    const attempts = await (await shardOf(userId)).select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id));
    expect(attempts.map((a) => a.attempt).sort()).toEqual([1, 2, 3]);
  });

  it("a queue message delivered twice at once makes one attempt", async () => {
    const { userId, endpoint } = await proAccountWithEndpoint();
    answer = () => new Response(null, { status: 503 });
    await sendTestEvent(await endpointDeps(userId), userId, endpoint.id);
    const [message] = sent.splice(0);
    const outcomes = await Promise.all([attemptDelivery(deps(), message.body), attemptDelivery(deps(), message.body)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["retrying", "skipped"]);
    expect(received).toHaveLength(1);
    // One next retry queued, and the first attempt logged once.
    expect(sent).toEqual([{ body: { deliveryId: message.body.deliveryId, attempt: 2, shard: await shardNameOf(userId) }, delaySeconds: 5 }]);
    const attempts = await (await shardOf(userId)).select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, message.body.deliveryId));
    expect(attempts.map((a) => a.attempt)).toEqual([1]);
  });

  it("the upkeep's requeue of a late message and the late message itself make one attempt", async () => {
    const { userId, endpoint } = await proAccountWithEndpoint();
    await sendTestEvent(await endpointDeps(userId), userId, endpoint.id);
    const [late] = sent.splice(0);
    clock = new Date(clock.getTime() + 20 * 60_000);
    await requeueAll(clock);
    // (Other tests' pending deliveries are requeued too: only this one's messages run.)
    sent = sent.filter((m) => m.body.deliveryId === late.body.deliveryId);
    expect(sent.map((m) => m.body)).toEqual([late.body]);
    sent.push(late);
    await runAllAtOnce();
    expect(received).toHaveLength(1);
  });

  it("an attempt whose run died after its claim is queued again by the upkeep, as the next attempt", async () => {
    const { userId, endpoint } = await proAccountWithEndpoint();
    await sendTestEvent(await endpointDeps(userId), userId, endpoint.id);
    const [message] = sent.splice(0);
    // The claim was written (the first batch), then the isolate died before the answer was recorded (the second).
    const real = await shardOf(userId);
    const dying = Object.create(real) as typeof real;
    let batches = 0;
    dying.batch = ((statements: Parameters<typeof real.batch>[0]) =>
      ++batches === 1 ? real.batch(statements) : Promise.reject(new Error("isolate gone"))) as unknown as typeof real.batch;
    await expect(attemptDelivery(deps({ shard: () => dying }), message.body)).rejects.toThrow("isolate gone");
    expect(received).toHaveLength(1);
    received = [];
    // The queue's own retry of the message finds the attempt claimed and is skipped.
    expect(await attemptDelivery(deps(), message.body)).toEqual({ status: "skipped" });
    clock = new Date(clock.getTime() + 20 * 60_000);
    await requeueAll(clock);
    sent = sent.filter((m) => m.body.deliveryId === message.body.deliveryId);
    expect(sent.map((m) => m.body)).toEqual([{ deliveryId: message.body.deliveryId, attempt: 2, shard: await shardNameOf(userId) }]);
    await drain();
    expect(received).toHaveLength(1);
    const [delivery] = (await listDeliveries(await endpointDeps(userId), userId, endpoint.id, { limit: 1 })).deliveries;
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 2 });
  });
});

describe("each attempt", () => {
  it("does not follow a redirect: a 3xx is a failure", async () => {
    const { userId, endpoint } = await proAccountWithEndpoint();
    answer = () => new Response(null, { status: 302, headers: { location: "http://169.254.169.254/" } });
    await sendTestEvent(await endpointDeps(userId), userId, endpoint.id);
    const outcome = await attemptDelivery(deps(), sent.shift()!.body);
    expect(outcome).toMatchObject({ status: "retrying", responseStatus: 302, error: "redirects are not followed", nextDelaySeconds: 5 });
    expect(received).toHaveLength(1);
  });

  it("gives up waiting after the timeout", async () => {
    const { userId, endpoint } = await proAccountWithEndpoint();
    const hanging = ((_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason as Error)))) as typeof fetch;
    await sendTestEvent(await endpointDeps(userId), userId, endpoint.id);
    const outcome = await attemptDelivery(deps({ fetch: hanging, timeoutMs: 20 }), sent.shift()!.body);
    expect(outcome).toMatchObject({ status: "retrying", responseStatus: null, error: "no answer within 0.02 s" });
  });

  it("reads at most 64 KB of an answer and logs its first 1 KB", async () => {
    const { userId, endpoint } = await proAccountWithEndpoint();
    let served = 0;
    answer = () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            served += 16 * 1024;
            controller.enqueue(new Uint8Array(16 * 1024).fill(0x61));
            if (served >= 1024 * 1024) controller.close();
          },
        }),
        { status: 200 },
      );
    await sendTestEvent(await endpointDeps(userId), userId, endpoint.id);
    await drain();
    expect(served).toBeLessThanOrEqual(64 * 1024 + 2 * 16 * 1024);
    const [attempt] = await (await shardOf(userId)).select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, endpoint.id));
    expect(attempt.responseBody).toBe("a".repeat(1024));
  });

  it("checks the URL again: an address refused since it was saved fails without a request", async () => {
    const { userId, endpoint } = await proAccountWithEndpoint();
    await (await shardOf(userId)).update(webhookEndpoints).set({ url: "https://[::ffff:169.254.169.254]/meta" }).where(eq(webhookEndpoints.id, endpoint.id));
    await sendTestEvent(await endpointDeps(userId), userId, endpoint.id);
    const outcome = await attemptDelivery(deps(), sent.shift()!.body);
    expect(outcome).toMatchObject({ status: "retrying", error: "URL refused: points to a link-local or cloud metadata address" });
    expect(received).toEqual([]);
  });

  it("resolves the host name when given a resolver, and refuses an inside address", async () => {
    const { userId, endpoint } = await proAccountWithEndpoint();
    await sendTestEvent(await endpointDeps(userId), userId, endpoint.id);
    const outcome = await attemptDelivery(deps({ resolve: () => Promise.resolve(["127.0.0.1"]) }), sent.shift()!.body);
    expect(outcome).toMatchObject({ error: "URL refused: resolves to a loopback address" });
    expect(received).toEqual([]);
  });
});

describe("when saved", () => {
  it("a name resolving to an inside address is refused with the field url, when a resolver is given (production)", async () => {
    const s = await signUpAndSignIn();
    const resolve = () => Promise.resolve(["10.0.0.7"]);
    await expect(createEndpoint({ ...(await endpointDeps(s.userId)), resolve }, s.userId, { url: "https://hooks.example.com/in", description: "", events: ["test"] })).rejects.toMatchObject({
      status: 400,
      field: "url",
      message: "The URL resolves to a private network address",
    });
    const { endpoint } = await createEndpoint(await endpointDeps(s.userId), s.userId, { url: "https://hooks.example.com/in", description: "", events: ["test"] });
    await expect(updateEndpoint({ ...(await endpointDeps(s.userId)), resolve }, s.userId, endpoint.id, { url: "https://other.example.com/in" })).rejects.toMatchObject({ status: 400, field: "url" });
  });
});

describe("an endpoint failing everything", () => {
  it("is disabled after 5 days of failures, its owner mailed once; a success in between resets the count", async () => {
    const { userId, email, endpoint } = await proAccountWithEndpoint();
    const day = 86_400_000;
    const event = async (status: number) => {
      answer = () => new Response(null, { status });
      await enqueueWebhookEvent(bindings(), userId, "call.ended", { call_id: crypto.randomUUID() }, clock);
      await attemptDelivery(deps(), sent.shift()!.body);
      sent = [];
    };
    await event(500);
    clock = new Date(clock.getTime() + 3 * day);
    await event(200);
    clock = new Date(clock.getTime() + day);
    await event(500);
    clock = new Date(clock.getTime() + 4.9 * day);
    await event(500);
    let [row] = await (await shardOf(userId)).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row.enabled).toBe(true);
    clock = new Date(clock.getTime() + 0.2 * day);
    await event(500);
    [row] = await (await shardOf(userId)).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row).toMatchObject({ enabled: false, disabledReason: "Every delivery failed for 5 days" });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: email.toLowerCase(), kind: "webhook_disabled" });
    expect(mails[0].text).toContain("https://hooks.example.com/in");
    // Disabled: no more events; a pending retry of an earlier delivery fails at once.
    await enqueueWebhookEvent(bindings(), userId, "call.ended", { call_id: "c-7" }, clock);
    expect(sent).toEqual([]);
    expect(mails).toHaveLength(1);
  });
});

describe("the queue handler of the Worker", () => {
  it("runs each message's attempt, delivers to the local receiver in-process and acknowledges", async () => {
    const { userId, endpoint } = await proAccountWithEndpoint(["call.started"], "http://localhost:8787/api/local/webhook-inbox/queue-test");
    await enqueueWebhookEvent(bindings(), userId, "call.started", { call_id: "c-8" });
    const [message] = sent;
    const batch = createMessageBatch<WebhookMessage>("voice-agent-ops-webhooks", [{ id: "m-1", timestamp: new Date(), attempts: 1, body: message.body }]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env as unknown as Bindings, ctx);
    await waitOnExecutionContext(ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["m-1"]);
    expect(result.retryMessages).toEqual([]);
    const [entry] = await inboxEntries(db(), "queue-test");
    expect(entry).toMatchObject({ webhookId: message.body.deliveryId, eventType: "call.started", verified: true, verifyError: null });
    const [delivery] = (await listDeliveries(await endpointDeps(userId), userId, endpoint.id, { limit: 1 })).deliveries;
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(delivery.attemptLog[0]).toMatchObject({ responseStatus: 200 });
  });
  it("acknowledges, logs and drops a malformed message: no attempt runs and none is retried", async () => {
    const { userId, endpoint } = await proAccountWithEndpoint(["call.started"], "http://localhost:8787/api/local/webhook-inbox/malformed");
    await enqueueWebhookEvent(bindings(), userId, "call.started", { call_id: "c-9" });
    const { deliveryId } = sent[0].body;
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const batch = createMessageBatch<WebhookMessage>("voice-agent-ops-webhooks", [
        // No attempt number: it cannot be told from an attempt already made.
        { id: "m-no-attempt", timestamp: new Date(), attempts: 1, body: { deliveryId } as WebhookMessage },
        { id: "m-zero", timestamp: new Date(), attempts: 1, body: { deliveryId, attempt: 0, shard: await shardNameOf(userId) } },
        { id: "m-text", timestamp: new Date(), attempts: 1, body: "not a message" as unknown as WebhookMessage },
        // No shard: it cannot be told where the delivery's rows are.
        { id: "m-no-shard", timestamp: new Date(), attempts: 1, body: { deliveryId, attempt: 1 } as WebhookMessage },
      ]);
      const ctx = createExecutionContext();
      await worker.queue(batch, env as unknown as Bindings, ctx);
      await waitOnExecutionContext(ctx);
      const result = await getQueueResult(batch, ctx);
      expect(result.explicitAcks.sort()).toEqual(["m-no-attempt", "m-no-shard", "m-text", "m-zero"]);
      expect(result.retryMessages).toEqual([]);
      expect(warned.mock.calls.filter(([line]) => String(line).includes("a malformed webhook queue message was dropped"))).toHaveLength(4);
    } finally {
      warned.mockRestore();
    }
    expect(await inboxEntries(db(), "malformed")).toEqual([]);
    const [delivery] = (await listDeliveries(await endpointDeps(userId), userId, endpoint.id, { limit: 1 })).deliveries;
    expect(delivery).toMatchObject({ status: "pending", attempts: 0, attemptLog: [] });
  });
});

describe("upkeep", () => {
  it("keeps the log 30 days (a pending delivery until it is decided)", async () => {
    const { userId, endpoint } = await proAccountWithEndpoint();
    await sendTestEvent(await endpointDeps(userId), userId, endpoint.id);
    await drain();
    await sendTestEvent(await endpointDeps(userId), userId, endpoint.id);
    sent = [];
    clock = new Date(clock.getTime() + 30 * 86_400_000 + 1000);
    const shard = await shardOf(userId);
    await pruneWebhookLog(shard, clock);
    const left = await shard.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id));
    expect(left.map((d) => d.status)).toEqual(["pending"]);
    expect(await shard.select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, endpoint.id))).toEqual([]);
  });

  it("queues again a pending delivery whose message was lost, once it is 15 minutes overdue", async () => {
    const { userId, endpoint } = await proAccountWithEndpoint();
    const { deliveryId } = await sendTestEvent(await endpointDeps(userId), userId, endpoint.id);
    sent = [];
    clock = new Date(clock.getTime() + 10 * 60_000);
    await requeueAll(clock);
    expect(sent.filter((m) => m.body.deliveryId === deliveryId)).toEqual([]);
    clock = new Date(clock.getTime() + 10 * 60_000);
    await requeueAll(clock);
    expect(sent.filter((m) => m.body.deliveryId === deliveryId)).toEqual([{ body: { deliveryId, attempt: 1, shard: await shardNameOf(userId) }, delaySeconds: 0 }]);
  });

  it("announces the daily report to the accounts that see it", async () => {
    const staff = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    const plain = await signUpAndSignIn();
    await call("/api/profile", { token: staff.accessToken });
    await call("/api/profile", { token: plain.accessToken });
    for (const s of [staff, plain]) await createEndpoint(await endpointDeps(s.userId), s.userId, { url: "https://r.example.com/in", description: "", events: ["daily_report.ready"] });
    for (const shard of testShards()) await announceDailyReport(db(), shard, queue, "2026-11-01", clock);
    const rows = (
      await Promise.all([staff, plain].map(async (s) => (await shardOf(s.userId)).select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, s.userId))))
    )
      .flat()
      .filter((r) => r.eventType === "daily_report.ready");
    expect(rows.map((r) => r.userId)).toEqual([staff.userId]);
    expect(JSON.parse(rows[0].payload)).toMatchObject({ type: "daily_report.ready", data: { day: "2026-11-01" } });
  });
});
