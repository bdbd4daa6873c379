// The local identity service, driven the way supabase-js drives it: answer shapes, error codes
// (read from `code` because X-Supabase-Api-Version is sent), sessions, rotation and revocation.
import { desc, eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import { describe, expect, it, vi } from "vitest";
import { authOneTimeTokens, authRefreshTokens, authUsers, mailOutbox } from "../db/schema";
import { sha256 } from "../lib/crypto";
import { REFRESH_REUSE_INTERVAL_SECONDS } from "../providers/identity/local/auth";
import { NEW_PASSWORD_TEXT } from "@shared/schemas/password";
import { call, db, linkToken, signUpAndSignIn, spendLink, uniqueEmail } from "../test/helpers";

const PASSWORD = "Secret123";

const mailsTo = (email: string) =>
  db().select().from(mailOutbox).where(eq(mailOutbox.toEmail, email.toLowerCase())).orderBy(desc(mailOutbox.id));

/** The path and query of a mailed link, to replay against the app. */
const pathOf = (link: string) => {
  const u = new URL(link);
  return u.pathname + u.search;
};

const signUp = (email: string, extra: Record<string, unknown> = {}, query = "") =>
  call(`/auth/v1/signup${query}`, {
    method: "POST",
    json: { email, password: PASSWORD, data: { username: "nick", name: "Nick", company: "Acme" }, ...extra },
  });

const signIn = (email: string, password = PASSWORD) =>
  call("/auth/v1/token?grant_type=password", { method: "POST", json: { email, password } });

const refresh = (refreshToken: string) =>
  call("/auth/v1/token?grant_type=refresh_token", { method: "POST", json: { refresh_token: refreshToken } });

const getUser = (token: string) => call("/auth/v1/user", { token });

async function confirm(email: string) {
  const [mail] = await mailsTo(email);
  return spendLink(mail.link!);
}

describe("POST /auth/v1/signup", () => {
  it("creates a bare user with an email identity and no session, and mails a confirmation link", async () => {
    const email = uniqueEmail("Signup");
    const res = await signUp(email);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-supabase-api-version")).toBe("2024-01-01");
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.email).toBe(email.toLowerCase());
    expect(res.body.aud).toBe("authenticated");
    expect(res.body.email_confirmed_at).toBeNull();
    expect(res.body.identities.length).toBeGreaterThan(0);
    expect(res.body.identities[0]).toMatchObject({ provider: "email", user_id: res.body.id });
    expect(res.body.user_metadata).toMatchObject({ username: "nick", company: "Acme", email_verified: false });
    // supabase-js treats a body with access_token as a session; a bare user means "confirm your email".
    expect(res.body).not.toHaveProperty("access_token");
    expect(res.body).not.toHaveProperty("session");

    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0].kind).toBe("signup");
    expect(mails[0].link).toMatch(/^http:\/\/localhost\/auth#token_hash=[\w-]{20,}&type=signup$/);
  });

  it("stores a PBKDF2 hash of the password, never the password, and keeps only known metadata", async () => {
    const email = uniqueEmail();
    const res = await signUp(email, { data: { username: "nick", is_admin: true, role: "service_role" } });
    const row = await db().query.authUsers.findFirst({ where: eq(authUsers.id, res.body.id) });
    expect(row!.passwordHash).toMatch(/^pbkdf2-sha256\$100000\$[\w-]{22}\$[\w-]{43}$/);
    expect(row!.passwordHash).not.toContain(PASSWORD);
    expect(row!.userMetadata).not.toHaveProperty("is_admin");
    expect(row!.userMetadata).not.toHaveProperty("role");
    expect(row!.appMetadata).toEqual({});
  });

  it("refuses a second account for the same email, whatever its case, with 422", async () => {
    const email = uniqueEmail();
    expect((await signUp(email)).status).toBe(200);
    const again = await signUp(email.toUpperCase());
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ code: "user_already_exists", msg: "User already registered" });
    expect(again.headers.get("x-supabase-api-version")).toBe("2024-01-01");
  });

  it("answers a second simultaneous registration of one email with 422, not 500", async () => {
    const email = uniqueEmail();
    const both = await Promise.all([signUp(email), signUp(email)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(both.find((r) => r.status === 422)!.body).toMatchObject({ code: "user_already_exists" });
  });

  it("answers bad input with 400 JSON naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ password: PASSWORD }, "email"],
      [{ email: "not-an-email", password: PASSWORD }, "email"],
      [{ email: `${"a".repeat(250)}@example.com`, password: PASSWORD }, "email"],
      [{ email: uniqueEmail() }, "password"],
      [{ email: uniqueEmail(), password: "" }, "password"],
      [{ email: uniqueEmail(), password: "x".repeat(129) }, "password"],
      [{ email: uniqueEmail(), password: PASSWORD, data: "nope" }, "data"],
    ];
    for (const [json, field] of cases) {
      const res = await call("/auth/v1/signup", { method: "POST", json });
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect(res.body.field).toBe(field);
      expect(typeof res.body.error).toBe("string");
    }
  });

  it("holds registration to the one password policy: 422 weak_password naming the rule broken, no account", async () => {
    for (const [password, reason, text] of [
      ["12345", "length", NEW_PASSWORD_TEXT.tooShort],
      ["Secret1", "length", NEW_PASSWORD_TEXT.tooShort],
      ["secret123", "characters", NEW_PASSWORD_TEXT.characters],
      ["SECRETSECRET", "characters", NEW_PASSWORD_TEXT.characters],
    ] as const) {
      const email = uniqueEmail("weak");
      const res = await call("/auth/v1/signup", { method: "POST", json: { email, password } });
      expect(res.status, password).toBe(422);
      expect(res.body).toMatchObject({ code: "weak_password", error_code: "weak_password", weak_password: { reasons: [reason] }, field: "password" });
      expect(res.body.msg).toBe(text);
      expect(await db().query.authUsers.findFirst({ where: eq(authUsers.email, email.toLowerCase()) })).toBeUndefined();
    }
    expect((await call("/auth/v1/signup", { method: "POST", json: { email: uniqueEmail("strong"), password: "Secret123" } })).status).toBe(200);
  });

  it("answers malformed JSON and an oversized body with 4xx JSON, never 500", async () => {
    const malformed = await call("/auth/v1/signup", {
      method: "POST",
      body: '{"email": ',
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.field).toBe("body");

    const huge = await call("/auth/v1/signup", {
      method: "POST",
      json: { email: uniqueEmail(), password: PASSWORD, data: { username: "x".repeat(70_000) } },
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ code: "payload_too_large", field: "body" });
  });

  it("keeps a same-origin redirect_to and drops another origin's", async () => {
    const own = uniqueEmail();
    await signUp(own, {}, `?redirect_to=${encodeURIComponent("http://localhost/welcome?x=1")}`);
    const ownLink = new URL((await mailsTo(own))[0].link!);
    expect(ownLink.pathname).toBe("/welcome");
    expect(ownLink.searchParams.get("x")).toBe("1");
    expect((await confirm(own)).status).toBe(200);

    const foreign = uniqueEmail();
    await signUp(foreign, {}, `?redirect_to=${encodeURIComponent("https://evil.example/steal")}`);
    const foreignLink = new URL((await mailsTo(foreign))[0].link!);
    expect(foreignLink.origin).toBe("http://localhost");
    expect(foreignLink.pathname).toBe("/auth");
  });
});

