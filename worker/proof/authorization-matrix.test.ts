// The authorization matrix: every route of the app × {anonymous, expired token, other account,
// account without the flag, non-admin, admin}, with the status each cell must have. The table of
// expectations must name every route the app serves, so a new route cannot ship unclassified.
// The matrix is printed as a table; a cell that lets a caller through where it must not is a leak.
// It probes the ids in paths; the ids a route takes in its body or query are probed across accounts
// in ./body-ids.test.ts.
import { env } from "cloudflare:workers";
import { decodeJwt, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTES as DECLARED } from "@shared/api/routes";
import { alertHistory, alertRules, alertRuleState, apiKeys, webhookDeliveries, webhookEndpoints } from "../db/schema";
import { parseConfig } from "../env";
import { localAuthSecret } from "../providers";
import { insertAgent, insertRows, plainAlertRule } from "../test/factories";
import { call, shardOf, signUpAndSignIn } from "../test/helpers";
import { ROUTES, servedRoutes, type Access } from "./routes";

const AUDIENCES = ["anonymous", "expired", "other account", "no flag", "non-admin", "admin"] as const;
type Audience = (typeof AUDIENCES)[number];

type Session = { accessToken: string; userId: string };
let customer: Session;
let owner: Session;
let staff: Session;
let admin: Session;
let expiredToken: string;
let ownersAgentId: number;
let ownersAssistantId: string;
let ownersRuleId: number;
let ownersAlertId: number;
let ownersKeyId: string;
let ownersEndpointId: string;
let ownersDeliveryId: string;

async function expire(token: string) {
  const secret = new TextEncoder().encode(localAuthSecret(parseConfig(env as unknown as Record<string, unknown>)));
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...decodeJwt(token), iat: now - 7200, exp: now - 60 }).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(secret);
}

beforeAll(async () => {
  customer = await signUpAndSignIn();
  owner = await signUpAndSignIn();
  staff = await signUpAndSignIn({ appMetadata: { shopwindows_info: true, call_app: true } });
  admin = await signUpAndSignIn({ appMetadata: { is_admin: true, shopwindows_info: true, call_app: true } });
  expiredToken = await expire(customer.accessToken);
  const agent = await insertAgent(owner.userId, { vapiAssistantId: `asst_${crypto.randomUUID()}` });
  ownersAgentId = agent.id;
  ownersAssistantId = agent.vapiAssistantId!;
  // The owner's own resource behind every other owned id: a probe with a made-up id would answer 404
  // whether or not the route checks its owner.
  const now = new Date().toISOString();
  // The owner's alerts and webhooks are on its shard (decision 078).
  const shard = await shardOf(owner.userId);
  const [rule] = await insertRows(alertRules, [{ userId: owner.userId, ...plainAlertRule("Owner's rule"), extraEmails: "[]" }], shard);
  ownersRuleId = rule.id;
  await insertRows(alertRuleState, [{ ruleId: rule.id, userId: owner.userId, since: now }], shard);
  const [alert] = await insertRows(alertHistory, [
    {
      userId: owner.userId,
      ruleId: rule.id,
      ruleName: rule.name,
      metric: rule.metric,
      scopeKind: "all",
      severity: rule.severity,
      comparison: rule.comparison,
      threshold: rule.threshold,
      windowMinutes: rule.windowMinutes,
      value: 1,
      windowStart: now,
      windowEnd: now,
      firedAt: now,
      runId: "matrix",
    },
  ], shard);
  ownersAlertId = alert.id;
  ownersKeyId = `key_${crypto.randomUUID().replace(/-/g, "")}`;
  await insertRows(apiKeys, [{ id: ownersKeyId, userId: owner.userId, name: "owner's key", scopes: [], prefix: "vao_matrix", secretHash: crypto.randomUUID() }]);
  ownersEndpointId = `we_${crypto.randomUUID().replace(/-/g, "")}`;
  await insertRows(webhookEndpoints, [{ id: ownersEndpointId, userId: owner.userId, url: "https://example.com/hook", events: "[]", secret: "whsec_matrix" }], shard);
  ownersDeliveryId = `msg_${crypto.randomUUID().replace(/-/g, "")}`;
  await insertRows(webhookDeliveries, [
    { id: ownersDeliveryId, endpointId: ownersEndpointId, userId: owner.userId, eventType: "call.ended", payload: "{}", status: "failed", attempts: 1, lastAttemptAt: now },
  ], shard);
});


/** Bodies that pass validation, for the routes whose body would otherwise be refused before the owner is checked. */
const BODIES: Record<string, unknown> = {
  // A body any account may save, so a probe reaches the owner check.
  "PUT /api/alerts/rules/:id": plainAlertRule("Owner's rule"),
};

/** A concrete path for a route: ids name the owner's resources (another account's, for the callers). */
function concrete(route: string) {
  const path = route.slice(route.indexOf(" ") + 1);
  const id = path.startsWith("/api/alerts/rules/")
    ? String(ownersRuleId)
    : path.startsWith("/api/alerts/history/")
      ? String(ownersAlertId)
      : path.startsWith("/api/api-keys/")
        ? ownersKeyId
        : String(ownersAgentId);
  return path
    .replace(":id", id)
    .replace(":endpointId", ownersEndpointId)
    .replace(":deliveryId", ownersDeliveryId)
    .replace(":assistantId", ownersAssistantId)
    .replace(":call_id", `owners-call-${ownersAgentId}`)
    .replace(":file", "sim_call_nothing.wav");
}

