// Attacks on accounts, each performed against the app: email change without proof, brute force and
// lock-outs, sessions that outlive a password change or their limits, password recovery.
import { desc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { authSessions, authSignInFailures, authUsers, mailOutbox, rateLimits } from "../db/schema";
import { addressBucket } from "../db/rate-limit";
import { pruneCountersJob } from "../jobs";
import { SIGN_IN_MAX_DELAY_SECONDS } from "../providers/identity/local/sign-in-guard";
import { SESSION_INACTIVITY_TIMEOUT_SECONDS, SESSION_MAX_LIFETIME_SECONDS } from "../providers/identity/local/auth";
import { RECOVERY_TOKEN_TTL_MINUTES } from "../providers/identity/local/account-links";
import { call, db, signUpAndSignIn, spendLink, uniqueEmail, testShards } from "../test/helpers";
import { NEW_PASSWORD_TEXT } from "@shared/schemas/password";

const mailsTo = (email: string) =>
  db().select().from(mailOutbox).where(eq(mailOutbox.toEmail, email.toLowerCase())).orderBy(desc(mailOutbox.id));
const signIn = (email: string, password: string, ip?: string) =>
  call("/auth/v1/token?grant_type=password", { method: "POST", ip, json: { email, password } });
const refresh = (refreshToken: string) =>
  call("/auth/v1/token?grant_type=refresh_token", { method: "POST", json: { refresh_token: refreshToken } });
const changeEmail = (s: { accessToken: string; email: string }, newEmail: string, ip?: string) =>
  call("/api/admin/public/update-user-profile", { method: "POST", token: s.accessToken, ip, json: { email: s.email, username: "tester", newEmail } });
const recover = (email: string, ip?: string, query = "") => call(`/auth/v1/recover${query}`, { method: "POST", ip, json: { email } });
const setPassword = (token: string, json: Record<string, unknown>) => call("/auth/v1/user", { method: "PUT", token, json });

/** Opens a mailed link as a mail scanner would (a GET spends nothing), then spends it as its page does. */
async function follow(link: string) {
  const page = new URL(link);
  expect((await call(page.pathname + page.search)).status).toBeLessThan(500);
  return spendLink(link);
}

describe("email change needs proof from the new address", () => {
  it("a stolen token cannot move the account: nothing changes until the link mailed to the new address is followed", async () => {
    const victim = await signUpAndSignIn();
    const attacker = uniqueEmail("attacker");
    const res = await changeEmail(victim, attacker);
    expect(res.status).toBe(200);
    expect(res.body.emailChangeSent).toBe(true);
    // The victim still signs in with the old email; the attacker's address does not work.
    expect((await signIn(victim.email, victim.password)).status).toBe(200);
    expect((await signIn(attacker, victim.password)).body.code).toBe("invalid_credentials");
    // The old address is told, with the new one masked.
    const [notice] = await mailsTo(victim.email);
    expect(notice.kind).toBe("email_change_notice");
    expect(notice.bodyText).toContain(attacker.slice(0, 2) + "***@");
    // The new address got the link; following it moves the account.
    const [confirm] = await mailsTo(attacker);
    expect(confirm.kind).toBe("email_change");
    expect(new URL(confirm.link!).pathname).toBe("/auth");
    // Until the page spends it, nothing moves.
    expect((await signIn(victim.email, victim.password)).status).toBe(200);
    const landing = await follow(confirm.link!);
    expect(landing.status).toBe(200);
    expect(landing.body.email).toBe(attacker.toLowerCase());
    expect((await signIn(attacker, victim.password)).status).toBe(200);
    expect((await signIn(victim.email, victim.password)).body.code).toBe("invalid_credentials");
    expect((await call("/api/profile", { token: victim.accessToken })).body.email).toBe(attacker.toLowerCase());
    // The link works once.
    expect((await follow(confirm.link!)).body.code).toBe("otp_invalid");
  });

  it("cannot squat an address: the address's owner still registers it while a change to it is pending", async () => {
    const squatter = await signUpAndSignIn();
    const owner = uniqueEmail("owner");
    expect((await changeEmail(squatter, owner)).status).toBe(200);
    const signup = await call("/auth/v1/signup", { method: "POST", json: { email: owner, password: "Secret123" } });
    expect(signup.status).toBe(200);
    // The squatter's pending link now fails cleanly instead of taking the address.
    const link = (await mailsTo(owner)).find((m) => m.kind === "email_change")!.link!;
    expect((await follow(link)).body.code).toBe("email_exists");
  });

  it("does not tell whether the new address has an account (no 409 to enumerate with), and mails nothing to it", async () => {
    const me = await signUpAndSignIn();
    const taken = await signUpAndSignIn();
    const before = (await mailsTo(taken.email)).length;
    const busy = await changeEmail(me, taken.email);
    const free = await changeEmail(me, uniqueEmail("free"));
    expect(busy.status).toBe(200);
    expect(busy.body).toEqual(free.body);
    expect((await mailsTo(taken.email)).length).toBe(before);
  });

  it("is rate limited per account", async () => {
    const me = await signUpAndSignIn();
    for (let i = 0; i < 5; i++) expect((await changeEmail(me, uniqueEmail("many"))).status).toBe(200);
    const limited = await changeEmail(me, uniqueEmail("many"));
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("rate_limited");
    // A save without an email change still works.
    const plain = await call("/api/admin/public/update-user-profile", { method: "POST", token: me.accessToken, json: { email: me.email, username: "still" } });
    expect(plain.status).toBe(200);
  });

  it("two accounts confirming a change to the same address at once: one moves, the other is told, never a 500", async () => {
    const [a, b] = await Promise.all([signUpAndSignIn(), signUpAndSignIn()]);
    const target = uniqueEmail("contested");
    const [ra, rb] = await Promise.all([changeEmail(a, target), changeEmail(b, target)]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    const links = (await mailsTo(target)).filter((m) => m.kind === "email_change").map((m) => m.link!);
    expect(links).toHaveLength(2);
    const results = await Promise.all(links.map((l) => spendLink(l)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(results.filter((r) => r.body.code === "email_exists")).toHaveLength(1);
    const owners = await db().select().from(authUsers).where(eq(authUsers.email, target.toLowerCase()));
    expect(owners).toHaveLength(1);
  });
});

describe("brute force", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Math.floor(Date.now() / 60_000) * 60_000 + 1_000);
  });
  afterEach(() => vi.useRealTimers());

  it("slows guessing of one account from one address with a growing delay, without a password check during it", async () => {
    const { email, password } = await signUpAndSignIn();
    const ip = "10.60.0.1";
    // Five guesses (under every per-address limit).
    for (let i = 0; i < 5; i++) expect((await signIn(email, `guess-${i}`, ip)).body.code).toBe("invalid_credentials");
    // Now even the right password waits from there: the guesser learns nothing during the delay.
    const locked = await signIn(email, password, ip);
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ code: "over_request_rate_limit", retry_after: 2 });
    const deriveBits = vi.spyOn(crypto.subtle, "deriveBits");
    expect((await signIn(email, "guess-x", ip)).status).toBe(429);
    expect(deriveBits).not.toHaveBeenCalled();
    deriveBits.mockRestore();
    // After the delay the next failure doubles it.
    vi.setSystemTime(Date.now() + 2_001);
    expect((await signIn(email, "guess-6", ip)).body.code).toBe("invalid_credentials");
    expect((await signIn(email, password, ip)).body.retry_after).toBe(4);
    // The wait never passes the cap, however long the guessing went on (one guess a minute stays under the address limits).
    for (let i = 0; i < 12; i++) {
      vi.setSystemTime(Date.now() + SIGN_IN_MAX_DELAY_SECONDS * 1000 + 1);
      await signIn(email, `more-${i}`, ip);
    }
    const capped = await signIn(email, password, ip);
    expect(capped.body.retry_after).toBeLessThanOrEqual(SIGN_IN_MAX_DELAY_SECONDS);
    vi.setSystemTime(Date.now() + SIGN_IN_MAX_DELAY_SECONDS * 1000 + 1);
    expect((await signIn(email, password, ip)).status).toBe(200);
    // A success clears the count.
    expect(await db().query.authSignInFailures.findFirst({ where: eq(authSignInFailures.email, `${email.toLowerCase()}|${ip}`) })).toBeUndefined();
  });

  it("delays only the address that failed: the owner's correct password from elsewhere signs in", async () => {
    const { email, password } = await signUpAndSignIn();
    for (let i = 0; i < 6; i++) await signIn(email, `guess-${i}`, "10.65.0.1");
    expect((await signIn(email, password, "10.65.0.1")).status).toBe(429);
    const owner = await signIn(email, password, "10.65.1.1");
    expect(owner.status).toBe(200);
    expect(owner.body.access_token).toEqual(expect.any(String));
    // An IPv6 guesser is one client across its /64, and the owner in another /64 is unaffected.
    for (let i = 0; i < 6; i++) await signIn(email, `v6-${i}`, `2001:db8:65:1::${i + 1}`);
    expect((await signIn(email, password, "2001:db8:65:1::ff")).status).toBe(429);
    expect((await signIn(email, password, "2001:db8:65:2::1")).status).toBe(200);
  });

  it("delays an unknown email exactly like a real one, so the delay does not reveal accounts", async () => {
    const ghost = uniqueEmail("ghost");
    for (let i = 0; i < 5; i++) await signIn(ghost, `guess-${i}`, "10.62.0.1");
    const res = await signIn(ghost, "guess", "10.62.0.1");
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("over_request_rate_limit");
  });

  it("lets concurrent guesses through no faster than the free attempts", async () => {
    const { email } = await signUpAndSignIn();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn(email, `burst-${i}`, "10.63.0.1")));
    expect(results.filter((r) => r.body.code === "invalid_credentials").length).toBeLessThanOrEqual(5);
    expect(results.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(7);
  });

  it("bounds the PBKDF2 work of one address: 30 sign-ins a minute across any emails, IPv6 counted per /64", async () => {
    const r = Math.floor(Math.random() * 0xffff).toString(16);
    const attempts = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(uniqueEmail("spray"), "whatever", `2001:db8:${r}:1::${(i + 1).toString(16)}`)));
    expect(attempts.map((a) => a.status)).toEqual(Array(30).fill(400));
    const deriveBits = vi.spyOn(crypto.subtle, "deriveBits");
    const over = await signIn(uniqueEmail("spray"), "whatever", `2001:db8:${r}:1:dead:beef:0:1`);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe("rate_limited");
    expect(deriveBits).not.toHaveBeenCalled();
    // The spy sees the hashing of an attempt that is let through (from the next /64).
    await signIn(uniqueEmail("spray"), "whatever", `2001:db8:${r}:2::1`);
    expect(deriveBits).toHaveBeenCalled();
    deriveBits.mockRestore();
  });

  it("buckets addresses: IPv6 by /64 in any spelling, IPv4-mapped as IPv4", () => {
    expect(addressBucket("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:0db8:0001:0002:ffff::1")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressBucket("[2001:DB8:1:2::9]")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(addressBucket("192.0.2.7")).toBe("192.0.2.7");
  });

  it("cannot lock a victim out of sign-up or resend by hammering their email from elsewhere", async () => {
    const victim = uniqueEmail("victim");
    for (let i = 0; i < 12; i++) await call("/auth/v1/resend", { method: "POST", ip: "10.64.0.1", json: { type: "signup", email: victim } });
    for (let i = 0; i < 12; i++) await call("/auth/v1/signup", { method: "POST", ip: "10.64.0.2", json: { email: victim, password: "" } });
    // The victim, from their own address, registers and asks for the mail again.
    const signup = await call("/auth/v1/signup", { method: "POST", ip: "10.64.1.1", json: { email: victim, password: "Secret123" } });
    expect(signup.status).toBe(200);
    const resend = await call("/auth/v1/resend", { method: "POST", ip: "10.64.1.1", json: { type: "signup", email: victim } });
    expect(resend.status).toBe(200);
  });

  it("caps account mail to one address at 5 an hour with the same answer, so nobody can mail-bomb it", async () => {
    const { email } = await signUpAndSignIn();
    for (let i = 0; i < 8; i++) expect((await recover(email, `10.65.${i}.1`)).status).toBe(200);
    expect((await mailsTo(email)).filter((m) => m.kind === "recovery")).toHaveLength(5);
  });

  it("the daily job prunes counters older than a day", async () => {
    const old = Math.floor(Date.now() / 1000) - 2 * 86_400;
    await db().insert(rateLimits).values({ key: `test-prune:${uniqueEmail()}`, windowStart: old, count: 3 });
    const oldEmail = uniqueEmail("old");
    await db().insert(authSignInFailures).values({ email: oldEmail, failures: 3, lastFailedAt: Date.now() - 2 * 86_400_000 });
    const freshEmail = uniqueEmail("fresh");
    await db().insert(authSignInFailures).values({ email: freshEmail, failures: 1, lastFailedAt: Date.now() });
    const result = (await pruneCountersJob.run({ db: db(), shards: testShards(), config: {} as never, now: new Date() })) as { rateLimits: number; signInFailures: number };
    expect(result.rateLimits).toBeGreaterThanOrEqual(1);
    expect(result.signInFailures).toBeGreaterThanOrEqual(1);
    expect(await db().query.authSignInFailures.findFirst({ where: eq(authSignInFailures.email, oldEmail) })).toBeUndefined();
    expect(await db().query.authSignInFailures.findFirst({ where: eq(authSignInFailures.email, freshEmail) })).toBeTruthy();
  });
});

