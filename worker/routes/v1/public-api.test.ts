// The public API (/v1) and its keys (docs/api.md, docs/product/api-access.md): keys created, listed
// and revoked on the dashboard, with their prefix, hash, cap and audit entries; key authentication
// with its scopes, revocation, plan lapse and rate limit; and the routes' answers, each against its
// declared schema (test/helpers.ts call()).
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { API_KEY_LIMIT, API_KEY_SCOPES, type ApiKeyScope } from "@shared/schemas/api-keys";
import { app } from "../../app";
import { adminAuditLog, apiKeys, callLogs, subscriptions } from "../../db/schema";
import { putCallText } from "../../services/call-text";
import { D1Timer } from "../../db/timed-d1";
import { answerProblem } from "../../test/declared-answers";
import { API_KEY_RATE_LIMIT, hashSecret, newSecret } from "../../services/api-keys";
import { insertAgent, insertCallLogs } from "../../test/factories";
import { OFFLINE_NOTE } from "./docs";
import { call, db, shardOf, signUpAndSignIn, subscribe } from "../../test/helpers";

type Session = Awaited<ReturnType<typeof signUpAndSignIn>>;

/** Creates a key on the dashboard as this session; returns its secret and id. */
async function createKey(session: Session, scopes: readonly ApiKeyScope[] = API_KEY_SCOPES, name = "Integration") {
  const res = await call("/api/api-keys", {
    method: "POST",
    token: session.accessToken,
    json: { name, scopes },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return {
    secret: res.body.secret as string,
    id: res.body.key.id as string,
    body: res.body,
  };
}

let pro: Session;
let other: Session;
let proKey: string;
let otherKey: string;
const DAY = "2026-03-10";

beforeAll(async () => {
  [pro, other] = await Promise.all([signUpAndSignIn(), signUpAndSignIn()]);
  proKey = (await createKey(pro)).secret;
  otherKey = (await createKey(other)).secret;
  const agent = await insertAgent(pro.userId, {
    vapiAssistantId: `asst_${crypto.randomUUID()}`,
  });
  await insertCallLogs(
    pro.userId,
    5,
    { agentId: agent.id, direction: "inbound" },
    {
      agent: {
        vapiAssistantId: agent.vapiAssistantId,
        store: null,
        type: "inbound",
      },
      day: DAY,
    },
  );
  await insertCallLogs(
    pro.userId,
    3,
    { agentId: agent.id, direction: "outbound" },
    {
      agent: {
        vapiAssistantId: agent.vapiAssistantId,
        store: null,
        type: "outbound",
      },
      day: DAY,
    },
  );
  await insertCallLogs(other.userId, 4, {}, { day: DAY });
});

describe("API keys", () => {
  it("are shown once with the environment's prefix and stored only as their SHA-256", async () => {
    const { secret, id, body } = await createKey(pro, ["calls:read"], "Hashing");
    expect(secret).toMatch(/^vao_test_[0-9A-Za-z]{40}$/);
    expect(body.key.prefix).toBe(secret.slice(0, "vao_test_".length + 4));
    const [row] = await db().select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(row.secretHash).toBe(await hashSecret(secret));
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(secret.slice(9));
    // The list never answers the secret.
    const list = await call("/api/api-keys", { token: pro.accessToken });
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(list.body.keys.find((k: { id: string }) => k.id === id)).toMatchObject({
      name: "Hashing",
      scopes: ["calls:read"],
      lastUsedAt: null,
    });
    expect(newSecret("production")).toMatch(/^vao_live_/);
    expect(newSecret("development")).toMatch(/^vao_test_/);
  });

  it("are at most ten live per account; a revoked one frees its place", async () => {
    const session = await signUpAndSignIn();
    const ids: string[] = [];
    for (let i = 0; i < API_KEY_LIMIT; i++) ids.push((await createKey(session, ["counts:read"], `Key ${i}`)).id);
    const eleventh = await call("/api/api-keys", {
      method: "POST",
      token: session.accessToken,
      json: { name: "One more", scopes: ["counts:read"] },
    });
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.code).toBe("api_key_limit_reached");
    expect(
      await call(`/api/api-keys/${ids[0]}`, {
        method: "DELETE",
        token: session.accessToken,
      }),
    ).toMatchObject({ status: 200 });
    await createKey(session, ["counts:read"], "In its place");
  });

  it("go into the audit log on creation and revocation", async () => {
    const session = await signUpAndSignIn();
    const { id } = await createKey(session, ["calls:read"], "Audited");
    await call(`/api/api-keys/${id}`, {
      method: "DELETE",
      token: session.accessToken,
    });
    const rows = await db().select().from(adminAuditLog).where(eq(adminAuditLog.actorId, session.userId));
    expect(rows.map((r) => [r.action, r.detail.key_id, r.detail.name])).toEqual([
      ["create_api_key", id, "Audited"],
      ["revoke_api_key", id, "Audited"],
    ]);
  });

  it("are refused to Basic, trial and plan-less accounts with the plan refusal's 402; admins create them", async () => {
    const basic = await signUpAndSignIn({ plan: "basic" });
    const none = await signUpAndSignIn({ plan: null });
    const trial = await signUpAndSignIn({ plan: null });
    await subscribe(trial.userId, "pro", "trialing");
    for (const session of [basic, none, trial]) {
      const res = await call("/api/api-keys", {
        method: "POST",
        token: session.accessToken,
        json: { name: "Nope", scopes: ["calls:read"] },
      });
      expect(res.status).toBe(402);
      expect(res.body).toMatchObject({
        code: "subscription_required",
        upgradeUrl: "/buy",
      });
      expect((await call("/api/api-keys", { token: session.accessToken })).body).toMatchObject({ keys: [], allowed: false });
    }
    const admin = await signUpAndSignIn({
      plan: null,
      appMetadata: { is_admin: true },
    });
    await createKey(admin, ["agents:read"], "Admin's");
  });

  it("are another account's to revoke only: 404", async () => {
    const { id } = await createKey(pro, ["calls:read"], "Mine");
    expect(
      (
        await call(`/api/api-keys/${id}`, {
          method: "DELETE",
          token: other.accessToken,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(`/api/api-keys/${id}`, {
          method: "DELETE",
          token: pro.accessToken,
        })
      ).status,
    ).toBe(200);
  });

  it("validate name and scopes, naming the field", async () => {
    const res = await call("/api/api-keys", {
      method: "POST",
      token: pro.accessToken,
      json: { name: "x", scopes: ["calls:write"] },
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("scopes.0");
    const blank = await call("/api/api-keys", {
      method: "POST",
      token: pro.accessToken,
      json: { name: " ", scopes: ["calls:read"] },
    });
    expect(blank.body.field).toBe("name");
  });
});

describe("key authentication on /v1", () => {
  it("refuses no key, a wrong key and a dashboard session token with 401 in the /v1 error shape", async () => {
    for (const token of [undefined, "vao_test_wrongwrongwrongwrongwrongwrongwrong12", pro.accessToken]) {
      const res = await call("/v1/calls", { token });
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: "unauthorized" });
      expect(res.body.error.request_id).toEqual(expect.any(String));
    }
  });

  it("never works on the dashboard's /api", async () => {
    expect((await call("/api/profile", { token: proKey })).status).toBe(401);
    expect((await call("/api/api-keys", { token: proKey })).status).toBe(401);
  });

  it("refuses a revoked key from the next request", async () => {
    const { secret, id } = await createKey(pro, ["calls:read"], "Soon revoked");
    expect((await call("/v1/calls", { token: secret })).status).toBe(200);
    await call(`/api/api-keys/${id}`, {
      method: "DELETE",
      token: pro.accessToken,
    });
    const res = await call("/v1/calls", { token: secret });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/revoked/);
  });

  it("refuses a route whose scope the key lacks with 403 naming the scope", async () => {
    const { secret } = await createKey(pro, ["counts:read"], "Counts only");
    const res = await call("/v1/calls", { token: secret });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: "insufficient_scope",
      required_scope: "calls:read",
    });
    expect(res.body.error.message).toContain("calls:read");
    expect(
      (
        await call(`/v1/counts?start_date=${DAY}&end_date=${DAY}`, {
          token: secret,
        })
      ).status,
    ).toBe(200);
  });

  it("answers 402 once the plan lapses, and works again after an upgrade", async () => {
    const session = await signUpAndSignIn();
    const { secret } = await createKey(session, ["calls:read"], "Lapsing");
    expect((await call("/v1/calls", { token: secret })).status).toBe(200);
    await db().update(subscriptions).set({ status: "canceled" }).where(eq(subscriptions.userId, session.userId));
    const lapsed = await call("/v1/calls", { token: secret });
    expect(lapsed.status).toBe(402);
    expect(lapsed.body.error).toMatchObject({
      code: "subscription_required",
      upgrade_url: "/buy",
    });
    // A Basic plan does not include the API either.
    await subscribe(session.userId, "basic");
    expect((await call("/v1/calls", { token: secret })).status).toBe(402);
    await db()
      .insert(subscriptions)
      .values({
        id: `sub_upgrade_${session.userId}`,
        userId: session.userId,
        customerId: "cus_x",
        priceId: "price_pro",
        productName: "Pro",
        status: "active",
      });
    expect((await call("/v1/calls", { token: secret })).status).toBe(200);
  });

  it("sends the RateLimit headers on every answer and 429 with Retry-After beyond the limit", async () => {
    const session = await signUpAndSignIn();
    const { secret } = await createKey(session, ["calls:read"], "Busy");
    // One instant for every request, so they all fall in one window of the limit.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-10T15:00:10Z"));
    try {
      await busyKey(secret);
    } finally {
      vi.useRealTimers();
    }
  });

  it("records the key's last use after the answer", async () => {
    const session = await signUpAndSignIn();
    const { secret, id } = await createKey(session, ["agents:read"], "Used");
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request("http://localhost/v1/agents", {
        headers: { authorization: `Bearer ${secret}` },
      }),
      env,
      ctx,
    );
    expect(res.status).toBe(200);
    await waitOnExecutionContext(ctx);
    const [row] = await db().select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(row.lastUsedAt).toEqual(expect.any(String));
  });
});

