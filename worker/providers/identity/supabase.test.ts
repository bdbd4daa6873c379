// The real Supabase identity adapter against the Supabase stand-in over HTTP: token verification
// (JWKS and HS256), the admin calls, and the app switched to it by SUPABASE_URL.
import { eq } from "drizzle-orm";
import { SignJWT, UnsecuredJWT, type JWTPayload } from "jose";
import { describe, expect, inject, it, vi } from "vitest";
import { profiles } from "../../db/schema";
import { ApiError } from "../../lib/errors";
import { SUPABASE_STANDIN } from "../../test/standins/supabase";
import { call, db, uniqueEmail } from "../../test/helpers";
import { SUPABASE_GENERIC_ERROR, SupabaseIdentity, USER_EXISTS_MAX_PAGES } from "./supabase";

const standin = inject("standins").supabase;
let projects = 0;

/** A fresh stand-in project (its own users, counts and JWKS cache entry). */
function newProject() {
  const prefix = `/p/${Date.now().toString(36)}-${++projects}`;
  const url = `${standin}${prefix}`;
  return {
    prefix,
    url,
    issuer: `${url}/auth/v1`,
    identity: (extra: { jwtSecret?: string; serviceRoleKey?: string } = {}) =>
      new SupabaseIdentity(
        { url, anonKey: SUPABASE_STANDIN.anonKey, serviceRoleKey: SUPABASE_STANDIN.serviceRoleKey, ...extra },
        db(),
      ),
    bindings: {
      SUPABASE_URL: url,
      SUPABASE_ANON_KEY: SUPABASE_STANDIN.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: SUPABASE_STANDIN.serviceRoleKey,
    },
  };
}
type Project = ReturnType<typeof newProject>;

const now = () => Math.floor(Date.now() / 1000);

function userClaims(p: Project, over: JWTPayload = {}): JWTPayload {
  return {
    iss: p.issuer,
    aud: "authenticated",
    role: "authenticated",
    sub: crypto.randomUUID(),
    email: uniqueEmail("sb"),
    iat: now(),
    exp: now() + 3600,
    session_id: crypto.randomUUID(),
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: {},
    ...over,
  };
}

/** Signs claims with the stand-in's keys (ES256 by default, RS256, or a key in no JWKS). */
async function standinSign(claims: JWTPayload, opts: { alg?: "ES256" | "RS256"; kid?: string | null; key?: "project" | "stray" } = {}) {
  const res = await fetch(`${standin}/test/sign`, { method: "POST", body: JSON.stringify({ claims, ...opts }) });
  return ((await res.json()) as { token: string }).token;
}

const hs256 = (claims: JWTPayload, secret: string) =>
  new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(new TextEncoder().encode(secret));

async function state(p: Project) {
  const res = await fetch(`${standin}/test/state?project=${encodeURIComponent(p.prefix)}`);
  return (await res.json()) as {
    counts: { jwks: number; adminList: number; adminUpdate: number; adminDelete: number };
    users: { id: string; email: string }[];
    emailChanges: { id: string; new_email: string; redirect_to: string | null }[];
  };
}

async function seedUsers(p: Project, users: { id?: string; email: string; app_metadata?: Record<string, unknown> }[]) {
  await fetch(`${standin}/test/users`, { method: "POST", body: JSON.stringify({ project: p.prefix, users }) });
}

async function expectUnauthorized(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).status).toBe(401);
}