/** The path parameters of a route ("/api/agents/:id" → ["id"]). */
const pathParams = (route: string) => route.split(/[ /]/).filter((s) => s.startsWith(":")).map((s) => s.slice(1));

function tokenOf(audience: Audience): string | undefined {
  switch (audience) {
    case "anonymous":
      return undefined;
    case "expired":
      return expiredToken;
    case "other account":
    case "no flag":
      return customer.accessToken;
    case "non-admin":
      return staff.accessToken;
    case "admin":
      return admin.accessToken;
  }
}

/** The statuses a cell may have; null when the cell does not apply to the route. */
function expected(access: Access, audience: Audience): number[] | "allowed" | null {
  const signedIn = audience !== "anonymous" && audience !== "expired";
  switch (access) {
    case "public":
    case "local":
      return audience === "anonymous" ? "allowed" : null;
    case "secret":
      // A user token is not the key: every caller without it is refused (Stripe's own answer to a
      // missing signature is 400).
      return audience === "anonymous" || audience === "admin" ? [400, 401] : null;
    case "user":
      return !signedIn ? [401] : audience === "no flag" || audience === "admin" ? "allowed" : null;
    case "owned":
      // Another account's resource: as if it did not exist (404), or refused outright (403).
      return !signedIn ? [401] : audience === "other account" || audience === "admin" ? [403, 404] : null;
    case "ownedOrAdmin":
      return !signedIn ? [401] : audience === "other account" ? [403, 404] : audience === "admin" ? "allowed" : null;
    case "shopwindows":
    case "callApp":
      return !signedIn ? [401] : audience === "no flag" ? [403] : audience === "non-admin" || audience === "admin" ? "allowed" : null;
    case "admin":
      return !signedIn ? [401] : audience === "no flag" || audience === "non-admin" ? [403] : audience === "admin" ? "allowed" : null;
    case "key":
      // The public API takes an API key only: no dashboard session opens it, an admin's included.
      // Its keyed cells (wrong, revoked, other account's key, missing scope) are in ./public-api-matrix.test.ts.
      return [401];
  }
}

const results = new Map<string, Partial<Record<Audience, number>>>();
/** Cells that had to refuse and answered with success instead. */
let leaks = 0;

describe("authorization matrix", () => {
  it("classifies every route the app serves, and names no route it does not serve", () => {
    const served = servedRoutes();
    expect(served.filter((r) => !(r in ROUTES)), "routes without an access rule").toEqual([]);
    expect(Object.keys(ROUTES).filter((r) => !served.includes(r)), "rules for routes that do not exist").toEqual([]);
  });

  it("declares every route that names an account's resource by id owned, so its cross-account cell is probed", () => {
    // A signed-in route with an id in its path reads or changes one resource: declared `user`, the
    // matrix below would only check that a signed-in caller gets in, never that another account's
    // id is refused.
    const userWithId = Object.entries(DECLARED)
      .filter(([route, declared]) => declared.access === "user" && pathParams(route).length > 0)
      .map(([route]) => route);
    expect(userWithId, "routes with an id declared `user`: declare them `owned` (or `ownedOrAdmin`)").toEqual([]);
  });

  it("probes every owned route with a real resource of the owner", () => {
    const unresolved = Object.entries(ROUTES)
      .filter(([, access]) => access === "owned" || access === "ownedOrAdmin")
      .filter(([route]) => concrete(route).includes(":"))
      .map(([route]) => route);
    expect(unresolved, "owned routes whose id the matrix cannot fill with the owner's resource").toEqual([]);
  });

  for (const [route, access] of Object.entries(ROUTES)) {
    it(`${route} (${access})`, async () => {
      const [method] = route.split(" ");
      const row: Partial<Record<Audience, number>> = {};
      for (const audience of AUDIENCES) {
        const want = expected(access, audience);
        if (want === null) continue;
        const init: Parameters<typeof call>[1] = { method, token: tokenOf(audience) };
        if (method !== "GET" && method !== "DELETE") init.json = BODIES[route] ?? {};
        const res = await call(concrete(route), init);
        row[audience] = res.status;
        if (want !== "allowed" && res.status < 400) leaks += 1;
        expect(res.status, `${route} as ${audience}: ${JSON.stringify(res.body)}`).not.toBe(500);
        if (want === "allowed") expect([401, 403], `${route} as ${audience}`).not.toContain(res.status);
        else expect(want, `${route} as ${audience}: ${JSON.stringify(res.body)}`).toContain(res.status);
      }
      results.set(route, row);
    });
  }
});

afterAll(() => {
  const width = Math.max(...[...results.keys()].map((r) => r.length));
  const header = `${"route".padEnd(width)} | ${AUDIENCES.map((a) => a.padEnd(13)).join(" | ")}`;
  const lines = [...results].map(([route, row]) => `${route.padEnd(width)} | ${AUDIENCES.map((a) => String(row[a] ?? "·").padEnd(13)).join(" | ")}`);
  console.log(`\nAuthorization matrix (status per cell; · = not applicable), ${results.size} routes, leaks ${leaks}\n${header}\n${lines.join("\n")}`);
});