describe("mailed links: GET spends nothing, POST /auth/v1/verify spends", () => {
  it("mails a link to the page with the token in the fragment, never in the query", async () => {
    const email = uniqueEmail();
    await signUp(email);
    const [mail] = await mailsTo(email);
    const link = new URL(mail.link!);
    expect(link.pathname).toBe("/auth");
    expect(link.search).toBe("");
    expect(linkToken(mail.link!)).toEqual({ token_hash: expect.stringMatching(/^[\w-]{20,}$/), type: "signup" });
  });

  it("a GET of the link (a mail scanner, a prefetch) does not confirm, and the POST still does, once", async () => {
    const email = uniqueEmail();
    await signUp(email);
    const [mail] = await mailsTo(email);
    const { token_hash } = linkToken(mail.link!);
    // The page itself, and the old /auth/v1/verify form of the link: neither spends it.
    expect((await call(pathOf(mail.link!))).status).toBeLessThan(500);
    const old = await call(`/auth/v1/verify?token=${token_hash}&type=signup`);
    expect(old.status).toBe(303);
    const target = new URL(old.headers.get("location")!);
    expect(target.pathname).toBe("/auth");
    expect(target.search).toBe("");
    expect(linkToken(target.toString())).toEqual({ token_hash, type: "signup" });
    const before = await signIn(email);
    expect(before.status).toBe(400);
    expect(before.body).toMatchObject({ code: "email_not_confirmed", msg: "Email not confirmed" });
    expect(before.headers.get("x-supabase-api-version")).toBe("2024-01-01");

    const verified = await spendLink(mail.link!);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ email: email.toLowerCase(), email_confirmed_at: expect.any(String) });
    expect(verified.body.access_token).toBeUndefined();
    expect((await signIn(email)).status).toBe(200);

    const reused = await spendLink(mail.link!);
    expect(reused.status).toBe(403);
    expect(reused.body.code).toBe("otp_invalid");
  });

  it("refuses an expired link with otp_expired and leaves the account unconfirmed", async () => {
    const email = uniqueEmail();
    const { body } = await signUp(email);
    await db()
      .update(authOneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(authOneTimeTokens.userId, body.id));
    const res = await confirm(email);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("otp_expired");
    expect((await signIn(email)).body.code).toBe("email_not_confirmed");
  });

  it("answers an unknown token with otp_invalid and bad input with 400 naming the field", async () => {
    const unknown = await call("/auth/v1/verify", { method: "POST", json: { type: "signup", token_hash: "not-a-real-token" } });
    expect(unknown.status).toBe(403);
    expect(unknown.body.code).toBe("otp_invalid");
    for (const [json, field] of [
      [{ type: "signup" }, "token_hash"],
      [{ type: "magic", token_hash: "x" }, "type"],
      [{ type: "signup", token_hash: "x".repeat(201) }, "token_hash"],
    ] as const) {
      const res = await call("/auth/v1/verify", { method: "POST", json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.field).toBe(field);
    }
    for (const path of ["/auth/v1/verify?token=x&type=nonsense", "/auth/v1/verify?type=signup"]) {
      const res = await call(path);
      expect(res.status).toBe(303);
      const hash = new URLSearchParams(new URL(res.headers.get("location")!).hash.slice(1));
      expect(hash.get("error_code")).toBe("otp_invalid");
    }
  });
});

