// Webhook tampering: for each webhook (VAPI, Stripe, Aircall), at least 1,000 generated tamperings of real payloads (flipped
// bytes, a wrong secret, stale and future timestamps, truncation, a wrong content type, oversized
// bodies, duplicate headers, a missing credential) are refused with a 4xx and write nothing; a
// replayed genuine delivery changes nothing either. Figures per kind are printed.
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { aircallCalls, callLogs, webhookEvents } from "../db/schema";
import { AIRCALL_WEBHOOK_PATH, DEV_AIRCALL_WEBHOOK_TOKEN, FUTURE_TOLERANCE_SECONDS } from "../providers/callcentre/aircall-events";
import { DEV_STRIPE_WEBHOOK_SECRET, signStripePayload, STRIPE_SIGNATURE_TOLERANCE_SECONDS } from "../providers/billing/stripe-events";
import { DEV_VAPI_WEBHOOK_SECRET } from "../providers/voice/local";
import { SIGNATURE_TOLERANCE_SECONDS } from "../providers/voice/vapi-webhook";
import { VOICE_WEBHOOK_PATH } from "../providers/voice/port";
import { aircallCall } from "../test/aircall";
import { endOfCallReportBody, insertAgent } from "../test/factories";
import { call, db, signUpAndSignIn } from "../test/helpers";

const RUNS = 1_000;
type Generated<A> = A extends fc.Arbitrary<infer T> ? T : never;
/** Bodies above this are refused before they are read (worker/app.ts). */
const WEBHOOK_BODY_LIMIT = 2 * 1024 * 1024;

type Tally = { runs: number; accepted: number; errors500: number; byKind: Record<string, number>; replays: number; replayEffects: number };
const tallies: Record<string, Tally> = {};
const tally = (name: string): Tally => (tallies[name] ??= { runs: 0, accepted: 0, errors500: 0, byKind: {}, replays: 0, replayEffects: 0 });

function record(name: string, kind: string, status: number) {
  const t = tally(name);
  t.runs += 1;
  t.byKind[kind] = (t.byKind[kind] ?? 0) + 1;
  if (status < 400) t.accepted += 1;
  if (status >= 500) t.errors500 += 1;
}

const effects = async () => ({
  events: (await db().select({ n: sql<number>`count(*)` }).from(webhookEvents))[0].n,
  calls: (await db().select({ n: sql<number>`count(*)` }).from(callLogs))[0].n,
  aircall: (await db().select({ n: sql<number>`count(*)` }).from(aircallCalls))[0].n,
});

const enc = new TextEncoder();
async function hmacHex(secret: string, payload: string) {
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return [...new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(payload)))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Flips one bit of one byte of a string's UTF-8 bytes; the result always differs from the input. */
function flip(text: string, at: number, bit: number): Uint8Array {
  const bytes = enc.encode(text);
  const copy = bytes.slice();
  copy[at % copy.length] ^= 1 << bit;
  return copy;
}

type Delivery = { body: string | Uint8Array; headers: Record<string, string> | [string, string][] };

function send(path: string, d: Delivery) {
  const headers = new Headers(d.headers as HeadersInit);
  return call(path, { method: "POST", body: d.body as BodyInit, headers });
}

/**
 * Sends `RUNS` generated tamperings to a webhook: each is answered 4xx, never accepted and never a
 * 500, tallied under `name` by kind, and the database holds what it held before.
 */
