// Provider faults: each real adapter against its stand-in answering 500, 429 with Retry-After, never
// answering (a hang, cut by PROVIDER_TIMEOUT_MS) and malformed JSON. For every fault the user-facing
// route answers a 502 JSON error naming the provider (never an unhandled 500), D1 is exactly as it
// was before the request, and the requests the stand-in saw are counted: retries are bounded, and
// a retried Stripe POST carries the same Idempotency-Key. Figures per adapter and fault are printed.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { agents, systemConfig } from "../db/schema";
import { parseConfig } from "../env";
import { createCallCentre } from "../providers";
import { SUPABASE_GENERIC_ERROR } from "../providers/identity/supabase";
import { AIRCALL_CURSOR_KEY, runAircallBackfill } from "../jobs/aircall-backfill";
import { ApiError } from "../lib/errors";
import { aircallCall, standinCompany } from "../test/aircall";
import { armFault, seenBy, snapshotD1 } from "../test/faults";
import { offerNumbers } from "../test/factories";
import { call, db, signUpAndSignIn, uniqueEmail, type Json, testShards } from "../test/helpers";
import { STRIPE_STANDIN } from "../test/standins/stripe";
import { SUPABASE_STANDIN } from "../test/standins/supabase";
import { TWILIO_STANDIN } from "../test/standins/twilio";
import { VAPI_STANDIN } from "../test/standins/vapi";
import type { FaultMode } from "../test/standins/server";

/** Short enough for the test, long enough that a healthy local stand-in always answers first. */
const TIMEOUT_MS = 400;
const FAULTS: FaultMode[] = ["500", "429", "hang", "malformed"];
const hex = () => crypto.randomUUID().replace(/-/g, "");

type Row = { adapter: string; fault: FaultMode; status: number; error: string; requests: number; d1Unchanged: boolean; sameIdempotencyKey?: boolean };
const rows: Row[] = [];

function expectProviderError(res: { status: number; body: Json }, provider: RegExp | string) {
  expect(res.status, JSON.stringify(res.body)).toBe(502);
  expect(res.body.code).toBe("provider_error");
  if (typeof provider === "string") expect(res.body.error).toBe(provider);
  else expect(res.body.error).toMatch(provider);
}

let session: Awaited<ReturnType<typeof signUpAndSignIn>>;
beforeAll(async () => {
  session = await signUpAndSignIn();
  await call("/api/profile", { token: session.accessToken });
});

describe("Twilio: POST /api/twilio/buy", () => {
  it.each(FAULTS)("%s: 502 naming Twilio, no phone_numbers row, one request", async (fault) => {
    const sid = `AC${hex()}`;
    const bindings = { TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: TWILIO_STANDIN.authToken, TWILIO_BASE_URL: inject("standins").twilio, PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS) };
    await armFault(inject("standins").twilio, sid, fault, 1, "3");
    await offerNumbers(session.userId, ["+19185550120"]);
    const before = await snapshotD1();
    const res = await call("/api/twilio/buy", { method: "POST", token: session.accessToken, json: { phoneNumber: "+19185550120", createInVapi: false }, bindings });
    expectProviderError(res, /^Twilio: /);
    const after = await snapshotD1();
    expect(after).toEqual(before);
    const seen = await seenBy(inject("standins").twilio, sid);
    expect(seen).toHaveLength(1);
    rows.push({ adapter: "Twilio", fault, status: res.status, error: res.body.error, requests: seen.length, d1Unchanged: true });
  });
});