describe("POST /auth/v1/token?grant_type=password", () => {
  it("answers a session supabase-js can use: a decodable JWT, refresh token, expiry and user", async () => {
    const { email, userId } = await signUpAndSignIn();
    const res = await signIn(email);
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s.access_token.split(".")).toHaveLength(3);
    const claims = decodeJwt(s.access_token);
    expect(claims.sub).toBe(userId);
    expect(claims.role).toBe("authenticated");
    expect(claims.aud).toBe("authenticated");
    expect(typeof claims.session_id).toBe("string");
    expect(claims.exp).toBe(s.expires_at);
    expect(s.expires_in).toBe(900);
    expect(claims.exp! - claims.iat!).toBe(s.expires_in);
    expect(s.token_type).toBe("bearer");
    expect(typeof s.refresh_token).toBe("string");
    expect(s.refresh_token.length).toBeGreaterThanOrEqual(40);
    expect(s.user).toMatchObject({ id: userId, email: email.toLowerCase(), aud: "authenticated" });
    expect(s.user.last_sign_in_at).toBeTruthy();

    // The refresh token is stored only as its hash.
    const rows = await db().select().from(authRefreshTokens).where(eq(authRefreshTokens.userId, userId));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.tokenHash === s.refresh_token)).toBe(false);
    const hash = await sha256(s.refresh_token);
    expect(rows.filter((r) => r.tokenHash === hash)).toHaveLength(1);
  });

  it("refuses a wrong password and an unknown email alike with invalid_credentials", async () => {
    const { email } = await signUpAndSignIn();
    const wrong = await signIn(email, "wrong-password");
    const unknown = await signIn(uniqueEmail("nobody"));
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "invalid_credentials", msg: "Invalid login credentials" });
      expect(res.headers.get("x-supabase-api-version")).toBe("2024-01-01");
    }
    expect(Object.keys(wrong.body).sort()).toEqual(Object.keys(unknown.body).sort());
  });

  it("answers malformed JSON, missing or oversized fields and unknown grants with 400 JSON naming the field", async () => {
    const malformed = await call("/auth/v1/token?grant_type=password", {
      method: "POST",
      body: "{nope",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.field).toBe("body");

    const cases: [string, unknown, string][] = [
      ["password", { password: PASSWORD }, "email"],
      ["password", { email: uniqueEmail() }, "password"],
      ["password", { email: uniqueEmail(), password: "p".repeat(129) }, "password"],
      ["password", { email: `${"e".repeat(260)}@example.com`, password: PASSWORD }, "email"],
      ["refresh_token", {}, "refresh_token"],
      ["refresh_token", { refresh_token: "r".repeat(201) }, "refresh_token"],
    ];
    for (const [grant, json, field] of cases) {
      const res = await call(`/auth/v1/token?grant_type=${grant}`, { method: "POST", json });
      expect(res.status, `${grant} ${JSON.stringify(json).slice(0, 60)}`).toBe(400);
      expect(res.body.field).toBe(field);
      expect(res.body.error).toContain(field);
    }

    const grant = await call("/auth/v1/token?grant_type=magic", { method: "POST", json: {} });
    expect(grant.status).toBe(400);
    expect(grant.body.code).toBe("unsupported_grant_type");
  });
});

