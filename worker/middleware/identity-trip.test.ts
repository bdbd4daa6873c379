// The signed-in identity confirmed in the first D1 round trip (decision 051): a GET whose handler sends
// its reads together costs one sequential round trip, local or Supabase identity alike, and any other
// request at most two; the confirmation still refuses what it refused before (a signed-out session,
// a revoked flag, a deleted account), still creates a missing profile, and holds back every read,
// write and provider call of the handler until it has passed; a request with a body that it
// contradicts is dispatched again with that body.
import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { Hono, type Context } from "hono";
import { SignJWT, type JWTPayload } from "jose";
import { beforeAll, describe, expect, inject, it, vi } from "vitest";
import type { AppEnv } from "../app-env";
import { authenticate, confirmingIdentity, currentUser, errorOfAnswer, requireAdmin, requireUser } from "./auth";
import { requestContext } from "./context";
import { agents, authSessions, authUsers, deletedAccounts, profiles } from "../db/schema";
import { onError } from "../lib/errors";
import { LocalPromptWriter } from "../providers/prompt/local";
import { ACCOUNT_DELETED } from "../services/profiles";
import { call, db, signUpAndSignIn, uniqueEmail } from "../test/helpers";

const DEV = { APP_ENV: "development" };
const trips = (res: { headers: Headers }) => Number(/db-trips;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "")?.[1]);

describe("local identity", () => {
  it("answers a GET whose handler sends one read in 1 round trip, names from the profile included", async () => {
    const s = await signUpAndSignIn();
    const agents = await call("/api/agents", { token: s.accessToken, bindings: DEV });
    expect(agents.status).toBe(200);
    expect(trips(agents)).toBe(1);
    const profile = await call("/api/profile", { token: s.accessToken, bindings: DEV });
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ id: s.userId, email: s.email.toLowerCase(), username: "tester", company: "Acme", is_admin: false });
    expect(trips(profile)).toBe(1);
  });

  it("counts the confirmation and the read as one round trip at a simulated distance too", async () => {
    const s = await signUpAndSignIn();
    const res = await call("/api/agents", { token: s.accessToken, bindings: { ...DEV, D1_RTT_MS: "5" } });
    expect(res.status).toBe(200);
    expect(trips(res)).toBe(1);
  });

  it("confirms a POST's identity in one round trip before its write", async () => {
    const s = await signUpAndSignIn();
    const res = await call("/api/admin/public/update-user-profile", {
      method: "POST",
      token: s.accessToken,
      bindings: DEV,
      json: { email: s.email, username: "renamed" },
    });
    expect(res.status).toBe(200);
    expect(trips(res)).toBe(2);
    expect((await db().query.profiles.findFirst({ where: eq(profiles.id, s.userId) }))?.username).toBe("renamed");
  });

  it("refuses a GET after sign-out without the handler's data", async () => {
    const s = await signUpAndSignIn();
    const created = await call("/api/agents", { method: "POST", token: s.accessToken, json: { name: "Kept private" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await call("/auth/v1/logout", { method: "POST", token: s.accessToken })).status).toBe(204);
    const res = await call("/api/agents", { token: s.accessToken, bindings: DEV });
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(res.body.code).toBe("unauthorized");
    expect(JSON.stringify(res.body)).not.toContain("Kept private");
  });

  it("refuses a GET with a flag an admin revoked since the token was issued, as before", async () => {
    const s = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    expect((await call("/api/admin/stats/v2", { token: s.accessToken })).status).toBe(200);
    // The revocation as the admin dashboard makes it: the account's app_metadata and its profile.
    await db().update(authUsers).set({ appMetadata: { is_admin: false } }).where(eq(authUsers.id, s.userId));
    await db().update(profiles).set({ isAdmin: false, flagsUpdatedAt: new Date().toISOString() }).where(eq(profiles.id, s.userId));
    const res = await call("/api/admin/stats/v2", { token: s.accessToken, bindings: DEV });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("forbidden");
    expect(res.body).not.toHaveProperty("total_users");
  });

  it("answers a GET whose claims a granted flag outdates from the confirmed state, and mirrors it", async () => {
    const s = await signUpAndSignIn();
    await db().update(authUsers).set({ appMetadata: { is_admin: true } }).where(eq(authUsers.id, s.userId));
    const res = await call("/api/admin/stats/v2", { token: s.accessToken, bindings: DEV });
    expect(res.status).toBe(200);
    expect((await db().query.profiles.findFirst({ where: eq(profiles.id, s.userId) }))?.isAdmin).toBe(true);
  });

  it("creates the missing profile on the first GET", async () => {
    const s = await signUpAndSignIn();
    await db().delete(profiles).where(eq(profiles.id, s.userId));
    const res = await call("/api/profile", { token: s.accessToken, bindings: DEV });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: s.userId, username: "tester", company: "Acme" });
    expect(await db().query.profiles.findFirst({ where: eq(profiles.id, s.userId) })).toBeDefined();
  });
});

