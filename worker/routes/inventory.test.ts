// Every API route, found from the app itself, is checked for the two rules no route may break:
// signed out means 401 unless the route is deliberately public, and bad input is a 4xx JSON
// answer, never a 500. A new route is covered the moment it is mounted.
import { describe, expect, it } from "vitest";
import { app } from "../app";
import { call, signUpAndSignIn } from "../test/helpers";

/** Routes that answer without a session, each for a stated reason. */
const PUBLIC_ROUTES = new Set([
  "GET /api/health", // monitoring
  "GET /api/config", // the SPA needs it before anyone signs in
  "POST /api/admin/public/user-exists", // plan panel, rate limited
  "GET /api/local/mailbox", // local mode only, never in production
  "POST /api/webhooks/vapi", // authenticated by its secret or signature instead
  "POST /api/webhooks/aircall", // authenticated by the token in its body instead
  "POST /api/ingest/appointments", // store systems, authenticated by the ingestion key instead
  "POST /api/ingest/leads", // store systems, authenticated by the ingestion key instead
  "GET /api/vapi/sim-recordings/:file", // generated tones of the local simulator; <audio> sends no token
  "POST /api/admin/public/update-user-password", // a buyer's first password: proof is the paid session, rate limited
  "POST /api/admin/public/resend-activation", // a buyer without a password yet, rate limited, answers alike
  "GET /api/stripe/config", // publishable billing configuration
  "GET /api/stripe/products", // the plans a visitor picks from
  "POST /api/stripe/create-checkout-session", // a visitor's checkout, rate limited
  "POST /api/stripe/start-trial", // a visitor's trial, rate limited
  "GET /api/stripe/checkout-session/:sessionId", // the success page before any account exists; the id is the secret
  "POST /api/leads/leads", // the checkout's lead form, rate limited
  "POST /api/webhooks/stripe", // authenticated by Stripe's signature instead
]);

/** Routes that read no body at all: any body is ignored, so they may succeed; they must still never 500. */
const BODYLESS_ROUTES = new Set(["POST /api/create-default-agent", "POST /api/stripe/portal-session"]);

const apiRoutes = [
  ...new Map(
    app.routes
      .filter((r) => r.path.startsWith("/api/") && r.method !== "ALL" && !r.path.includes("*"))
      .map((r) => [`${r.method} ${r.path}`, { method: r.method, path: r.path }]),
  ).values(),
];

/** A concrete URL for a route pattern: numeric ids where the path names an id. */
const concrete = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => (/id$/i.test(name) ? "999999" : "x-1"));

describe("route inventory", () => {
  it("finds the routes of every mounted sub-app", () => {
    const keys = apiRoutes.map((r) => `${r.method} ${r.path}`);
    for (const expected of ["GET /api/agents", "POST /api/twilio/buy", "GET /api/call-logs", "POST /api/webhooks/vapi", "GET /api/usage-stats"]) {
      expect(keys).toContain(expected);
    }
    expect(apiRoutes.length).toBeGreaterThan(25);
  });

  it("answers 401 JSON to a signed-out caller on every route that is not deliberately public", async () => {
    const open: string[] = [];
    for (const { method, path } of apiRoutes) {
      const key = `${method} ${path}`;
      if (PUBLIC_ROUTES.has(key)) continue;
      const res = await call(concrete(path), { method, ...(method === "GET" ? {} : { json: {} }) });
      if (res.status !== 401 || res.body.code !== "unauthorized") open.push(`${key} -> ${res.status}`);
    }
    expect(open).toEqual([]);
  });

  it("answers malformed and wrongly typed input with a 4xx JSON error, never a 500", async () => {
    const session = await signUpAndSignIn();
    const failures: string[] = [];
    const bodies: [string, RequestInit & { json?: unknown }][] = [
      ["malformed JSON", { body: "{not json", headers: { "content-type": "application/json" } }],
      ["wrong types", { json: { email: 42, password: [], name: {}, phoneNumber: true, agentId: "x", phoneNumberId: -1 } }],
      ["an array", { json: [1, 2, 3] }],
    ];
    for (const { method, path } of apiRoutes) {
      if (method === "GET" || method === "DELETE") continue;
      if (path === "/api/webhooks/vapi") continue; // refuses unsigned bodies with 401 before parsing (tested on its own)
      if (path === "/api/webhooks/aircall") continue; // refuses bodies without its token with 401 (tested on its own)
      for (const [label, init] of bodies) {
        const res = await call(concrete(path), { method, token: session.accessToken, ...init });
        const ok = BODYLESS_ROUTES.has(`${method} ${path}`)
          ? res.status < 500
          : res.status >= 400 && res.status < 500 && typeof res.body.error === "string";
        if (!ok) failures.push(`${method} ${path} (${label}) -> ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("answers bad query strings on GET routes with 4xx or a normal answer, never a 500", async () => {
    const session = await signUpAndSignIn();
    const failures: string[] = [];
    for (const { method, path } of apiRoutes) {
      if (method !== "GET") continue;
      const url = `${concrete(path)}?limit=-5&cursor=%%%&areaCode=abc&email=${"x".repeat(300)}`;
      const res = await call(url, { token: session.accessToken });
      if (res.status >= 500) failures.push(`${path} -> ${res.status}`);
    }
    expect(failures).toEqual([]);
  });
});