describe("SupabaseIdentity.verifyAccessToken with the project's JWKS", () => {
  it("accepts a valid ES256 user token and a valid RS256 one", async () => {
    const p = newProject();
    const claims = userClaims(p, { app_metadata: { provider: "email", is_admin: true }, user_metadata: { username: "sb" } });
    const who = await p.identity().verifyAccessToken(await standinSign(claims));
    expect(who).toEqual({
      id: claims.sub,
      email: claims.email,
      appMetadata: { provider: "email", is_admin: true },
      userMetadata: { username: "sb" },
      issuedAt: claims.iat,
    });
    const rs = userClaims(p);
    expect((await p.identity().verifyAccessToken(await standinSign(rs, { alg: "RS256" }))).id).toBe(rs.sub);
  });

  it("refuses expired, wrong-issuer, wrong-audience and non-user tokens", async () => {
    const p = newProject();
    const other = newProject();
    const identity = p.identity();
    const refused: [string, JWTPayload][] = [
      ["expired", userClaims(p, { iat: now() - 7200, exp: now() - 60 })],
      ["another project's issuer", userClaims(p, { iss: other.issuer })],
      ["issuer without /auth/v1", userClaims(p, { iss: p.url })],
      ["wrong audience", userClaims(p, { aud: "some-other-app" })],
      ["anon role", userClaims(p, { role: "anon" })],
      ["service_role role", userClaims(p, { role: "service_role" })],
      ["no subject", userClaims(p, { sub: undefined })],
      ["no expiry", userClaims(p, { exp: undefined })],
    ];
    for (const [, claims] of refused) await expectUnauthorized(identity.verifyAccessToken(await standinSign(claims)));
    // Legacy anon/service-role key shape: iss "supabase", no aud, no sub.
    for (const role of ["anon", "service_role"]) {
      await expectUnauthorized(identity.verifyAccessToken(await standinSign({ iss: "supabase", ref: "p", role, iat: now(), exp: now() + 3600 })));
    }
  });

  it("refuses keys and algorithms the project does not publish", async () => {
    const p = newProject();
    const identity = p.identity({ jwtSecret: "project-hs256-secret-with-enough-length-00" });
    const claims = userClaims(p);
    // Signed by a key in no JWKS, under the published kid.
    await expectUnauthorized(identity.verifyAccessToken(await standinSign(claims, { key: "stray", kid: SUPABASE_STANDIN.esKid })));
    // RS256 header pointing at the EC key.
    await expectUnauthorized(identity.verifyAccessToken(await standinSign(claims, { alg: "RS256", kid: SUPABASE_STANDIN.esKid })));
    // Unsigned.
    await expectUnauthorized(identity.verifyAccessToken(new UnsecuredJWT(claims).encode()));
    // HS256 keyed with the published public key (algorithm confusion), with and without an HS256 secret configured.
    const jwks = (await (await fetch(`${p.issuer}/.well-known/jwks.json`)).json()) as { keys: Record<string, string>[] };
    for (const key of jwks.keys) {
      const confused = await hs256(claims, JSON.stringify(key));
      await expectUnauthorized(identity.verifyAccessToken(confused));
      await expectUnauthorized(p.identity().verifyAccessToken(confused));
    }
    await expectUnauthorized(identity.verifyAccessToken("not.a.jwt"));
  });

  it("fetches the JWKS once and serves later tokens from the cache", async () => {
    const p = newProject();
    expect((await state(p)).counts.jwks).toBe(0);
    await p.identity().verifyAccessToken(await standinSign(userClaims(p)));
    expect((await state(p)).counts.jwks).toBe(1);
    // A new adapter per request, as the app builds them: the key set is still shared.
    // (On Workers jose does not share one in-flight fetch between requests, so this comes after the first.)
    const tokens = await Promise.all([1, 2, 3].map(() => standinSign(userClaims(p))));
    await Promise.all(tokens.map((t) => p.identity().verifyAccessToken(t)));
    await p.identity().verifyAccessToken(await standinSign(userClaims(p), { alg: "RS256" }));
    expect((await state(p)).counts.jwks).toBe(1);
    // An unknown kid does not make every request refetch the key set.
    await expectUnauthorized(p.identity().verifyAccessToken(await standinSign(userClaims(p), { kid: "rotated-away" })));
    await expectUnauthorized(p.identity().verifyAccessToken(await standinSign(userClaims(p), { kid: "rotated-away-2" })));
    expect((await state(p)).counts.jwks).toBe(1);
  });
});