describe("local identity: a request with a body", () => {
  const agentNamed = (userId: string, name: string) =>
    db().query.agents.findFirst({ where: (a, { and }) => and(eq(a.userId, userId), eq(a.name, name)) });

  it("answers a POST that reads then writes in 2 round trips, the confirmation riding with its read", async () => {
    const s = await signUpAndSignIn();
    const res = await call("/api/agents", { method: "POST", token: s.accessToken, bindings: DEV, json: { name: "Two trips" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(trips(res)).toBe(2);
    expect(await agentNamed(s.userId, "Two trips")).toBeDefined();
    const id = (res.body.agent as { id: string }).id;
    const put = await call(`/api/agents/${id}`, { method: "PUT", token: s.accessToken, bindings: DEV, json: { name: "Renamed in two" } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(trips(put)).toBe(2);
    expect(await agentNamed(s.userId, "Renamed in two")).toBeDefined();
  });

  it("refuses a signed-out session's POST as a GET is refused, and writes nothing", async () => {
    const s = await signUpAndSignIn();
    expect((await call("/auth/v1/logout", { method: "POST", token: s.accessToken })).status).toBe(204);
    const post = await call("/api/agents", { method: "POST", token: s.accessToken, bindings: DEV, json: { name: "Never written" } });
    const get = await call("/api/agents", { token: s.accessToken, bindings: DEV });
    expect(post.status).toBe(401);
    expect({ ...post.body, requestId: undefined }).toEqual({ ...get.body, requestId: undefined });
    expect(await agentNamed(s.userId, "Never written")).toBeUndefined();
  });

  it("refuses a POST with an admin right revoked since the token was issued (403), and changes nothing", async () => {
    const s = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    const target = await signUpAndSignIn();
    await db().update(authUsers).set({ appMetadata: { is_admin: false } }).where(eq(authUsers.id, s.userId));
    await db().update(profiles).set({ isAdmin: false, flagsUpdatedAt: new Date().toISOString() }).where(eq(profiles.id, s.userId));
    const res = await call(`/api/admin/users/${target.userId}/flags`, { method: "PUT", token: s.accessToken, bindings: DEV, json: { call_app: true } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("forbidden");
    expect((await db().query.profiles.findFirst({ where: eq(profiles.id, target.userId) }))?.callApp).toBe(false);
  });

  it("dispatches a POST whose claims a granted flag outdates again with its body, mirroring the flag first", async () => {
    const s = await signUpAndSignIn();
    await db().update(authUsers).set({ appMetadata: { call_app: true } }).where(eq(authUsers.id, s.userId));
    const res = await call("/api/agents", { method: "POST", token: s.accessToken, bindings: DEV, json: { name: "Sent again" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // The first dispatch was dropped at the confirmation: its write never started, the second made it.
    expect(trips(res)).toBeGreaterThan(2);
    expect((await db().query.profiles.findFirst({ where: eq(profiles.id, s.userId) }))?.callApp).toBe(true);
    expect(await agentNamed(s.userId, "Sent again")).toBeDefined();
    expect((await db().select().from(agents).where(eq(agents.userId, s.userId))).length).toBe(1);
  });

  it("creates the missing profile on a first POST, then makes its write", async () => {
    const s = await signUpAndSignIn();
    await db().delete(profiles).where(eq(profiles.id, s.userId));
    const res = await call("/api/agents", { method: "POST", token: s.accessToken, bindings: DEV, json: { name: "First of all" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await db().query.profiles.findFirst({ where: eq(profiles.id, s.userId) })).toMatchObject({ username: "tester", company: "Acme" });
    expect(await agentNamed(s.userId, "First of all")).toBeDefined();
  });
});

describe("Supabase identity", () => {
  const standin = inject("standins").supabase;
  let project = 0;
  const newProject = () => {
    const url = `${standin}/p/trip-${Date.now().toString(36)}-${++project}`;
    return { issuer: `${url}/auth/v1`, bindings: { ...DEV, SUPABASE_URL: url, SUPABASE_ANON_KEY: "anon", SUPABASE_JWT_SECRET: SECRET } };
  };
  const SECRET = "identity-trip-test-secret-of-enough-length";
  const now = () => Math.floor(Date.now() / 1000);
  const sign = (issuer: string, over: JWTPayload = {}) =>
    new SignJWT({
      iss: issuer,
      aud: "authenticated",
      role: "authenticated",
      sub: crypto.randomUUID(),
      email: uniqueEmail("sb"),
      iat: now() - 10,
      exp: now() + 3600,
      app_metadata: { provider: "email" },
      user_metadata: { username: "sb-user" },
      ...over,
    })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .sign(new TextEncoder().encode(SECRET));

  it("creates the profile on the first GET, then answers a GET with one read in 1 round trip", async () => {
    const p = newProject();
    const id = crypto.randomUUID();
    const token = await sign(p.issuer, { sub: id });
    const first = await call("/api/profile", { token, bindings: p.bindings });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id, username: "sb-user", is_admin: false });
    expect(await db().query.profiles.findFirst({ where: eq(profiles.id, id) })).toBeDefined();
    const agents = await call("/api/agents", { token, bindings: p.bindings });
    expect(agents.status).toBe(200);
    expect(trips(agents)).toBe(1);
  });

  it("refuses a flag the profile revoked after the token was issued (403), as before", async () => {
    const p = newProject();
    const id = crypto.randomUUID();
    const email = uniqueEmail("sb");
    await db().insert(profiles).values({ id, email, isAdmin: true, flagsUpdatedAt: new Date(Date.now() - 3_600_000).toISOString() });
    const token = await sign(p.issuer, { sub: id, email, app_metadata: { provider: "email", is_admin: true } });
    const allowed = await call("/api/admin/stats/v2", { token, bindings: p.bindings });
    expect(allowed.status).toBe(200);
    await db().update(profiles).set({ isAdmin: false, flagsUpdatedAt: new Date().toISOString() }).where(eq(profiles.id, id));
    const refused = await call("/api/admin/stats/v2", { token, bindings: p.bindings });
    expect(refused.status).toBe(403);
    expect(refused.body).not.toHaveProperty("total_users");
  });

  it("refuses a deleted account's token with ACCOUNT_DELETED and creates no profile", async () => {
    const p = newProject();
    const id = crypto.randomUUID();
    const day = new Date().toISOString();
    await db().insert(deletedAccounts).values({ userId: id, deletedAt: day, expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
    const res = await call("/api/agents", { token: await sign(p.issuer, { sub: id }), bindings: p.bindings });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe(ACCOUNT_DELETED);
    expect(await db().query.profiles.findFirst({ where: eq(profiles.id, id) })).toBeUndefined();
  });
  it("answers a POST that reads then writes in 2 round trips", async () => {
    const p = newProject();
    const id = crypto.randomUUID();
    const token = await sign(p.issuer, { sub: id });
    expect((await call("/api/profile", { token, bindings: p.bindings })).status).toBe(200);
    const res = await call("/api/agents", { method: "POST", token, bindings: p.bindings, json: { name: "Supabase two" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(trips(res)).toBe(2);
  });

  it("creates the profile on a first POST, then makes its write", async () => {
    const p = newProject();
    const id = crypto.randomUUID();
    const token = await sign(p.issuer, { sub: id });
    const res = await call("/api/agents", { method: "POST", token, bindings: p.bindings, json: { name: "Supabase first" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await db().query.profiles.findFirst({ where: eq(profiles.id, id) })).toMatchObject({ username: "sb-user" });
    expect(await db().query.agents.findFirst({ where: eq(agents.userId, id) })).toMatchObject({ name: "Supabase first" });
  });

  it("refuses a POST with a flag the profile revoked after the token was issued (403), and changes nothing", async () => {
    const p = newProject();
    const id = crypto.randomUUID();
    const email = uniqueEmail("sb");
    await db().insert(profiles).values({ id, email, isAdmin: true, flagsUpdatedAt: new Date(Date.now() - 3_600_000).toISOString() });
    const token = await sign(p.issuer, { sub: id, email, app_metadata: { provider: "email", is_admin: true } });
    await db().update(profiles).set({ isAdmin: false, flagsUpdatedAt: new Date().toISOString() }).where(eq(profiles.id, id));
    const res = await call("/api/admin/config/phone-limit", { method: "PUT", token, bindings: p.bindings, json: { phoneNumberLimit: 7 } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("forbidden");
  });
});

describe("the handler's queries wait for the confirmation", () => {
  const seen: unknown[] = [];
  const writeName = async (c: Context<AppEnv>) => {
    const { name } = await c.req.json<{ name: string }>();
    await c.var.db.run(sql`INSERT INTO identity_trip_named (user_id, name) VALUES (${currentUser(c).id}, ${name})`);
    return c.json({ wrote: name });
  };
  const probe = new Hono<AppEnv>()
    .use("*", requestContext(() => Promise.reject(new Error("no self-dispatch in this app"))))
    .use("*", authenticate)
    .get("/read", requireUser, async (c) => {
      const rows = await c.var.db.select({ id: authSessions.id }).from(authSessions).where(eq(authSessions.userId, currentUser(c).id));
      seen.push(rows);
      return c.json({ rows });
    })
    .get("/write", requireUser, async (c) => {
      await c.var.db.run(sql`INSERT INTO identity_trip_probe (user_id) VALUES (${currentUser(c).id})`);
      return c.json({ wrote: true });
    })
    // Writes with no read before them, of a value from the body (under /api/, where a request with a
    // body is answered on its claims).
    .post("/api/write-first", requireUser, (c) => writeName(c))
    .post("/api/admin-write", requireAdmin, (c) => writeName(c))
    // A provider call before any D1 query, then a write (under /api/, where a body's request is answered on its claims).
    .post("/api/provider-first", requireUser, async (c) => {
      const { name } = await c.req.json<{ name: string }>();
      const prompt = await c.var.providers.prompt.generate({ name, business_description: "A hearing clinic", services: "Hearing tests", agent_instructions: "Book tests" });
      await c.var.db.run(sql`INSERT INTO identity_trip_probe (user_id) VALUES (${currentUser(c).id})`);
      return c.json({ prompt });
    });
  probe.onError((err, c) => onError(errorOfAnswer(c, err), c));
  const dispatch = confirmingIdentity(probe.fetch);
  const get = async (path: string, token: string) => {
    const res = await dispatch(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } }), env);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    await env.DB.exec("CREATE TABLE IF NOT EXISTS identity_trip_probe (user_id TEXT NOT NULL)");
    await env.DB.exec("CREATE TABLE IF NOT EXISTS identity_trip_named (user_id TEXT NOT NULL, name TEXT NOT NULL)");
  });

  it("gives a signed-out session's GET no row to see", async () => {
    const s = await signUpAndSignIn();
    expect((await get("/read", s.accessToken)).status).toBe(200);
    expect(seen).toHaveLength(1);
    expect((await call("/auth/v1/logout", { method: "POST", token: s.accessToken })).status).toBe(204);
    expect((await get("/read", s.accessToken)).status).toBe(401);
    expect(seen).toHaveLength(1);
  });

  it("lets a signed-out session's POST call no provider and write nothing, answering 401 as a GET is answered", async () => {
    const generate = vi.spyOn(LocalPromptWriter.prototype, "generate");
    try {
      const s = await signUpAndSignIn();
      const written = () => env.DB.prepare("SELECT count(*) AS n FROM identity_trip_probe WHERE user_id = ?").bind(s.userId).first<number>("n");
      const post = (token: string) =>
        dispatch(
          new Request("http://localhost/api/provider-first", {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: JSON.stringify({ name: "Probe" }),
          }),
          env,
        );
      const allowed = await post(s.accessToken);
      expect(allowed.status).toBe(200);
      expect(generate).toHaveBeenCalledTimes(1);
      expect(await written()).toBe(1);
      expect((await call("/auth/v1/logout", { method: "POST", token: s.accessToken })).status).toBe(204);
      const refused = await post(s.accessToken);
      expect(refused.status).toBe(401);
      const asGet = (await get("/read", s.accessToken)).body;
      expect({ ...((await refused.json()) as object), requestId: undefined }).toEqual({ ...asGet, requestId: undefined });
      expect(generate).toHaveBeenCalledTimes(1);
      expect(await written()).toBe(1);
    } finally {
      generate.mockRestore();
    }
  });

  const postName = (path: string, token: string, name: string) =>
    dispatch(
      new Request(`http://localhost${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ name }),
      }),
      env,
    );
  const named = async (userId: string) =>
    (await env.DB.prepare("SELECT name FROM identity_trip_named WHERE user_id = ?").bind(userId).all<{ name: string }>()).results.map((r) => r.name);

  it("lets a signed-out session's POST whose first query is a write write nothing", async () => {
    const s = await signUpAndSignIn();
    expect((await postName("/api/write-first", s.accessToken, "before")).status).toBe(200);
    expect((await call("/auth/v1/logout", { method: "POST", token: s.accessToken })).status).toBe(204);
    expect((await postName("/api/write-first", s.accessToken, "after")).status).toBe(401);
    expect(await named(s.userId)).toEqual(["before"]);
  });

  it("refuses a POST with an admin right revoked since the token was issued (403) before its write", async () => {
    const s = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    await db().update(authUsers).set({ appMetadata: { is_admin: false } }).where(eq(authUsers.id, s.userId));
    await db().update(profiles).set({ isAdmin: false, flagsUpdatedAt: new Date().toISOString() }).where(eq(profiles.id, s.userId));
    const res = await postName("/api/admin-write", s.accessToken, "revoked");
    expect(res.status).toBe(403);
    expect(await named(s.userId)).toEqual([]);
  });

  it("dispatches a POST whose claims a granted flag outdates again, body intact, and writes once", async () => {
    const s = await signUpAndSignIn();
    await db().update(authUsers).set({ appMetadata: { call_app: true } }).where(eq(authUsers.id, s.userId));
    const res = await postName("/api/write-first", s.accessToken, "kept body");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ wrote: "kept body" });
    expect((await db().query.profiles.findFirst({ where: eq(profiles.id, s.userId) }))?.callApp).toBe(true);
    expect(await named(s.userId)).toEqual(["kept body"]);
  });

  it("lets a signed-out session's GET write nothing", async () => {
    const s = await signUpAndSignIn();
    const written = () => env.DB.prepare("SELECT count(*) AS n FROM identity_trip_probe WHERE user_id = ?").bind(s.userId).first<number>("n");
    expect((await get("/write", s.accessToken)).status).toBe(200);
    expect(await written()).toBe(1);
    expect((await call("/auth/v1/logout", { method: "POST", token: s.accessToken })).status).toBe(204);
    expect((await get("/write", s.accessToken)).status).toBe(401);
    expect(await written()).toBe(1);
  });
});

describe("round trips per endpoint", () => {
  it("reads in 1 round trip where the handler sends its reads together, and a profile update in 2", async () => {
    const s = await signUpAndSignIn();
    const figures: Record<string, number> = {};
    for (const path of ["/api/profile", "/api/agents", "/api/call-logs?limit=50", "/api/usage-stats"]) {
      const res = await call(path, { token: s.accessToken, bindings: DEV });
      expect(res.status, path).toBe(200);
      figures[`GET ${path}`] = trips(res);
    }
    const update = await call("/api/admin/public/update-user-profile", {
      method: "POST",
      token: s.accessToken,
      bindings: DEV,
      json: { email: s.email, username: "figures" },
    });
    expect(update.status).toBe(200);
    figures["POST /api/admin/public/update-user-profile"] = trips(update);
    expect(figures).toEqual({
      "GET /api/profile": 1,
      "GET /api/agents": 1,
      "GET /api/call-logs?limit=50": 1,
      "GET /api/usage-stats": 1,
      "POST /api/admin/public/update-user-profile": 2,
    });
  });
});

describe("which requests with a body are answered on their claims", () => {
  /** The request the app is handed for `path`: the one sent (confirmed first) or a copy with its body kept (answered on claims). */
  async function handed(path: string) {
    const sent = new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { authorization: "Bearer any-token", "content-type": "application/json" },
      body: JSON.stringify({ email: "a@example.com" }),
    });
    let received: Request | undefined;
    await confirmingIdentity(async (request: Request) => {
      received = request;
      return new Response(null, { status: 204 });
    })(sent);
    return received === sent ? "confirmed first" : "on its claims";
  }

  it("reads the path as the router does: a public route spelled with escapes is confirmed first too", async () => {
    expect(await handed("/api/agents")).toBe("on its claims");
    expect(await handed("/api/admin/public/resend-activation")).toBe("confirmed first");
    expect(await handed("/api/%61dmin/public/resend-activation")).toBe("confirmed first");
    expect(await handed("/api/stripe/st%61rt-trial")).toBe("confirmed first");
    expect(await handed("/api/w%65bhooks/vapi")).toBe("confirmed first");
  });
});