describe("VAPI: POST /api/create-vapi-assistant", () => {
  it.each(FAULTS)("%s: 502 naming VAPI, the agent row untouched, one request", async (fault) => {
    const created = await call("/api/agents", { method: "POST", token: session.accessToken, json: {
        name: `Fault ${fault}`,
        business_description: "A family dental clinic in Miami with three chairs.",
        services: "Cleanings, fillings, whitening and regular check-ups.",
        agent_instructions: "Greet callers warmly, answer questions and book appointments.",
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const agentId = created.body.agent.id as number;
    const key = hex();
    const bindings = { VAPI_PRIVATE_KEY: VAPI_STANDIN.privateKey, VAPI_BASE_URL: `${inject("standins").vapi}/__fault/${key}`, PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS) };
    await armFault(inject("standins").vapi, key, fault, 1, "3");
    const before = await snapshotD1();
    const res = await call("/api/create-vapi-assistant", { method: "POST", token: session.accessToken, json: { agent_id: agentId, prompt: "You answer." }, bindings });
    expectProviderError(res, /^VAPI: /);
    expect(await snapshotD1()).toEqual(before);
    expect((await db().select().from(agents).where(eq(agents.id, agentId)).get())?.vapiAssistantId ?? null).toBeNull();
    const seen = await seenBy(inject("standins").vapi, key);
    expect(seen).toHaveLength(1);
    rows.push({ adapter: "VAPI", fault, status: res.status, error: res.body.error, requests: seen.length, d1Unchanged: true });
  });
});

describe("Stripe: POST /api/stripe/create-checkout-session", () => {
  it.each(FAULTS)("%s: 502 naming Stripe, nothing written, at most one retry with the same Idempotency-Key", async (fault) => {
    const key = hex();
    const bindings = { STRIPE_SECRET_KEY: `${STRIPE_STANDIN.keyPrefix}${key}`, STRIPE_API_BASE: inject("standins").stripe, PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS) };
    // Products are read first (a GET); the fault is armed for the checkout POST only, past them.
    const products = await call("/api/stripe/products", { bindings });
    expect(products.status).toBe(200);
    await armFault(inject("standins").stripe, key, fault, 10, "0");
    const before = await snapshotD1();
    const res = await call("/api/stripe/create-checkout-session", {
      method: "POST",
      bindings,
      json: { priceId: "price_pro_m", quantity: 1, successUrl: "http://localhost/payments/success", cancelUrl: "http://localhost/payments/cancel" },
    });
    expectProviderError(res, /^Stripe: /);
    expect(await snapshotD1()).toEqual(before);
    const posts = (await seenBy(inject("standins").stripe, key)).filter((s) => s.method === "POST");
    expect(posts.length).toBeGreaterThanOrEqual(1);
    expect(posts.length).toBeLessThanOrEqual(2);
    const keys = new Set(posts.map((p) => p.idempotencyKey));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toBeTruthy();
    rows.push({ adapter: "Stripe", fault, status: res.status, error: res.body.error, requests: posts.length, d1Unchanged: true, sameIdempotencyKey: keys.size === 1 });
  });
});

describe("Supabase identity: POST /api/admin/public/user-exists", () => {
  it.each(FAULTS)("%s: 502 with the generic account-service message, nothing written, one request", async (fault) => {
    const key = hex();
    const bindings = {
      SUPABASE_URL: `${inject("standins").supabase}/__fault/${key}/p/faults-${key}`,
      SUPABASE_ANON_KEY: SUPABASE_STANDIN.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: SUPABASE_STANDIN.serviceRoleKey,
      PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS),
    };
    await armFault(inject("standins").supabase, key, fault, 1, "3");
    const before = await snapshotD1();
    const res = await call("/api/admin/public/user-exists", { method: "POST", json: { email: uniqueEmail("ghost") }, bindings });
    expectProviderError(res, SUPABASE_GENERIC_ERROR);
    expect(await snapshotD1()).toEqual(before);
    const seen = await seenBy(inject("standins").supabase, key);
    expect(seen).toHaveLength(1);
    rows.push({ adapter: "Supabase", fault, status: res.status, error: res.body.error, requests: seen.length, d1Unchanged: true });
  });
});

describe("Aircall: the backfill job", () => {
  const NOW = new Date(Date.UTC(2026, 2, 5, 12, 0, 0));
  it.each(FAULTS)("%s: the run fails naming Aircall, no call and no cursor written, retries bounded", async (fault) => {
    await db().delete(systemConfig).where(eq(systemConfig.key, AIRCALL_CURSOR_KEY));
    const company = standinCompany();
    const start = NOW.getTime() / 1000 - 7 * 86_400;
    await company.putCalls(Array.from({ length: 5 }, (_, i) => aircallCall(5_000_000_000 + Math.floor(Math.random() * 1e6) * 10 + i, start + 600 + i * 60)));
    const config = parseConfig({ ...(env as unknown as Record<string, unknown>), ...company.bindings, PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS) });
    // Every request fails: a 429 is retried (up to 3 times), the others end the run at once.
    await armFault(inject("standins").aircall, company.apiId, fault, 10, "0");
    const before = await snapshotD1();
    const err = await runAircallBackfill({ db: db(), shards: testShards(), config, now: NOW }, createCallCentre(config)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(502);
    expect((err as ApiError).message).toMatch(/^Aircall: /);
    expect(await snapshotD1()).toEqual(before);
    const seen = await seenBy(inject("standins").aircall, company.apiId);
    expect(seen).toHaveLength(fault === "429" ? 4 : 1);
    rows.push({ adapter: "Aircall", fault, status: (err as ApiError).status, error: (err as ApiError).message, requests: seen.length, d1Unchanged: true });
  });
});

afterAll(() => {
  const lines = rows.map(
    (r) =>
      `  ${r.adapter.padEnd(9)} ${r.fault.padEnd(10)} → ${r.status}  requests ${r.requests}  D1 unchanged ${r.d1Unchanged ? "yes" : "NO"}` +
      `${r.sameIdempotencyKey !== undefined ? `  same Idempotency-Key ${r.sameIdempotencyKey ? "yes" : "NO"}` : ""}  "${r.error.slice(0, 70)}"`,
  );
  console.log(
    `\nProvider faults: ${rows.length} cases over ${new Set(rows.map((r) => r.adapter)).size} adapters; answered 500 ${rows.filter((r) => r.status >= 500 && r.status !== 502).length}; ` +
      `half-written ${rows.filter((r) => !r.d1Unchanged).length}; max requests per call ${Math.max(0, ...rows.map((r) => r.requests))}\n${lines.join("\n")}`,
  );
});