describe("SupabaseIdentity.verifyAccessToken with SUPABASE_JWT_SECRET (HS256)", () => {
  const secret = "project-hs256-secret-with-enough-length-01";

  it("accepts a user token signed with the project secret", async () => {
    const p = newProject();
    const claims = userClaims(p);
    expect((await p.identity({ jwtSecret: secret }).verifyAccessToken(await hs256(claims, secret))).id).toBe(claims.sub);
  });

  it("refuses the anon and service-role keys, another secret, and HS256 when no secret is configured", async () => {
    const p = newProject();
    const identity = p.identity({ jwtSecret: secret });
    for (const role of ["anon", "service_role"]) {
      await expectUnauthorized(identity.verifyAccessToken(await hs256({ iss: "supabase", ref: "p", role, iat: now(), exp: now() + 3600 }, secret)));
      await expectUnauthorized(identity.verifyAccessToken(await hs256(userClaims(p, { role }), secret)));
    }
    await expectUnauthorized(identity.verifyAccessToken(await hs256(userClaims(p), "another-secret-with-enough-length-0000000")));
    await expectUnauthorized(identity.verifyAccessToken(await hs256(userClaims(p, { exp: now() - 10 }), secret)));
    await expectUnauthorized(p.identity().verifyAccessToken(await hs256(userClaims(p), secret)));
  });
});

