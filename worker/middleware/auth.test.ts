// Who may pass: forged, expired, foreign and non-user tokens are refused with 401 JSON on protected
// routes; admin and feature flags come from server-side state only; the profile repairs itself.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { decodeJwt, SignJWT, UnsecuredJWT, type JWTPayload } from "jose";
import { describe, expect, it } from "vitest";
import type { Database } from "../db/client";
import { authUsers, profiles } from "../db/schema";
import { parseConfig } from "../env";
import type { AppEnv } from "../app-env";
import { toBase64Url } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { localAuthSecret } from "../providers";
import { DEV_AUTH_SECRET, LocalIdentity } from "../providers/identity/local";
import { call, db, signUpAndSignIn, uniqueEmail } from "../test/helpers";
import { loadProfile } from "../services/profiles";
import { shardBindings } from "../db/shards";
import { authenticate, requireAdmin, requireFlag } from "./auth";
import { requestContext } from "./context";
import { onError } from "../lib/errors";

const secret = new TextEncoder().encode(localAuthSecret(parseConfig(env as unknown as Record<string, unknown>)));

const sign = (claims: JWTPayload, key: Uint8Array = secret) =>
  new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(key);

const now = () => Math.floor(Date.now() / 1000);
const SHARDS = shardBindings(env as unknown as Record<string, unknown>);

/** A small app with the real context and auth middleware in front of each guard. */
const guarded = new Hono<AppEnv>()
  .use("*", requestContext(() => Promise.reject(new Error("no self-dispatch in this app"))))
  .use("*", authenticate)
  .get("/admin", requireAdmin, (c) => c.json({ ok: true }))
  .get("/shopwindows", requireFlag("shopwindowsInfo"), (c) => c.json({ ok: true }))
  .get("/call-app", requireFlag("callApp"), (c) => c.json({ ok: true }));
guarded.onError(onError);

async function guardedCall(path: string, token: string) {
  const res = await guarded.request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } }, env);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function expectRefused(token: string) {
  for (const [path, init] of [
    ["/api/profile", {}],
    ["/api/admin/public/update-user-profile", { method: "POST", json: { email: "a@example.com", username: "x" } }],
  ] as const) {
    const res = await call(path, { ...init, token });
    expect(res.status, path).toBe(401);
    expect(res.body.code).toBe("unauthorized");
    expect(typeof res.body.error).toBe("string");
    expect(typeof res.body.requestId).toBe("string");
  }
  expect((await call("/auth/v1/user", { token })).status).toBe(401);
}