/** Spends a key's whole minute: the headers on each answer, then the 429. */
async function busyKey(secret: string) {
  const first = await call("/v1/calls", { token: secret });
  expect(first.headers.get("ratelimit-limit")).toBe(String(API_KEY_RATE_LIMIT.limit));
  const remaining = Number(first.headers.get("ratelimit-remaining"));
  expect(remaining).toBeLessThan(API_KEY_RATE_LIMIT.limit);
  expect(Number(first.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
  // A refusal (here a bad query) carries them too.
  const refused = await call("/v1/calls?limit=0", { token: secret });
  expect(refused.status).toBe(400);
  expect(refused.body.error.field).toBe("limit");
  expect(Number(refused.headers.get("ratelimit-remaining"))).toBe(remaining - 1);
  let last = refused;
  for (let i = 0; i <= remaining; i++) last = await call("/v1/calls", { token: secret });
  expect(last.status).toBe(429);
  expect(last.body.error.code).toBe("rate_limited");
  expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(last.headers.get("ratelimit-remaining")).toBe("0");
  expect(Number(last.headers.get("retry-after"))).toBe(50);
}

describe("/v1 routes", () => {
  it("list the key's own calls with cursor paging and filters", async () => {
    const first = await call("/v1/calls?limit=3", { token: proKey });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(3);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const seen = [...first.body.data];
    let cursor = first.body.next_cursor;
    while (cursor) {
      const page = await call(`/v1/calls?limit=3&cursor=${encodeURIComponent(cursor)}`, { token: proKey });
      seen.push(...page.body.data);
      cursor = page.body.next_cursor;
    }
    expect(seen).toHaveLength(8);
    expect(new Set(seen.map((c) => c.id)).size).toBe(8);
    expect(seen.every((c) => /Z$/.test(c.started_at))).toBe(true);
    const inbound = await call("/v1/calls?direction=inbound&limit=100", {
      token: proKey,
    });
    expect(inbound.body.data).toHaveLength(5);
    const none = await call("/v1/calls?from=2030-01-01T00:00:00Z", {
      token: proKey,
    });
    expect(none.body.data).toEqual([]);
    const bad = await call("/v1/calls?direction=sideways", { token: proKey });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      code: "validation_error",
      field: "direction",
    });
  });

  it("read one call whole; another account's call is not found", async () => {
    const list = await call("/v1/calls?limit=1", { token: proKey });
    const id = list.body.data[0].id;
    const one = await call(`/v1/calls/${encodeURIComponent(id)}`, {
      token: proKey,
    });
    expect(one.status).toBe(200);
    expect(one.body).toHaveProperty("transcript");
    expect(one.body).toHaveProperty("recording_url");
    expect((await call(`/v1/calls/${encodeURIComponent(id)}`, { token: otherKey })).status).toBe(404);
  });

  it("read one call's transcript from R2, and a call written before the move from its row (decision 077)", async () => {
    const [inR2, legacy] = await insertCallLogs(pro.userId, 2, { transcript: null, startTime: "2020-01-01T00:00:00.000Z" });
    const turns = [{ role: "assistant", content: "Hello from R2" }];
    await putCallText(env.CALL_TEXT, pro.userId, inR2.callId, { transcript: turns });
    const shard = await shardOf(pro.userId);
    await shard.update(callLogs).set({ transcript: "AI: Hello from the row." }).where(eq(callLogs.id, legacy.id));
    const one = await call(`/v1/calls/${encodeURIComponent(inR2.callId)}`, { token: proKey });
    expect(one.body.transcript).toEqual(turns);
    const old = await call(`/v1/calls/${encodeURIComponent(legacy.callId)}`, { token: proKey });
    expect(old.body.transcript).toBe("AI: Hello from the row.");
    await shard.delete(callLogs).where(inArray(callLogs.id, [inR2.id, legacy.id]));
  });

  it("count with the dashboard's engine: the same figures as the dashboard", async () => {
    for (const [direction, callType] of [
      ["both", "Both"],
      ["inbound", "Inbound"],
      ["outbound", "Outbound"],
    ]) {
      const api = await call(`/v1/counts?start_date=${DAY}&end_date=${DAY}&direction=${direction}`, { token: proKey });
      const dashboard = await call(`/api/call-logs/count?startDate=${DAY}&endDate=${DAY}&callType=${callType}`, { token: pro.accessToken });
      expect(api.status).toBe(200);
      expect(api.body.total).toBe(dashboard.body.total);
    }
    const both = await call(`/v1/counts?start_date=${DAY}&end_date=${DAY}`, {
      token: proKey,
    });
    expect(both.body.total).toBe(8);
    const theirs = await call(`/v1/counts?start_date=${DAY}&end_date=${DAY}`, {
      token: otherKey,
    });
    expect(theirs.body.total).toBe(4);
  });

  it("list, read, deactivate and activate the key's own agents", async () => {
    const list = await call("/v1/agents", { token: proKey });
    expect(list.status).toBe(200);
    const agent = list.body.data[0];
    expect(agent.id).toMatch(/^\d+$/);
    expect((await call(`/v1/agents/${agent.id}`, { token: proKey })).body.name).toBe(agent.name);
    expect((await call(`/v1/agents/${agent.id}`, { token: otherKey })).status).toBe(404);
    expect(
      (
        await call(`/v1/agents/${agent.id}/deactivate`, {
          method: "POST",
          token: otherKey,
        })
      ).status,
    ).toBe(404);
    const readOnly = (await createKey(pro, ["agents:read"], "Reader")).secret;
    const refused = await call(`/v1/agents/${agent.id}/deactivate`, {
      method: "POST",
      token: readOnly,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain("agents:write");
  });
});

/** The test binding seen through `timer`, its sessions included: every round trip is counted. */
function countedBinding(timer: D1Timer, d1: D1Database): D1Database {
  const session = (s: D1DatabaseSession) => ({ ...(timer.wrap(s as unknown as D1Database) as object), getBookmark: () => s.getBookmark() });
  return { ...(timer.wrap(d1) as object), withSession: (constraint?: string) => session(d1.withSession(constraint)) } as unknown as D1Database;
}

describe("round trips", () => {
  it("a /v1 count costs no more sequential D1 round trips than the dashboard's same count", async () => {
    // A range reaching today: no closed-day cache on either side.
    const today = new Date().toISOString().slice(0, 10);
    const trips = async (path: string, token: string) => {
      const timer = new D1Timer();
      const res = await call(path, { token, bindings: { DB: countedBinding(timer, env.DB), SHARD_0: countedBinding(timer, env.SHARD_0), SHARD_1: countedBinding(timer, env.SHARD_1) } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return timer.trips;
    };
    // The key's last use is fresh from the tests above, so no write follows the answer either way.
    await call("/v1/agents", { token: proKey });
    const api = await trips(`/v1/counts?start_date=${DAY}&end_date=${today}&direction=both`, proKey);
    const dashboard = await trips(`/api/call-logs/count?startDate=${DAY}&endDate=${today}&callType=Both`, pro.accessToken);
    // Key authentication is one batch; the count's own batches are the dashboard's.
    expect(api).toBeLessThanOrEqual(dashboard);
    expect(api).toBeGreaterThanOrEqual(2);
  });
});

describe("the reference and the answer checks", () => {
  it("serves /v1/docs under a policy of its own that allows exactly its inline scripts, with a note for when the viewer cannot load", async () => {
    const res = await app.request("http://localhost/v1/docs", {}, env);
    expect(res.status).toBe(200);
    const html = await res.text();
    const policy = res.headers.get("content-security-policy") ?? "";
    // The start-up script and the offline note's.
    const inline = [...html.matchAll(/<script type="text\/javascript">([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(inline).toHaveLength(2);
    for (const script of inline) {
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(script)));
      expect(policy).toContain(`'sha256-${btoa(String.fromCharCode(...digest))}'`);
    }
    expect(html).toContain(OFFLINE_NOTE);
    expect(html.indexOf(OFFLINE_NOTE)).toBeLessThan(html.indexOf("</body>"));
    expect(policy).toContain("script-src 'self' https://cdn.jsdelivr.net");
    expect(policy).not.toContain("'unsafe-inline' https");
    expect(html).toContain("/v1/openapi.json");
    // Every other page keeps the app's policy: scripts from the app alone.
    const other = await app.request("http://localhost/v1/openapi.json", {}, env);
    expect(other.headers.get("content-security-policy")).toContain("script-src 'self';");
  });

  it("refuse a /v1 answer or error that is not of its declared shape", () => {
    expect(answerProblem("GET", "/v1/calls", 200, { data: [], next_cursor: 3 })).toMatch(/next_cursor/);
    expect(answerProblem("GET", "/v1/calls", 401, { error: "Authentication required", code: "unauthorized" })).toMatch(/error shape/);
    expect(answerProblem("GET", "/v1/calls", 401, { error: { code: "unauthorized", message: "x", request_id: "r" } })).toBeNull();
  });
});