describe("SupabaseIdentity admin calls", () => {
  it("userExists answers from profiles first, without calling Supabase", async () => {
    const p = newProject();
    const email = uniqueEmail("Profiled");
    await db().insert(profiles).values({ id: crypto.randomUUID(), email: email.toLowerCase() });
    expect(await p.identity().userExists(email.toUpperCase())).toBe(true);
    expect((await state(p)).counts.adminList).toBe(0);
  });

  it("userExists falls back to the admin API for accounts that never signed in, matching exactly", async () => {
    const p = newProject();
    const email = uniqueEmail("never");
    await seedUsers(p, [{ email }, { email: `x.${email}` }]);
    const identity = p.identity();
    expect(await identity.userExists(email.toUpperCase())).toBe(true);
    // Supabase's filter is a substring match: "ann@" must not match "x.ann@".
    const only = uniqueEmail("ann");
    await seedUsers(p, [{ email: `x.${only}` }]);
    expect(await identity.userExists(only)).toBe(false);
    expect(await identity.userExists(uniqueEmail("nobody"))).toBe(false);
    expect((await state(p)).counts.adminList).toBe(3);
  });

  it("raises a provider error (502) when the service-role key is wrong or missing", async () => {
    const p = newProject();
    for (const identity of [p.identity({ serviceRoleKey: "wrong-key" }), new SupabaseIdentity({ url: p.url }, db())]) {
      const err = await identity.userExists(uniqueEmail()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(502);
      expect((err as ApiError).code).toBe("provider_error");
    }
  });

});

describe("the app with SUPABASE_URL set", () => {
  it("reports the real identity adapter in /api/health, and the product's mail apart from it", async () => {
    const p = newProject();
    const res = await call("/api/health", { bindings: p.bindings });
    expect(res.status).toBe(200);
    // Supabase sends its own account mail; the product's mail (the daily report) follows Resend's
    // settings, unset here, so outside production it goes to the local outbox.
    expect(res.body.providers).toMatchObject({ identity: "real", mail: "local" });
  });

  it("answers 404 JSON on /auth/v1/*: the local identity service is off", async () => {
    const p = newProject();
    for (const [path, method] of [
      ["/auth/v1/settings", "GET"],
      ["/auth/v1/signup", "POST"],
      ["/auth/v1/token?grant_type=password", "POST"],
      ["/auth/v1/user", "GET"],
      ["/auth/v1/verify?token=x&type=signup", "GET"],
    ] as const) {
      const res = await call(path, { method, bindings: p.bindings, ...(method === "POST" ? { json: { email: uniqueEmail(), password: "secret123" } } : {}) });
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
  });

  it("signs in a Supabase user: profile created from the token, flags from app_metadata only", async () => {
    const p = newProject();
    const claims = userClaims(p, {
      app_metadata: { provider: "email", shopwindows_info: true },
      user_metadata: { username: "sb-user", company: "SB Co", is_admin: true },
    });
    // The flag the token grants is confirmed at Supabase before the profile is created with it.
    await seedUsers(p, [{ id: claims.sub, email: String(claims.email), app_metadata: { provider: "email", shopwindows_info: true } }]);
    const res = await call("/api/profile", { token: await standinSign(claims), bindings: p.bindings });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: claims.sub,
      email: claims.email,
      username: "sb-user",
      company: "SB Co",
      is_admin: false,
      shopwindows_info: true,
      call_app: false,
    });
    expect(await db().query.profiles.findFirst({ where: eq(profiles.id, claims.sub!) })).toBeTruthy();

    for (const token of [
      await standinSign(userClaims(p, { role: "anon" })),
      await standinSign(userClaims(p, { exp: now() - 5 })),
      await standinSign(userClaims(p, { aud: "other" })),
    ]) {
      const refused = await call("/api/profile", { token, bindings: p.bindings });
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe("unauthorized");
    }
  });

  it("answers user-exists from profiles, then from Supabase", async () => {
    const p = newProject();
    const signedIn = userClaims(p);
    await call("/api/profile", { token: await standinSign(signedIn), bindings: p.bindings });
    const pending = uniqueEmail("pending");
    await seedUsers(p, [{ email: pending }]);

    const ask = (email: string) => call("/api/admin/public/user-exists", { method: "POST", json: { email }, bindings: p.bindings });
    expect((await ask(String(signedIn.email))).body).toEqual({ success: true, exists: true });
    expect((await state(p)).counts.adminList).toBe(0);
    expect((await ask(pending)).body).toEqual({ success: true, exists: true });
    expect((await ask(uniqueEmail("ghost"))).body).toEqual({ success: true, exists: false });
    expect((await state(p)).counts.adminList).toBe(2);
  });

  it("update-user-profile asks Supabase's own email change (mail to the new address), never the admin API, and answers a taken address alike", async () => {
    const p = newProject();
    const claims = userClaims(p);
    await seedUsers(p, [{ id: claims.sub, email: String(claims.email) }]);
    const taken = uniqueEmail("taken");
    await seedUsers(p, [{ email: taken }]);
    const token = await standinSign(claims);
    const update = (newEmail: string) =>
      call("/api/admin/public/update-user-profile", {
        method: "POST",
        token,
        bindings: p.bindings,
        json: { email: claims.email, username: "renamed", newEmail },
      });

    const next = uniqueEmail("next");
    const free = await update(next);
    const busy = await update(taken);
    expect(free.status).toBe(200);
    expect(busy.status).toBe(200);
    // The same answer for a taken and a free address: nothing to enumerate with.
    expect(busy.body).toEqual(free.body);
    expect(free.body).toMatchObject({ success: true, emailChangeSent: true, profile: { username: "renamed", email: claims.email } });
    const st = await state(p);
    // The email is unchanged until the new address confirms; no admin write happened.
    expect(st.users.find((u) => u.id === claims.sub)!.email).toBe(claims.email);
    expect(st.counts.adminUpdate).toBe(0);
    expect(st.emailChanges).toEqual([{ id: claims.sub, new_email: next, redirect_to: "http://localhost/auth" }]);
  });

  it("takes the confirmed email from the token once Supabase has changed it", async () => {
    const p = newProject();
    const claims = userClaims(p);
    await call("/api/profile", { token: await standinSign(claims), bindings: p.bindings });
    const moved = uniqueEmail("confirmed");
    const res = await call("/api/profile", { token: await standinSign({ ...claims, email: moved }), bindings: p.bindings });
    expect(res.body.email).toBe(moved);
    expect((await db().query.profiles.findFirst({ where: eq(profiles.id, claims.sub!) }))!.email).toBe(moved);
  });

  it("refuses anonymous Supabase users (is_anonymous)", async () => {
    const p = newProject();
    const anon = await standinSign(userClaims(p, { is_anonymous: true, email: "" }));
    const res = await call("/api/profile", { token: anon, bindings: p.bindings });
    expect(res.status).toBe(401);
    const err = await p.identity().verifyAccessToken(anon).catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(401);
  });

  it("escapes LIKE wildcards in the existence check: '_@gmail.com' pages through nobody", async () => {
    const p = newProject();
    const domain = `${Date.now().toString(36)}.example.com`;
    // 2,500 accounts an unescaped wildcard filter would match: three pages of 1,000.
    await seedUsers(p, Array.from({ length: 2500 }, (_, i) => ({ email: `u${i}@${domain}` })));
    const res = await call("/api/admin/public/user-exists", { method: "POST", json: { email: `_@${domain}` }, bindings: p.bindings });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, exists: false });
    expect((await state(p)).counts.adminList).toBe(1);
    // An address that is there is still found.
    expect(await p.identity().userExists(`u7@${domain}`)).toBe(true);
  });

  it("reads at most USER_EXISTS_MAX_PAGES pages however many accounts match", async () => {
    const p = newProject();
    const wanted = `${Date.now().toString(36)}@example.com`;
    // Every one contains the wanted address as a substring, so the escaped filter still matches them all.
    await seedUsers(p, Array.from({ length: 4500 }, (_, i) => ({ email: `x${i}${wanted}` })));
    expect(await p.identity().userExists(wanted)).toBe(false);
    expect((await state(p)).counts.adminList).toBe(USER_EXISTS_MAX_PAGES);
  });

  it("logs Supabase's raw refusal of an admin call and answers anonymous callers a generic 502", async () => {
    const p = newProject();
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const res = await call("/api/admin/public/user-exists", {
        method: "POST",
        json: { email: uniqueEmail() },
        bindings: { ...p.bindings, SUPABASE_SERVICE_ROLE_KEY: "wrong-key" },
      });
      expect(res.status).toBe(502);
      expect(res.body.code).toBe("provider_error");
      expect(res.body.error).toBe(SUPABASE_GENERIC_ERROR);
      // The stand-in's own words ("Invalid API key", its status) stay in the log. The request id is
      // left out of the check: a random UUID may hold "401".
      expect(JSON.stringify({ ...res.body, requestId: undefined })).not.toMatch(/invalid api key|401/i);
      expect(logged.mock.calls.map((c) => String(c[0])).join("\n")).toMatch(/Invalid API key/);
    } finally {
      logged.mockRestore();
    }
  });
});