describe("sessions", () => {
  it("a password change needs the current password and ends every other session and refresh token", async () => {
    const s = await signUpAndSignIn();
    const other = await signIn(s.email, s.password);
    // A stolen access token alone cannot set a new password.
    const missing = await setPassword(s.accessToken, { password: "Hijacked-123" });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: "reauthentication_needed", field: "current_password" });
    const wrong = await setPassword(s.accessToken, { password: "Hijacked-123", current_password: "not-it" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("invalid_credentials");
    expect((await signIn(s.email, s.password)).status).toBe(200);

    const ok = await setPassword(s.accessToken, { password: "Changed-456", current_password: s.password });
    expect(ok.status).toBe(200);
    // This session goes on; the others (a thief's) end, refresh tokens included.
    expect((await call("/auth/v1/user", { token: s.accessToken })).status).toBe(200);
    expect((await call("/auth/v1/user", { token: other.body.access_token })).status).toBe(401);
    expect((await refresh(other.body.refresh_token)).status).toBe(400);
    expect((await refresh(s.refreshToken)).status).toBe(200);
  });

  it("ends a session past its maximum lifetime, however active", async () => {
    const s = await signUpAndSignIn();
    const session = await db().query.authSessions.findFirst({ where: eq(authSessions.userId, s.userId) });
    const born = new Date(Date.now() - SESSION_MAX_LIFETIME_SECONDS * 1000 - 60_000).toISOString();
    await db().update(authSessions).set({ createdAt: born, updatedAt: new Date().toISOString() }).where(eq(authSessions.id, session!.id));
    expect((await call("/api/profile", { token: s.accessToken })).status).toBe(401);
    const res = await refresh(s.refreshToken);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("session_expired");
  });

  it("ends a session idle longer than the inactivity timeout", async () => {
    const s = await signUpAndSignIn();
    const idle = new Date(Date.now() - SESSION_INACTIVITY_TIMEOUT_SECONDS * 1000 - 60_000).toISOString();
    await db().update(authSessions).set({ updatedAt: idle }).where(eq(authSessions.userId, s.userId));
    expect((await refresh(s.refreshToken)).body.code).toBe("session_expired");
    expect((await call("/auth/v1/user", { token: s.accessToken })).status).toBe(401);
  });
});

