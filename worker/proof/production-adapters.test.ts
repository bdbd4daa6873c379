// Production never uses a local adapter (docs/product/design.md#providers, decision 040): the app is built with
// APP_ENV=production and each provider's secrets removed in turn. Identity and billing refuse every
// request (the app cannot work without them); the other ports answer 503 naming what is missing on
// the routes that need them, /api/health reports them as not configured, and every local-only route
// (checkout page, mailbox, simulators, the local identity service) is absent.
import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { JWTPayload } from "jose";
import { describe, expect, inject, it } from "vitest";
import worker from "../index";
import { DAILY_CRON } from "../jobs";
import { SUPABASE_STANDIN } from "../test/standins/supabase";
import { call, uniqueEmail } from "../test/helpers";
import { ROUTES } from "./routes";

const standins = () => inject("standins");
let projects = 0;

/** A production deployment with every provider configured (against the stand-ins). */
function production() {
  const supabaseUrl = `${standins().supabase}/p/prod-${Date.now().toString(36)}-${++projects}`;
  return {
    APP_ENV: "production",
    SUPABASE_URL: supabaseUrl,
    SUPABASE_ANON_KEY: SUPABASE_STANDIN.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: SUPABASE_STANDIN.serviceRoleKey,
    STRIPE_SECRET_KEY: `sk_test_standin_prod${projects}`,
    STRIPE_WEBHOOK_SECRET: "whsec_production_test_secret",
    STRIPE_API_BASE: standins().stripe,
    TWILIO_ACCOUNT_SID: "AC00000000000000000000000000000001",
    TWILIO_AUTH_TOKEN: "standin-twilio-auth-token",
    TWILIO_BASE_URL: standins().twilio,
    VAPI_PRIVATE_KEY: "vapi-production-key",
    VAPI_WEBHOOK_SECRET: "vapi-production-webhook-secret",
    VAPI_BASE_URL: standins().vapi,
    AIRCALL_API_ID: "aircall-id",
    AIRCALL_API_TOKEN: "standin-aircall-api-token",
    AIRCALL_WEBHOOK_TOKEN: "aircall-production-token",
    AIRCALL_BASE_URL: standins().aircall,
    INGEST_API_KEY: "production-ingest-key-with-enough-entropy",
    RESEND_API_KEY: "re_production_test_key",
    MAIL_FROM: "Reports <reports@example.test>",
    RESEND_BASE_URL: standins().resend,
    AI: { run: async () => ({ response: "A prompt." }) },
  } as Record<string, unknown>;
}

/** A user token of the deployment's Supabase project, signed by the stand-in. */
async function supabaseToken(bindings: Record<string, unknown>, over: JWTPayload = {}) {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: `${bindings.SUPABASE_URL}/auth/v1`,
    aud: "authenticated",
    role: "authenticated",
    sub: crypto.randomUUID(),
    email: uniqueEmail("prod"),
    iat: now,
    exp: now + 3600,
    app_metadata: { provider: "email" },
    user_metadata: {},
    ...over,
  };
  const res = await fetch(`${standins().supabase}/test/sign`, { method: "POST", body: JSON.stringify({ claims }) });
  return ((await res.json()) as { token: string }).token;
}

const without = (bindings: Record<string, unknown>, ...names: string[]) => {
  const copy = { ...bindings };
  for (const name of names) delete copy[name];
  return copy;
};