describe("SupabaseIdentity admin operations (the Admin Dashboard)", () => {
  it("setAppFlags merges the flags into app_metadata through the admin API, keeping other keys", async () => {
    const p = newProject();
    const id = crypto.randomUUID();
    await seedUsers(p, [{ id, email: uniqueEmail(), app_metadata: { call_app: true, plan: "pro" } }]);
    expect(await p.identity().setAppFlags(id, { is_admin: true, call_app: false })).toEqual([]);
    const stored = (await state(p)).users.find((u) => u.id === id) as unknown as { app_metadata: Record<string, unknown> };
    expect(stored.app_metadata).toEqual({ provider: "email", providers: ["email"], plan: "pro", is_admin: true, call_app: false });
    const missing = await p.identity().setAppFlags(crypto.randomUUID(), { is_admin: true }).catch((e: unknown) => e);
    expect((missing as ApiError).status).toBe(502);
  });

  it("missingAccounts names the ids the project no longer has, reading the list a page at a time", async () => {
    const p = newProject();
    const kept = Array.from({ length: 1200 }, () => crypto.randomUUID());
    await seedUsers(p, kept.map((id) => ({ id, email: uniqueEmail("kept") })));
    const deleted = [crypto.randomUUID(), crypto.randomUUID()];
    expect(await p.identity().missingAccounts([kept[0], deleted[0], kept[1199], deleted[1]])).toEqual(deleted);
    // Two pages of 1,000 hold the 1,200 accounts.
    expect((await state(p)).counts.adminList).toBe(2);
    expect(await p.identity().missingAccounts([])).toEqual([]);
  });

  it("missingAccounts throws when the admin API refuses, so no account looks deleted", async () => {
    const p = newProject();
    const id = crypto.randomUUID();
    await seedUsers(p, [{ id, email: uniqueEmail() }]);
    await expect(p.identity({ serviceRoleKey: "wrong-key" }).missingAccounts([id])).rejects.toBeInstanceOf(ApiError);
  });

  it("deleteUser deletes the account, and an account already gone is not an error", async () => {
    const p = newProject();
    const id = crypto.randomUUID();
    await seedUsers(p, [{ id, email: uniqueEmail() }, { email: uniqueEmail("stays") }]);
    expect(await p.identity().deleteUser(id)).toEqual([]);
    const after = await state(p);
    expect(after.users.map((u) => u.id)).not.toContain(id);
    expect(after.users).toHaveLength(1);
    await p.identity().deleteUser(id);
    expect((await state(p)).counts.adminDelete).toBe(2);
    const refused = await p.identity({ serviceRoleKey: "wrong-key" }).deleteUser(crypto.randomUUID()).catch((e: unknown) => e);
    expect((refused as ApiError).status).toBe(502);
  });

  it("a flag change holds from the user's next request, though their token still carries the old app_metadata", async () => {
    const p = newProject();
    const admin = userClaims(p, { app_metadata: { provider: "email", is_admin: true } });
    const staff = userClaims(p, { iat: now() - 5, app_metadata: { provider: "email", is_admin: true } });
    const customer = userClaims(p, { iat: now() - 5 });
    await seedUsers(p, [admin, staff, customer].map((u) => ({ id: u.sub!, email: String(u.email), app_metadata: u.app_metadata as Record<string, unknown> })));
    const adminToken = await standinSign(admin);
    const staffToken = await standinSign(staff);
    const customerToken = await standinSign(customer);
    const stats = (token: string) => call("/api/admin/stats/v2", { token, bindings: p.bindings });
    const analytics = (token: string) => call("/api/analytics/won", { method: "POST", token, bindings: p.bindings, json: { storeId: "MIAMI", startDate: "2026-01-01", endDate: "2026-01-02", limit: 300 } });
    expect((await stats(staffToken)).status).toBe(200);
    expect((await analytics(customerToken)).status).toBe(403);

    const setFlags = (id: string, json: unknown) => call(`/api/admin/users/${id}/flags`, { method: "PUT", token: adminToken, bindings: p.bindings, json });
    expect((await setFlags(staff.sub!, { is_admin: false })).status).toBe(200);
    expect((await setFlags(customer.sub!, { shopwindows_info: true })).status).toBe(200);
    const users = (await state(p)).users as unknown as { id: string; app_metadata: Record<string, unknown> }[];
    expect(users.find((u) => u.id === staff.sub)!.app_metadata.is_admin).toBe(false);
    expect(users.find((u) => u.id === customer.sub)!.app_metadata.shopwindows_info).toBe(true);

    // The same (older) tokens: revoked and granted at once.
    expect((await stats(staffToken)).status).toBe(403);
    expect((await analytics(customerToken)).status).not.toBe(403);
    // A token issued after the change carries the new app_metadata, and agrees.
    const fresh = await standinSign({ ...staff, iat: now() + 2, app_metadata: { provider: "email", is_admin: false } });
    expect((await stats(fresh)).status).toBe(403);
    // A later change made at Supabase itself (not through the dashboard) reaches the app with the next token.
    const regranted = await standinSign({ ...staff, iat: now() + 3, app_metadata: { provider: "email", is_admin: true } });
    expect((await stats(regranted)).status).toBe(200);
  });
});