describe("tokens refused by protected routes", () => {
  it("accepts the untouched claims re-signed with the right secret (control)", async () => {
    const s = await signUpAndSignIn();
    const res = await call("/api/profile", { token: await sign(decodeJwt(s.accessToken)) });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(s.userId);
  });

  it("refuses a tampered signature and a tampered payload", async () => {
    const s = await signUpAndSignIn();
    const [h, p, sig] = s.accessToken.split(".");
    const flipped = sig.slice(0, 10) + (sig[10] === "A" ? "B" : "A") + sig.slice(11);
    await expectRefused(`${h}.${p}.${flipped}`);
    const payload = { ...decodeJwt(s.accessToken), app_metadata: { is_admin: true } };
    const forgedPayload = toBase64Url(new TextEncoder().encode(JSON.stringify(payload)));
    await expectRefused(`${h}.${forgedPayload}.${sig}`);
  });

  it("refuses a token signed with another secret", async () => {
    const s = await signUpAndSignIn();
    await expectRefused(await sign(decodeJwt(s.accessToken), new TextEncoder().encode("some-other-secret-of-enough-length-000")));
  });

  it("refuses an expired token", async () => {
    const s = await signUpAndSignIn();
    await expectRefused(await sign({ ...decodeJwt(s.accessToken), iat: now() - 3600, exp: now() - 60 }));
  });

  it("refuses a wrong audience and a wrong issuer", async () => {
    const s = await signUpAndSignIn();
    const claims = decodeJwt(s.accessToken);
    await expectRefused(await sign({ ...claims, aud: "some-other-app" }));
    await expectRefused(await sign({ ...claims, iss: "https://evil.example/auth/v1" }));
  });

  it("refuses alg none", async () => {
    const s = await signUpAndSignIn();
    await expectRefused(new UnsecuredJWT(decodeJwt(s.accessToken)).encode());
  });

  it("refuses anon-key and service-role-key style tokens signed with the right secret", async () => {
    const s = await signUpAndSignIn();
    const claims = decodeJwt(s.accessToken);
    // Shaped like Supabase's legacy keys: no user, a project role.
    for (const role of ["anon", "service_role"]) {
      await expectRefused(await sign({ iss: "supabase", ref: "project", role, iat: now(), exp: now() + 3600 }));
      await expectRefused(await sign({ ...claims, role }));
    }
  });

  it("refuses a token without a session and a token naming another user's session", async () => {
    const a = await signUpAndSignIn();
    const b = await signUpAndSignIn();
    const { session_id: _, ...noSession } = decodeJwt(a.accessToken);
    await expectRefused(await sign(noSession));
    await expectRefused(await sign({ ...decodeJwt(a.accessToken), session_id: decodeJwt(b.accessToken).session_id }));
  });

  it("refuses the token of a signed-out session", async () => {
    const s = await signUpAndSignIn();
    expect((await call("/auth/v1/logout", { method: "POST", token: s.accessToken })).status).toBe(204);
    await expectRefused(s.accessToken);
  });

  it("treats an empty or non-bearer Authorization header as signed out", async () => {
    for (const authorization of ["Bearer ", "Basic dXNlcjpwYXNz", "garbage"]) {
      const res = await call("/api/profile", { headers: { authorization } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("unauthorized");
    }
  });
});

describe("flags come from server-side state", () => {
  it("ignores is_admin in user_metadata", async () => {
    const s = await signUpAndSignIn();
    await db()
      .update(authUsers)
      .set({ userMetadata: { username: "tester", is_admin: true, shopwindows_info: true, call_app: true } })
      .where(eq(authUsers.id, s.userId));
    const profile = await call("/api/profile", { token: s.accessToken });
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ is_admin: false, shopwindows_info: false, call_app: false });
    expect((await guardedCall("/admin", s.accessToken)).status).toBe(403);
    expect((await guardedCall("/shopwindows", s.accessToken)).status).toBe(403);
  });

  it("mirrors app_metadata flags to the profile on the next request, both ways", async () => {
    const s = await signUpAndSignIn();
    expect((await call("/api/profile", { token: s.accessToken })).body.is_admin).toBe(false);

    await db()
      .update(authUsers)
      .set({ appMetadata: { is_admin: true, shopwindows_info: true, call_app: true } })
      .where(eq(authUsers.id, s.userId));
    const granted = await call("/api/profile", { token: s.accessToken });
    expect(granted.body).toMatchObject({ is_admin: true, shopwindows_info: true, call_app: true });
    const row = await db().query.profiles.findFirst({ where: eq(profiles.id, s.userId) });
    expect(row).toMatchObject({ isAdmin: true, shopwindowsInfo: true, callApp: true });
    expect((await guardedCall("/admin", s.accessToken)).status).toBe(200);

    await db().update(authUsers).set({ appMetadata: { shopwindows_info: true } }).where(eq(authUsers.id, s.userId));
    const revoked = await call("/api/profile", { token: s.accessToken });
    expect(revoked.body).toMatchObject({ is_admin: false, shopwindows_info: true, call_app: false });
    expect((await guardedCall("/admin", s.accessToken)).status).toBe(403);
    expect((await guardedCall("/shopwindows", s.accessToken)).status).toBe(200);
    expect((await guardedCall("/call-app", s.accessToken)).status).toBe(403);
  });

  it("resets a profile flag that app_metadata does not grant", async () => {
    const s = await signUpAndSignIn();
    await db().update(profiles).set({ isAdmin: true }).where(eq(profiles.id, s.userId));
    expect((await call("/api/profile", { token: s.accessToken })).body.is_admin).toBe(false);
  });

  it("answers the admin and flag guards with 403 JSON for a signed-in user and 401 when signed out", async () => {
    const s = await signUpAndSignIn();
    const admin = await guardedCall("/admin", s.accessToken);
    expect(admin.status).toBe(403);
    expect(admin.body.code).toBe("forbidden");
    const signedOut = await guarded.request("http://localhost/admin", {}, env);
    expect(signedOut.status).toBe(401);
    expect(((await signedOut.json()) as { code: string }).code).toBe("unauthorized");
  });
});

