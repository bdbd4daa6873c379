// The public API's authorization matrix: every keyed /v1 route (shared/api/v1-routes.ts) × {anonymous,
// dashboard session, wrong key, revoked key, other account's key, key without the route's scope, the
// owner's key}, with the status each cell must have. Ids in the paths name the owner's resources, so
// another account's key must find nothing (404) where the owner's finds them. The table is printed;
// a cell that lets a caller through where it must not is a leak. The document at /v1/openapi.json
// names every route with its scope.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathOf } from "@shared/api/declare";
import { V1_ROUTES, type V1RouteDeclaration } from "@shared/api/v1-routes";
import { API_KEY_SCOPES } from "@shared/schemas/api-keys";
import { insertAgent, insertCallLogs } from "../test/factories";
import { call, signUpAndSignIn } from "../test/helpers";
import { servedRoutes } from "./routes";

const AUDIENCES = ["anonymous", "session", "wrong key", "revoked key", "other account", "missing scope", "owner"] as const;
type Audience = (typeof AUDIENCES)[number];

let ownerSession: string;
let ownerKey: string;
let revokedKey: string;
let otherKey: string;
/** A key per scope, holding every scope but that one. */
const withoutScope = new Map<string, string>();
let agentId: number;
let callId: string;

async function keyOf(token: string, scopes: readonly string[], name = "Matrix") {
  const res = await call("/api/api-keys", { method: "POST", token, json: { name, scopes } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { secret: res.body.secret as string, id: res.body.key.id as string };
}

beforeAll(async () => {
  const [owner, other] = await Promise.all([signUpAndSignIn(), signUpAndSignIn()]);
  ownerSession = owner.accessToken;
  ownerKey = (await keyOf(owner.accessToken, API_KEY_SCOPES)).secret;
  otherKey = (await keyOf(other.accessToken, API_KEY_SCOPES)).secret;
  const revoked = await keyOf(owner.accessToken, API_KEY_SCOPES, "Revoked");
  expect((await call(`/api/api-keys/${revoked.id}`, { method: "DELETE", token: owner.accessToken })).status).toBe(200);
  revokedKey = revoked.secret;
  for (const scope of API_KEY_SCOPES) {
    withoutScope.set(scope, (await keyOf(owner.accessToken, API_KEY_SCOPES.filter((s) => s !== scope), `Without ${scope}`)).secret);
  }
  // No assistant: activation and deactivation are refused by the agent rules, not by authorization.
  const agent = await insertAgent(owner.userId, { vapiAssistantId: null });
  agentId = agent.id;
  const [row] = await insertCallLogs(owner.userId, 1);
  callId = row.callId;
});

const concrete = (path: string) =>
  path
    .replace(/\/calls\/:id/, `/calls/${encodeURIComponent(callId)}`)
    .replace(/\/agents\/:id/, `/agents/${agentId}`)
    .replace(/:(\w+)/g, "x");
const QUERY: Record<string, string> = { "/v1/counts": "?start_date=2026-03-01&end_date=2026-03-05" };

function tokenOf(audience: Audience, scope: string): string | undefined {
  switch (audience) {
    case "anonymous":
      return undefined;
    case "session":
      return ownerSession;
    case "wrong key":
      return `vao_test_${"z".repeat(40)}`;
    case "revoked key":
      return revokedKey;
    case "other account":
      return otherKey;
    case "missing scope":
      return withoutScope.get(scope);
    case "owner":
      return ownerKey;
  }
}

/** The statuses a cell may have: a route reading the owner's resource by id answers 404 to another account. */
function expected(audience: Audience, byId: boolean): number[] | "allowed" {
  switch (audience) {
    case "anonymous":
    case "session":
    case "wrong key":
    case "revoked key":
      return [401];
    case "missing scope":
      return [403];
    case "other account":
      return byId ? [404] : "allowed";
    case "owner":
      return "allowed";
  }
}

const keyed = Object.entries(V1_ROUTES as Record<string, V1RouteDeclaration>).filter(([, d]) => d.scope);
const results = new Map<string, Partial<Record<Audience, number>>>();
let leaks = 0;

describe("public API authorization matrix", () => {
  it("covers every keyed /v1 route the app serves", () => {
    const served = servedRoutes().filter((r) => pathOf(r).startsWith("/v1/"));
    const open = Object.entries(V1_ROUTES as Record<string, V1RouteDeclaration>).filter(([, d]) => !d.scope).map(([k]) => k);
    expect(served.filter((r) => !open.includes(r)).sort()).toEqual(keyed.map(([k]) => k).sort());
  });

  for (const [route, declared] of keyed) {
    it(`${route} (${declared.scope})`, async () => {
      const [method, path] = route.split(" ");
      const byId = path.includes(":id");
      const row: Partial<Record<Audience, number>> = {};
      for (const audience of AUDIENCES) {
        const want = expected(audience, byId);
        const res = await call(`${concrete(path)}${QUERY[path] ?? ""}`, { method, token: tokenOf(audience, declared.scope!) });
        row[audience] = res.status;
        if (want !== "allowed" && res.status < 400) leaks += 1;
        expect(res.status, `${route} as ${audience}: ${JSON.stringify(res.body)}`).not.toBe(500);
        if (want === "allowed") expect([401, 402, 403, 404, 429], `${route} as ${audience}: ${JSON.stringify(res.body)}`).not.toContain(res.status);
        else expect(want, `${route} as ${audience}: ${JSON.stringify(res.body)}`).toContain(res.status);
        if (audience === "missing scope") expect(res.body.error.message).toContain(declared.scope);
      }
      results.set(route, row);
    });
  }

  it("documents every /v1 route with its scope in the OpenAPI 3.1 document", async () => {
    const res = await call("/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    const documented = new Map<string, string | undefined>();
    for (const [path, item] of Object.entries(res.body.paths as Record<string, Record<string, { "x-scope"?: string }>>)) {
      for (const [method, operation] of Object.entries(item)) documented.set(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`, operation["x-scope"]);
    }
    const served = servedRoutes().filter((r) => pathOf(r).startsWith("/v1/"));
    expect(served.filter((r) => !documented.has(r))).toEqual([]);
    for (const [route, declared] of keyed) expect(documented.get(route), route).toBe(declared.scope);
  });
});

afterAll(() => {
  const width = Math.max(...[...results.keys()].map((r) => r.length));
  const header = `${"route".padEnd(width)} | ${AUDIENCES.map((a) => a.padEnd(13)).join(" | ")}`;
  const lines = [...results].map(([route, row]) => `${route.padEnd(width)} | ${AUDIENCES.map((a) => String(row[a] ?? "·").padEnd(13)).join(" | ")}`);
  console.log(`\nPublic API authorization matrix, ${results.size} routes, leaks ${leaks}\n${header}\n${lines.join("\n")}`);
});