describe("a deleted Supabase account (cleanup-user) stays deleted", () => {
  async function setUp() {
    const p = newProject();
    const admin = userClaims(p, { app_metadata: { provider: "email", is_admin: true } });
    const staff = userClaims(p, { iat: now() - 5, app_metadata: { provider: "email", is_admin: true, call_app: true } });
    await seedUsers(p, [admin, staff].map((u) => ({ id: u.sub!, email: String(u.email), app_metadata: u.app_metadata as Record<string, unknown> })));
    const adminToken = await standinSign(admin);
    const staffToken = await standinSign(staff);
    // Both have signed in: their profiles exist, the staff member is admin.
    expect((await call("/api/admin/stats/v2", { token: staffToken, bindings: p.bindings })).status).toBe(200);
    expect((await call("/api/profile", { token: adminToken, bindings: p.bindings })).body.is_admin).toBe(true);
    const cleanup = await call("/api/admin/cleanup-user", { method: "POST", token: adminToken, bindings: p.bindings, json: { email: staff.email } });
    expect(cleanup.status).toBe(200);
    return { p, staff, staffToken };
  }

  it("refuses the deleted user's still-valid token (401) and never recreates the profile", async () => {
    const { p, staff, staffToken } = await setUp();
    for (const path of ["/api/profile", "/api/admin/stats/v2", "/api/agents"]) {
      const res = await call(path, { token: staffToken, bindings: p.bindings });
      expect(res.status, path).toBe(401);
    }
    // A fresh token for the same id (signed before Supabase's deletion reached every edge) is refused too.
    const later = await standinSign({ ...staff, iat: now() + 1 });
    expect((await call("/api/profile", { token: later, bindings: p.bindings })).status).toBe(401);
    expect(await db().query.profiles.findFirst({ where: eq(profiles.id, staff.sub!) })).toBeUndefined();
  });

  it("a profile created from a token is never created with flags the provider does not confirm", async () => {
    const p = newProject();
    // Granted in the token, but the account at Supabase has no flag (or no longer exists).
    const claimed = userClaims(p, { app_metadata: { provider: "email", is_admin: true, shopwindows_info: true } });
    await seedUsers(p, [{ id: claimed.sub!, email: String(claimed.email) }]);
    const token = await standinSign(claimed);
    const first = await call("/api/profile", { token, bindings: p.bindings });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ is_admin: false, shopwindows_info: false, call_app: false });
    // The same token at its next request does not switch them on either.
    expect((await call("/api/admin/stats/v2", { token, bindings: p.bindings })).status).toBe(403);

    const ghost = userClaims(p, { app_metadata: { provider: "email", is_admin: true } });
    expect((await call("/api/profile", { token: await standinSign(ghost), bindings: p.bindings })).status).toBe(401);
    expect(await db().query.profiles.findFirst({ where: eq(profiles.id, ghost.sub!) })).toBeUndefined();

    // Without the admin API (no service-role key) the flags start off.
    const unverifiable = userClaims(p, { app_metadata: { provider: "email", is_admin: true } });
    await seedUsers(p, [{ id: unverifiable.sub!, email: String(unverifiable.email), app_metadata: { is_admin: true } }]);
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const res = await call("/api/profile", {
        token: await standinSign(unverifiable),
        bindings: { ...p.bindings, SUPABASE_SERVICE_ROLE_KEY: "" },
      });
      expect(res.status).toBe(200);
      expect(res.body.is_admin).toBe(false);
    } finally {
      logged.mockRestore();
    }
  });
});