describe("admin routes", () => {
  it("answer 403 to a non-admin on PUT /api/admin/config/phone-limit", async () => {
    const s = await signUpAndSignIn();
    const res = await call("/api/admin/config/phone-limit", { method: "PUT", token: s.accessToken, json: { phoneNumberLimit: 5 } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("forbidden");
    expect(typeof res.body.error).toBe("string");
    const signedOut = await call("/api/admin/config/phone-limit", { method: "PUT", json: { phoneNumberLimit: 5 } });
    expect(signedOut.status).toBe(401);
  });

  it("admit is_admin from app_metadata only, and the refused change leaves the limit alone", async () => {
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    const pretender = await signUpAndSignIn();
    await db().update(authUsers).set({ userMetadata: { is_admin: true } }).where(eq(authUsers.id, pretender.userId));
    const read = () => call("/api/admin/config/phone-limit", { token: pretender.accessToken });
    const before = (await read()).body.phoneNumberLimit;
    const wanted = before === 7 ? 8 : 7;

    const refused = await call("/api/admin/config/phone-limit", { method: "PUT", token: pretender.accessToken, json: { phoneNumberLimit: wanted } });
    expect(refused.status).toBe(403);
    expect((await read()).body.phoneNumberLimit).toBe(before);

    const allowed = await call("/api/admin/config/phone-limit", { method: "PUT", token: admin.accessToken, json: { phoneNumberLimit: wanted } });
    expect(allowed.status).toBe(200);
    expect((await read()).body.phoneNumberLimit).toBe(wanted);
  });
});

describe("profile on first authenticated request", () => {
  it("creates the missing profile from the verified identity", async () => {
    const s = await signUpAndSignIn({ appMetadata: { call_app: true } });
    await db().delete(profiles).where(eq(profiles.id, s.userId));

    const res = await call("/api/profile", { token: s.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: s.userId, email: s.email.toLowerCase(), username: "tester", company: "Acme", call_app: true, is_admin: false });
    const row = await db().query.profiles.findFirst({ where: eq(profiles.id, s.userId) });
    expect(row).toMatchObject({ username: "tester", company: "Acme", callApp: true });
  });

  it("uses the row a concurrent request inserted when its own insert fails", async () => {
    const real = db();
    const who = { id: crypto.randomUUID(), email: uniqueEmail(), appMetadata: {}, userMetadata: { username: "racer" } };
    const racing = new Proxy(real, {
      get(target, key, receiver) {
        if (key !== "insert") return Reflect.get(target, key, receiver);
        // The other request wins the race, then this insert fails.
        const fail = async () => {
          await real.insert(profiles).values({ id: who.id, email: who.email, username: "racer" });
          throw new Error("D1_ERROR: UNIQUE constraint failed: profiles.id");
        };
        return () => ({ values: () => ({ onConflictDoNothing: () => ({ returning: fail }) }) });
      },
    }) as Database;
    const user = await loadProfile(racing, new LocalIdentity(real, DEV_AUTH_SECRET), who, undefined, SHARDS);
    expect(user).toMatchObject({ id: who.id, username: "racer", isAdmin: false });
  });

  it("refuses the request when the profile cannot be created, and repairs it on the next one", async () => {
    const real = db();
    const who = { id: crypto.randomUUID(), email: uniqueEmail(), appMetadata: {}, userMetadata: { username: "later" } };
    const broken = new Proxy(real, {
      get(target, key, receiver) {
        if (key === "insert") return () => ({ values: () => ({ onConflictDoNothing: () => ({ returning: async () => { throw new Error("D1_ERROR: simulated outage"); } }) }) });
        return Reflect.get(target, key, receiver);
      },
    }) as Database;
    const failed = await loadProfile(broken, new LocalIdentity(real, DEV_AUTH_SECRET), who, undefined, SHARDS).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ApiError);
    expect((failed as ApiError).status).toBe(401);

    const repaired = await loadProfile(real, new LocalIdentity(real, DEV_AUTH_SECRET), who, undefined, SHARDS);
    expect(repaired).toMatchObject({ id: who.id, username: "later" });
  });
});