describe("password recovery", () => {
  it("answers the same for a known and an unknown email, and mails only the account", async () => {
    const { email } = await signUpAndSignIn();
    const known = await recover(email);
    const unknown = await recover(uniqueEmail("nobody"));
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    const [mail] = await mailsTo(email);
    expect(mail.kind).toBe("recovery");
    expect(mail.link).toMatch(/^http:\/\/localhost\/reset-password#token_hash=[\w-]{20,}&type=recovery$/);
  });

  it("the link signs in once with a recovery session that sets a new password (spec 2 rules) and ends the others", async () => {
    const s = await signUpAndSignIn();
    await recover(s.email, undefined, `?redirect_to=${encodeURIComponent("http://localhost/reset-password")}`);
    const [mail] = await mailsTo(s.email);
    expect(new URL(mail.link!).pathname).toBe("/reset-password");
    const landing = await follow(mail.link!);
    // The session comes in the POST's answer, never in a URL.
    expect(landing.status).toBe(200);
    expect(landing.body.token_type).toBe("bearer");
    const token = landing.body.access_token as string;
    expect(landing.body.expires_in).toBeGreaterThan(0);
    expect(landing.body.refresh_token).toBeTruthy();
    // Single use.
    expect((await follow(mail.link!)).body.code).toBe("otp_invalid");

    const weak = await setPassword(token, { password: "alllowercase1" });
    expect(weak.status).toBe(422);
    expect(weak.body).toMatchObject({ code: "weak_password", error: NEW_PASSWORD_TEXT.characters, weak_password: { reasons: ["characters"] } });
    expect((await setPassword(token, { password: "Short1" })).body.error).toBe(NEW_PASSWORD_TEXT.tooShort);

    const done = await setPassword(token, { password: "Recovered-789" });
    expect(done.status).toBe(200);
    expect((await call("/auth/v1/user", { token: s.accessToken })).status).toBe(401);
    expect((await signIn(s.email, s.password)).body.code).toBe("invalid_credentials");
    expect((await signIn(s.email, "Recovered-789")).status).toBe(200);
    // The recovery allowance is spent: a second change needs the current password.
    expect((await setPassword(token, { password: "Another-789" })).body.code).toBe("reauthentication_needed");
  });

  it("refuses an expired link, and lifts a running sign-in delay once the new password is set", async () => {
    const s = await signUpAndSignIn();
    for (let i = 0; i < 6; i++) await signIn(s.email, `guess-${i}`, "10.70.0.1");
    expect((await signIn(s.email, s.password, "10.70.0.1")).status).toBe(429);

    await recover(s.email);
    const [first] = await mailsTo(s.email);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + RECOVERY_TOKEN_TTL_MINUTES * 60_000 + 1_000);
      expect((await follow(first.link!)).body.code).toBe("otp_expired");
    } finally {
      vi.useRealTimers();
    }
    await recover(s.email);
    const [second] = await mailsTo(s.email);
    const token = (await follow(second.link!)).body.access_token as string;
    expect((await setPassword(token, { password: "Unlocked-123" })).status).toBe(200);
    expect((await signIn(s.email, "Unlocked-123", "10.70.0.1")).status).toBe(200);
  });

  it("is rate limited per address and answers bad input with 400 naming the field", async () => {
    const ip = "10.71.0.1";
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await recover(uniqueEmail("r"), ip)).status);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(200));
    expect(statuses[30]).toBe(429);
    const bad = await recover("not-an-email");
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("email");
  });
});