describe("sign-in rate limit", () => {
  it("answers 429 JSON after 10 attempts a minute for one address and email (before the account's own delay starts)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      // One fixed window, whatever the wall clock.
      vi.setSystemTime(Math.floor(Date.now() / 60_000) * 60_000 + 1_000);
      const { email, password } = await signUpAndSignIn();
      const attempt = (ip: string, pw = password) =>
        call("/auth/v1/token?grant_type=password", { method: "POST", ip, json: { email, password: pw } });
      // Correct passwords: the per-account failure delay never starts, only the address limit counts.
      for (let i = 0; i < 10; i++) expect((await attempt("10.9.0.1")).status).toBe(200);
      const limited = await attempt("10.9.0.1");
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe("rate_limited");
      expect(limited.headers.get("x-supabase-api-version")).toBe("2024-01-01");
      expect((await attempt("10.9.0.2")).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("POST /auth/v1/token?grant_type=refresh_token", () => {
  it("rotates: the new pair works, the old token is refused, and its reuse ends the session", async () => {
    const first = await signUpAndSignIn();
    const rotated = await refresh(first.refreshToken);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(first.refreshToken);
    expect(rotated.body.access_token.split(".")).toHaveLength(3);
    expect(decodeJwt(rotated.body.access_token).session_id).toBe(decodeJwt(first.accessToken).session_id);
    expect((await getUser(rotated.body.access_token)).status).toBe(200);

    const newest = await refresh(rotated.body.refresh_token);
    expect(newest.status).toBe(200);

    // Replaying a rotated token after the reuse interval is a theft signal: refused, and the whole session ends.
    vi.useFakeTimers({ toFake: ["Date"] });
    let replay;
    try {
      vi.setSystemTime(Date.now() + (REFRESH_REUSE_INTERVAL_SECONDS + 1) * 1000);
      replay = await refresh(first.refreshToken);
    } finally {
      vi.useRealTimers();
    }
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe("refresh_token_already_used");

    const afterReplay = await refresh(newest.body.refresh_token);
    expect(afterReplay.status).toBe(400);
    expect(afterReplay.body.code).toBe("refresh_token_not_found");
    expect((await getUser(newest.body.access_token)).status).toBe(401);
    expect((await call("/api/profile", { token: newest.body.access_token })).status).toBe(401);
  });

  it("answers a just-rotated token presented again within the reuse interval with the same successor (two tabs, a lost answer)", async () => {
    const first = await signUpAndSignIn();
    const [a, b] = await Promise.all([refresh(first.refreshToken), refresh(first.refreshToken)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    // One chain: both answers carry the same successor, never a second branch.
    expect(a.body.refresh_token).toBe(b.body.refresh_token);
    const again = await refresh(first.refreshToken);
    expect(again.status).toBe(200);
    expect(again.body.refresh_token).toBe(a.body.refresh_token);
    const live = await db().select().from(authRefreshTokens).where(eq(authRefreshTokens.userId, first.userId));
    expect(live.filter((t) => !t.revoked)).toHaveLength(1);
    // The successor rotates on; the original, presented again, now follows the chain to its live end.
    const next = await refresh(a.body.refresh_token);
    expect(next.status).toBe(200);
    const followed = await refresh(first.refreshToken);
    expect(followed.status).toBe(200);
    expect(followed.body.refresh_token).toBe(next.body.refresh_token);
    expect((await getUser(followed.body.access_token)).status).toBe(200);
    expect(decodeJwt(a.body.access_token).session_id).toBe(decodeJwt(next.body.access_token).session_id);
  });

  it("refuses an unknown refresh token with refresh_token_not_found", async () => {
    const res = await refresh("this-token-was-never-issued-by-us");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "refresh_token_not_found" });
  });
});

describe("GET and PUT /auth/v1/user", () => {
  it("returns the user for a valid bearer and 401 without one", async () => {
    const s = await signUpAndSignIn();
    const me = await getUser(s.accessToken);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: s.userId, email: s.email.toLowerCase(), role: "authenticated" });
    expect(me.body.identities.length).toBeGreaterThan(0);

    const none = await call("/auth/v1/user");
    expect(none.status).toBe(401);
    expect(none.body.code).toBe("no_authorization");
    const bad = await getUser("a.b.c");
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe("bad_jwt");
  });

  it("changes the password and the known metadata keys, never flags", async () => {
    const s = await signUpAndSignIn();
    const res = await call("/auth/v1/user", {
      method: "PUT",
      token: s.accessToken,
      json: { password: "New-secret-456", current_password: s.password, data: { username: "renamed", company: "NewCo", is_admin: true } },
    });
    expect(res.status).toBe(200);
    expect(res.body.user_metadata).toMatchObject({ username: "renamed", company: "NewCo" });
    expect(res.body.user_metadata).not.toHaveProperty("is_admin");

    expect((await signIn(s.email, s.password)).body.code).toBe("invalid_credentials");
    const again = await signIn(s.email, "New-secret-456");
    expect(again.status).toBe(200);
    expect(again.body.user.user_metadata.username).toBe("renamed");
    expect((await call("/api/profile", { token: again.body.access_token })).body.is_admin).toBe(false);
  });

  it("answers bad input and a missing bearer with 4xx JSON", async () => {
    const s = await signUpAndSignIn();
    const short = await call("/auth/v1/user", { method: "PUT", token: s.accessToken, json: { password: "123", current_password: s.password } });
    expect(short.status).toBe(422);
    expect(short.body).toMatchObject({ code: "weak_password", field: "password", weak_password: { reasons: ["length"] } });
    const empty = await call("/auth/v1/user", { method: "PUT", token: s.accessToken, json: { password: "" } });
    expect(empty.status).toBe(400);
    expect(empty.body.field).toBe("password");
    const malformed = await call("/auth/v1/user", {
      method: "PUT",
      token: s.accessToken,
      body: "{",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.field).toBe("body");
    const anonymous = await call("/auth/v1/user", { method: "PUT", json: { data: { username: "x" } } });
    expect(anonymous.status).toBe(401);
  });
});

describe("POST /auth/v1/logout", () => {
  it("revokes the session: its access token is refused by /auth/v1/user and /api/profile", async () => {
    const s = await signUpAndSignIn();
    expect((await call("/api/profile", { token: s.accessToken })).status).toBe(200);

    const out = await call("/auth/v1/logout?scope=global", { method: "POST", token: s.accessToken });
    expect(out.status).toBe(204);

    expect((await getUser(s.accessToken)).status).toBe(401);
    const profile = await call("/api/profile", { token: s.accessToken });
    expect(profile.status).toBe(401);
    expect(profile.body.code).toBe("unauthorized");
    expect((await refresh(s.refreshToken)).status).toBe(400);
  });

  it("with scope=local ends only the current session", async () => {
    const a = await signUpAndSignIn();
    const b = await signIn(a.email, a.password);
    expect((await call("/auth/v1/logout?scope=local", { method: "POST", token: a.accessToken })).status).toBe(204);
    expect((await getUser(a.accessToken)).status).toBe(401);
    expect((await getUser(b.body.access_token)).status).toBe(200);
  });

  it("refuses an unknown scope and a missing bearer", async () => {
    const s = await signUpAndSignIn();
    const scope = await call("/auth/v1/logout?scope=everyone", { method: "POST", token: s.accessToken });
    expect(scope.status).toBe(400);
    expect((await getUser(s.accessToken)).status).toBe(200);
    expect((await call("/auth/v1/logout", { method: "POST" })).status).toBe(401);
  });
});

describe("POST /auth/v1/resend", () => {
  it("answers {} alike for unknown, confirmed and unconfirmed emails; mails only the unconfirmed one", async () => {
    const unconfirmed = uniqueEmail();
    await signUp(unconfirmed);
    const confirmed = (await signUpAndSignIn()).email;
    const unknown = uniqueEmail("ghost");
    const before = { u: (await mailsTo(unconfirmed)).length, c: (await mailsTo(confirmed)).length };

    for (const email of [unknown, confirmed, unconfirmed]) {
      const res = await call("/auth/v1/resend", { method: "POST", json: { type: "signup", email } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
    }
    expect(await mailsTo(unknown)).toHaveLength(0);
    expect(await mailsTo(confirmed)).toHaveLength(before.c);
    const after = await mailsTo(unconfirmed);
    expect(after).toHaveLength(before.u + 1);

    // The new link confirms the account.
    const verified = await spendLink(after[0].link!);
    expect(verified.status).toBe(200);
    expect(verified.body.email_confirmed_at).toEqual(expect.any(String));
  });

  it("answers bad input with 400 JSON naming the field", async () => {
    const noEmail = await call("/auth/v1/resend", { method: "POST", json: { type: "signup" } });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.field).toBe("email");
    const badType = await call("/auth/v1/resend", { method: "POST", json: { type: "sms", email: uniqueEmail() } });
    expect(badType.status).toBe(400);
    expect(badType.body.field).toBe("type");
    const malformed = await call("/auth/v1/resend", {
      method: "POST",
      body: "[",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.field).toBe("body");
  });
});

describe("/auth/v1 settings and keys", () => {
  it("answers settings and an empty JWKS with the API version header", async () => {
    const settings = await call("/auth/v1/settings");
    expect(settings.status).toBe(200);
    expect(settings.body.mailer_autoconfirm).toBe(false);
    expect(settings.headers.get("x-supabase-api-version")).toBe("2024-01-01");
    // Local tokens are HS256 with a server-only secret: no public key to publish.
    expect((await call("/auth/v1/.well-known/jwks.json")).body).toEqual({ keys: [] });
  });
});