async function refusesEveryTampering<T extends { kind: string }>(
  name: string,
  path: string,
  tamperings: fc.Arbitrary<T>,
  tampered: (t: T) => Delivery | Promise<Delivery>,
) {
  const before = await effects();
  await fc.assert(
    fc.asyncProperty(tamperings, async (t) => {
      const res = await send(path, await tampered(t));
      record(name, t.kind, res.status);
      expect(res.status, `${t.kind}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, t.kind).toBeLessThan(500);
    }),
    { numRuns: RUNS },
  );
  expect(await effects()).toEqual(before);
}

const contentTypes = fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/json", "application/jsonp", "");
const wrongSecret = (right: string) => fc.string({ minLength: 1, maxLength: 80 }).filter((s) => s !== right && s.trim() !== right);
const oversize = fc.integer({ min: 1, max: 64 * 1024 });

// ---------------------------------------------------------------- VAPI: HMAC over '<timestamp>.<body>'

describe("VAPI webhook tampering", () => {
  let assistantId = "";
  let n = 0;

  /** A genuine end-of-call report of a call never delivered before, signed as VAPI signs it. */
  async function genuine(nowSeconds = Math.floor(Date.now() / 1000), secret = DEV_VAPI_WEBHOOK_SECRET) {
    n += 1;
    const id = `tamper-${n}-${crypto.randomUUID()}`;
    const body = endOfCallReportBody(assistantId, id);
    const timestamp = String(nowSeconds);
    const signature = `sha256=${await hmacHex(secret, `${timestamp}.${body}`)}`;
    return { body, timestamp, signature };
  }

  const signed = (g: { body: string; timestamp: string; signature: string }, over: Partial<Record<string, string>> = {}): Delivery => ({
    body: g.body,
    headers: { "content-type": "application/json", "x-vapi-timestamp": g.timestamp, "x-vapi-signature": g.signature, ...over },
  });

  const tamperings = fc.oneof(
    fc.record({ kind: fc.constant("flipped body byte"), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
    fc.record({ kind: fc.constant("flipped signature byte"), at: fc.nat(), bit: fc.integer({ min: 0, max: 6 }) }),
    fc.record({ kind: fc.constant("re-signed with a wrong secret"), secret: wrongSecret(DEV_VAPI_WEBHOOK_SECRET) }),
    fc.record({ kind: fc.constant("stale timestamp"), seconds: fc.integer({ min: SIGNATURE_TOLERANCE_SECONDS + 1, max: 10_000_000 }) }),
    fc.record({ kind: fc.constant("future timestamp"), seconds: fc.integer({ min: SIGNATURE_TOLERANCE_SECONDS + 1, max: 10_000_000 }) }),
    fc.record({ kind: fc.constant("truncated"), keep: fc.nat() }),
    fc.record({ kind: fc.constant("wrong content type"), type: contentTypes }),
    fc.record({ kind: fc.constant("oversized"), extra: oversize }),
    fc.record({ kind: fc.constant("duplicate signature headers"), secret: wrongSecret(DEV_VAPI_WEBHOOK_SECRET) }),
    fc.record({ kind: fc.constant("wrong plain secret"), secret: wrongSecret(DEV_VAPI_WEBHOOK_SECRET) }),
    fc.record({ kind: fc.constant("no credential") }),
  );

  async function tampered(t: Generated<typeof tamperings>): Promise<Delivery> {
    const now = Math.floor(Date.now() / 1000);
    switch (t.kind) {
      case "flipped body byte": {
        const g = await genuine();
        return { ...signed(g), body: flip(g.body, t.at, t.bit) };
      }
      case "flipped signature byte": {
        const g = await genuine();
        const hex = g.signature.slice("sha256=".length);
        const i = t.at % hex.length;
        const swapped = hex[i] === "0" ? "1" : "0";
        return signed(g, { "x-vapi-signature": `sha256=${hex.slice(0, i)}${swapped}${hex.slice(i + 1)}` });
      }
      case "re-signed with a wrong secret":
        return signed(await genuine(now, t.secret));
      case "stale timestamp":
        return signed(await genuine(now - t.seconds));
      case "future timestamp":
        return signed(await genuine(now + t.seconds));
      case "truncated": {
        const g = await genuine();
        return { ...signed(g), body: g.body.slice(0, t.keep % g.body.length) };
      }
      case "wrong content type":
        return signed(await genuine(), { "content-type": t.type });
      case "oversized": {
        const g = await genuine();
        return { ...signed(g), body: g.body + " ".repeat(WEBHOOK_BODY_LIMIT - g.body.length + t.extra) };
      }
      case "duplicate signature headers": {
        // The genuine signature and a forged one in two headers: joined, they match neither.
        const g = await genuine();
        const forged = await genuine(now, t.secret);
        return {
          body: g.body,
          headers: [
            ["content-type", "application/json"],
            ["x-vapi-timestamp", g.timestamp],
            ["x-vapi-signature", forged.signature],
            ["x-vapi-signature", g.signature],
          ],
        };
      }
      case "wrong plain secret": {
        const g = await genuine();
        return { body: g.body, headers: { "content-type": "application/json", "x-vapi-secret": t.secret } };
      }
      case "no credential": {
        const g = await genuine();
        return { body: g.body, headers: { "content-type": "application/json" } };
      }
    }
  }

  it(`refuses ${RUNS} generated tamperings with a 4xx and writes nothing`, { timeout: 600_000 }, async () => {
    const session = await signUpAndSignIn();
    assistantId = `asst-${crypto.randomUUID()}`;
    await insertAgent(session.userId, { vapiAssistantId: assistantId });
    // The genuine form is accepted: the tamperings below start from something that works.
    const control = await send(VOICE_WEBHOOK_PATH, signed(await genuine()));
    expect(control.status).toBe(200);
    await refusesEveryTampering("VAPI", VOICE_WEBHOOK_PATH, tamperings, tampered);
  });

  it("answers a replayed genuine delivery as a duplicate, 10 times, with one effect", async () => {
    const g = await genuine();
    const first = await send(VOICE_WEBHOOK_PATH, signed(g));
    expect(first.body).toMatchObject({ received: true, duplicate: false });
    const before = await effects();
    for (let i = 0; i < 10; i++) {
      const again = await send(VOICE_WEBHOOK_PATH, signed(g));
      tally("VAPI").replays += 1;
      expect(again.body).toMatchObject({ received: true, duplicate: true });
    }
    const after = await effects();
    tally("VAPI").replayEffects += after.events - before.events;
    expect(after).toEqual(before);
  });
});

// ---------------------------------------------------------------- Stripe: 't=<time>,v1=<HMAC of "<time>.<body>">'

describe("Stripe webhook tampering", () => {
  const STRIPE_WEBHOOK_PATH = "/api/webhooks/stripe";

  /** A genuine event never delivered before (an invoice the product does not know: acknowledged, recorded once). */
  async function genuine(timestamp = Math.floor(Date.now() / 1000), secret = DEV_STRIPE_WEBHOOK_SECRET) {
    const body = JSON.stringify({
      id: `evt_tamper_${crypto.randomUUID()}`,
      object: "event",
      type: "invoice.paid",
      created: timestamp,
      data: { object: { id: `in_${crypto.randomUUID()}`, object: "invoice" } },
    });
    return { body, signature: await signStripePayload(body, secret, timestamp) };
  }
  const signed = (g: { body: string; signature: string }, over: Record<string, string> = {}): Delivery => ({
    body: g.body,
    headers: { "content-type": "application/json", "stripe-signature": g.signature, ...over },
  });

  const tamperings = fc.oneof(
    fc.record({ kind: fc.constant("flipped body byte"), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
    fc.record({ kind: fc.constant("flipped signature byte"), at: fc.nat() }),
    fc.record({ kind: fc.constant("re-signed with a wrong secret"), secret: wrongSecret(DEV_STRIPE_WEBHOOK_SECRET) }),
    fc.record({ kind: fc.constant("stale timestamp"), seconds: fc.integer({ min: STRIPE_SIGNATURE_TOLERANCE_SECONDS + 1, max: 10_000_000 }) }),
    fc.record({ kind: fc.constant("future timestamp"), seconds: fc.integer({ min: STRIPE_SIGNATURE_TOLERANCE_SECONDS + 1, max: 10_000_000 }) }),
    fc.record({ kind: fc.constant("timestamp swapped after signing"), seconds: fc.integer({ min: 1, max: 250 }) }),
    fc.record({ kind: fc.constant("truncated"), keep: fc.nat() }),
    fc.record({ kind: fc.constant("wrong content type"), type: contentTypes }),
    fc.record({ kind: fc.constant("oversized"), extra: oversize }),
    fc.record({ kind: fc.constant("duplicate forged signature headers"), a: wrongSecret(DEV_STRIPE_WEBHOOK_SECRET), b: wrongSecret(DEV_STRIPE_WEBHOOK_SECRET) }),
    fc.record({ kind: fc.constant("v0 scheme only") }),
    fc.record({ kind: fc.constant("no signature") }),
  );

  async function tampered(t: Generated<typeof tamperings>): Promise<Delivery> {
    const now = Math.floor(Date.now() / 1000);
    switch (t.kind) {
      case "flipped body byte": {
        const g = await genuine();
        return { ...signed(g), body: flip(g.body, t.at, t.bit) };
      }
      case "flipped signature byte": {
        const g = await genuine();
        const v1 = g.signature.indexOf("v1=") + 3;
        const i = v1 + (t.at % (g.signature.length - v1));
        const swapped = g.signature[i] === "0" ? "1" : "0";
        return signed(g, { "stripe-signature": `${g.signature.slice(0, i)}${swapped}${g.signature.slice(i + 1)}` });
      }
      case "re-signed with a wrong secret":
        return signed(await genuine(now, t.secret));
      case "stale timestamp":
        return signed(await genuine(now - t.seconds));
      case "future timestamp":
        return signed(await genuine(now + t.seconds));
      case "timestamp swapped after signing": {
        // A fresh time in the header, the signature of an older one: the signed payload no longer matches.
        const g = await genuine(now - t.seconds);
        return signed(g, { "stripe-signature": g.signature.replace(/^t=\d+/, `t=${now}`) });
      }
      case "truncated": {
        const g = await genuine();
        return { ...signed(g), body: g.body.slice(0, t.keep % g.body.length) };
      }
      case "wrong content type":
        return signed(await genuine(), { "content-type": t.type });
      case "oversized": {
        const g = await genuine();
        return { ...signed(g), body: g.body + " ".repeat(WEBHOOK_BODY_LIMIT - g.body.length + t.extra) };
      }
      case "duplicate forged signature headers": {
        const g = await genuine();
        const [a, b] = [await signStripePayload(g.body, t.a, now), await signStripePayload(g.body, t.b, now)];
        return { body: g.body, headers: [["content-type", "application/json"], ["stripe-signature", a], ["stripe-signature", b]] };
      }
      case "v0 scheme only": {
        // The right HMAC under the test-mode scheme name Stripe does not accept for live verification.
        const g = await genuine();
        return signed(g, { "stripe-signature": g.signature.replace("v1=", "v0=") });
      }
      case "no signature": {
        const g = await genuine();
        return { body: g.body, headers: { "content-type": "application/json" } };
      }
    }
  }

  it(`refuses ${RUNS} generated tamperings with a 4xx and writes nothing`, { timeout: 600_000 }, async () => {
    const control = await send(STRIPE_WEBHOOK_PATH, signed(await genuine()));
    expect(control.status).toBe(200);
    await refusesEveryTampering("Stripe", STRIPE_WEBHOOK_PATH, tamperings, tampered);
  });

  it("answers a replayed genuine delivery without a second effect, 10 times", async () => {
    const g = await genuine();
    expect((await send(STRIPE_WEBHOOK_PATH, signed(g))).status).toBe(200);
    const before = await effects();
    for (let i = 0; i < 10; i++) {
      const again = await send(STRIPE_WEBHOOK_PATH, signed(g));
      tally("Stripe").replays += 1;
      expect(again.status).toBe(200);
    }
    const after = await effects();
    tally("Stripe").replayEffects += after.events - before.events;
    expect(after).toEqual(before);
  });
});

// ---------------------------------------------------------------- Aircall: the token in the body

describe("Aircall webhook tampering", () => {
  let nextId = 7_000_000_000;

  function genuine(over: Record<string, unknown> = {}) {
    const id = ++nextId;
    const now = Math.floor(Date.now() / 1000);
    return { resource: "call", event: "call.ended", timestamp: now, token: DEV_AIRCALL_WEBHOOK_TOKEN, data: aircallCall(id, now - 300), ...over };
  }
  const json = (body: unknown, type = "application/json"): Delivery => ({ body: JSON.stringify(body), headers: { "content-type": type } });

  const tamperings = fc.oneof(
    fc.record({ kind: fc.constant("flipped token byte"), at: fc.nat(), bit: fc.integer({ min: 0, max: 6 }) }),
    fc.record({ kind: fc.constant("wrong token"), token: wrongSecret(DEV_AIRCALL_WEBHOOK_TOKEN) }),
    fc.record({ kind: fc.constant("token of another type"), token: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }), fc.object({ maxDepth: 1 })) }),
    fc.record({ kind: fc.constant("token with padding"), pad: fc.constantFrom(" ", "\n", "\t", "\u0000", "%20") }),
    fc.record({ kind: fc.constant("token in another case") }),
    fc.record({ kind: fc.constant("no token") }),
    fc.record({ kind: fc.constant("future timestamp"), seconds: fc.integer({ min: FUTURE_TOLERANCE_SECONDS + 5, max: 10_000_000 }) }),
    fc.record({ kind: fc.constant("truncated"), keep: fc.nat() }),
    fc.record({ kind: fc.constant("wrong content type"), type: contentTypes }),
    fc.record({ kind: fc.constant("oversized"), extra: oversize }),
    fc.record({ kind: fc.constant("duplicate token keys") , token: wrongSecret(DEV_AIRCALL_WEBHOOK_TOKEN) }),
  );

  function tampered(t: Generated<typeof tamperings>): Delivery {
    switch (t.kind) {
      case "flipped token byte": {
        const token = new TextDecoder().decode(flip(DEV_AIRCALL_WEBHOOK_TOKEN, t.at, t.bit));
        return json(genuine({ token }));
      }
      case "wrong token":
        return json(genuine({ token: t.token }));
      case "token of another type":
        return json(genuine({ token: t.token }));
      case "token with padding":
        return json(genuine({ token: `${DEV_AIRCALL_WEBHOOK_TOKEN}${t.pad}` }));
      case "token in another case":
        return json(genuine({ token: DEV_AIRCALL_WEBHOOK_TOKEN.toUpperCase() }));
      case "no token": {
        const { token: _, ...rest } = genuine();
        return json(rest);
      }
      case "future timestamp":
        return json(genuine({ timestamp: Math.floor(Date.now() / 1000) + t.seconds }));
      case "truncated": {
        const body = JSON.stringify(genuine());
        return { body: body.slice(0, t.keep % body.length), headers: { "content-type": "application/json" } };
      }
      case "wrong content type":
        return json(genuine(), t.type);
      case "oversized": {
        const body = JSON.stringify(genuine());
        return { body: body + " ".repeat(WEBHOOK_BODY_LIMIT - body.length + t.extra), headers: { "content-type": "application/json" } };
      }
      case "duplicate token keys": {
        // The genuine token first and a forged one last: a JSON reader keeps the last.
        const body = JSON.stringify(genuine()).replace(/}$/, `,"token":${JSON.stringify(t.token)}}`);
        return { body, headers: { "content-type": "application/json" } };
      }
    }
  }

  it(`refuses ${RUNS} generated tamperings with a 4xx and writes nothing`, { timeout: 600_000 }, async () => {
    const control = await send(AIRCALL_WEBHOOK_PATH, json(genuine()));
    expect(control.status).toBe(200);
    await refusesEveryTampering("Aircall", AIRCALL_WEBHOOK_PATH, tamperings, tampered);
  });

  it("answers a replayed genuine delivery as a duplicate, 10 times, with one effect", async () => {
    const delivery = json(genuine());
    const first = await send(AIRCALL_WEBHOOK_PATH, delivery);
    expect(first.body).toMatchObject({ received: true, duplicate: false });
    const before = await effects();
    for (let i = 0; i < 10; i++) {
      const again = await send(AIRCALL_WEBHOOK_PATH, delivery);
      tally("Aircall").replays += 1;
      expect(again.body).toMatchObject({ received: true, duplicate: true });
    }
    const after = await effects();
    tally("Aircall").replayEffects += after.events - before.events;
    expect(after).toEqual(before);
  });
});

afterAll(() => {
  const lines = Object.entries(tallies).map(
    ([name, t]) =>
      `${name}: ${t.runs} tamperings, accepted ${t.accepted}, answered 500 ${t.errors500}; ` +
      `${t.replays} replays of a genuine delivery, new effects ${t.replayEffects} — ` +
      Object.entries(t.byKind)
        .map(([k, v]) => `${k} ${v}`)
        .join(", "),
  );
  console.log(`\nWebhook tampering\n${lines.join("\n")}`);
});