/** Every development-only route, with a concrete path. */
const LOCAL_ONLY: [string, string][] = [
  ...Object.entries(ROUTES)
    .filter(([route, access]) => access === "local" || route.startsWith("POST /api/local/") || / \/auth\/v1\//.test(route))
    .map(([route]) => {
      const [method, path] = route.split(" ");
      return [method, path.replace(":id", "cs_local_0123456789abcdef").replace(":file", `sim_call_${crypto.randomUUID()}.wav`)] as [string, string];
    }),
  ["GET", "/_local/anything"],
  ["GET", "/api/local/anything"],
];

async function expectLocalRoutesAbsent(bindings: Record<string, unknown>, token?: string) {
  expect(LOCAL_ONLY.length).toBeGreaterThanOrEqual(17);
  for (const [method, path] of LOCAL_ONLY) {
    const res = await call(path, {
      method,
      bindings,
      token,
      ...(method === "GET" ? {} : { json: { email: uniqueEmail(), password: "Secret123", card: "4242424242424242" } }),
    });
    expect(res.status, `${method} ${path}`).toBe(404);
  }
}

const REFUSED_AT_START: [string, string[]][] = [
  ["identity", ["SUPABASE_URL"]],
  ["identity", ["SUPABASE_SERVICE_ROLE_KEY"]],
  ["identity", ["SUPABASE_ANON_KEY"]],
  ["billing", ["STRIPE_SECRET_KEY"]],
  ["billing", ["STRIPE_WEBHOOK_SECRET"]],
];

describe("production: identity and billing are required", () => {
  for (const [port, names] of REFUSED_AT_START) {
    it(`refuses every request without ${names.join(", ")} (${port}), naming it; never the local ${port}`, async () => {
      const bindings = without(production(), ...names);
      for (const path of ["/api/health", "/api/config", "/api/stripe/products", "/auth/v1/settings", "/_local/checkout/c/pay/cs_local_0123456789abcdef", "/"]) {
        const res = await call(path, { bindings });
        expect(res.status, path).toBe(503);
        expect(res.body.code, path).toBe("not_configured");
        for (const name of names) expect(res.body.error, path).toContain(name);
      }
      // The local checkout cannot take a payment, nor the local identity service a sign-up.
      const pay = await call("/api/stripe/create-checkout-session", {
        method: "POST",
        bindings,
        json: { priceId: "price_local_pro_monthly", customerEmail: uniqueEmail() },
      });
      expect(pay.status).toBe(503);
      const signup = await call("/auth/v1/signup", { method: "POST", bindings, json: { email: uniqueEmail(), password: "Secret123" } });
      expect(signup.status).toBe(503);
    });
  }
});

describe("production: scheduled runs without identity or billing", () => {
  it("fail with the same message, running no job", async () => {
    const bindings = { ...env, ...without(production(), "STRIPE_SECRET_KEY") };
    await expect(
      worker.scheduled(createScheduledController({ cron: DAILY_CRON }), bindings as never, createExecutionContext()),
    ).rejects.toThrow(/STRIPE_SECRET_KEY is required in production/);
  });
});

describe("production with every provider configured", () => {
  it("uses only real adapters and serves no local-only route", async () => {
    const bindings = production();
    const health = await call("/api/health", { bindings });
    expect(health.status).toBe(200);
    expect(health.body.providers).toEqual({
      identity: "real",
      mail: "real",
      telephony: "real",
      prompt: "real",
      voice: "real",
      callCentre: "real",
      billing: "real",
    });
    await expectLocalRoutesAbsent(bindings);
    await expectLocalRoutesAbsent(bindings, await supabaseToken(bindings, { app_metadata: { provider: "email" } }));
  });
});

/** The other ports: what removing each one's secrets turns off, and a route that needs it. */
const OPTIONAL: {
  port: string;
  names: string[];
  routes: [string, string, unknown?][];
}[] = [
  {
    port: "telephony",
    names: ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN"],
    routes: [
      ["GET", "/api/twilio/available-numbers?areaCode=212"],
      ["GET", "/api/twilio/health"],
    ],
  },
  {
    port: "voice",
    names: ["VAPI_PRIVATE_KEY", "VAPI_WEBHOOK_SECRET"],
    routes: [
      ["GET", "/api/vapi/voices"],
      ["GET", "/api/vapi/call-logs"],
    ],
  },
  {
    port: "prompt",
    names: ["AI"],
    routes: [
      [
        "POST",
        "/api/generate-prompt",
        {
          name: "Front desk",
          business_description: "A family dental clinic in Miami.",
          services: "Cleanings, fillings, whitening and check-ups.",
          agent_instructions: "Greet callers warmly and book appointments.",
        },
      ],
    ],
  },
  { port: "callCentre", names: ["AIRCALL_API_ID", "AIRCALL_API_TOKEN"], routes: [] },
  // The daily report mail is sent by the nightly job, not by a route (worker/jobs/report-mail.test.ts).
  { port: "mail", names: ["RESEND_API_KEY", "MAIL_FROM"], routes: [] },
];

describe("production: the other providers answer 'not configured', never their local stand-in", () => {
  for (const { port, names, routes } of OPTIONAL) {
    it(`without ${names.join(", ")}: ${port} is reported not configured, its routes answer 503, local routes 404`, async () => {
      const bindings = without(production(), ...names);
      const health = await call("/api/health", { bindings });
      expect(health.status).toBe(200);
      expect(health.body.providers[port]).toBe("not_configured");
      for (const [other, kind] of Object.entries(health.body.providers)) if (other !== port) expect(kind, other).toBe("real");

      const token = await supabaseToken(bindings);
      for (const [method, path, json] of routes) {
        const res = await call(path, { method, bindings, token, ...(json ? { json } : {}) });
        expect(res.status, path).toBe(503);
        expect(res.body.code, path).toBe("not_configured");
        expect(res.body.error, path).toMatch(new RegExp(names[0]));
      }
      await expectLocalRoutesAbsent(bindings);
      await expectLocalRoutesAbsent(bindings, token);
    });
  }

  it("without Aircall API credentials, its webhook still follows AIRCALL_WEBHOOK_TOKEN (refused without it)", async () => {
    const bindings = without(production(), "AIRCALL_API_ID", "AIRCALL_API_TOKEN", "AIRCALL_WEBHOOK_TOKEN");
    const res = await call("/api/webhooks/aircall", {
      method: "POST",
      bindings,
      json: { resource: "call", event: "call.ended", timestamp: 1, token: "local-development-aircall-token", data: { id: 1 } },
    });
    expect(res.status).toBe(401);
  });
});

describe("development and test mode keep their local adapters", () => {
  it("reports every port local and serves the local routes", async () => {
    const health = await call("/api/health");
    expect(health.body.providers).toEqual({
      identity: "local",
      mail: "local",
      telephony: "local",
      prompt: "local",
      voice: "local",
      callCentre: "local",
      billing: "local",
    });
    expect((await call("/api/local/mailbox")).status).toBe(200);
    expect((await call("/auth/v1/settings")).status).toBe(200);
  });
});
