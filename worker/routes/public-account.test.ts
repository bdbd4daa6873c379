// Public account calls (spec 2 §7): the existence check answers alike for both cases and is rate
// limited per client address and per email; the profile update touches only the caller's own account.
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { profiles } from "../db/schema";
import { call, db, signUpAndSignIn, uniqueEmail } from "../test/helpers";

const userExists = (email: unknown, ip?: string) => call("/api/admin/public/user-exists", { method: "POST", json: { email }, ip });

const updateProfile = (token: string | undefined, json: Record<string, unknown>) =>
  call("/api/admin/public/update-user-profile", { method: "POST", token, json });

const profileOf = (id: string) => db().query.profiles.findFirst({ where: eq(profiles.id, id) });

describe("POST /api/admin/public/user-exists", () => {
  it("answers { success, exists } for a known email, whatever its case, and for an unknown one", async () => {
    const { email } = await signUpAndSignIn();
    const known = await userExists(email.toUpperCase());
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ success: true, exists: true });

    const unknown = await userExists(uniqueEmail("nobody"));
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ success: true, exists: false });
    expect(Object.keys(unknown.body).sort()).toEqual(Object.keys(known.body).sort());
    expect(unknown.headers.get("content-type")).toBe(known.headers.get("content-type"));
  });

  it("counts an account that has not confirmed its email yet", async () => {
    const email = uniqueEmail();
    await call("/auth/v1/signup", { method: "POST", json: { email, password: "secret123" } });
    expect((await userExists(email)).body).toEqual({ success: true, exists: true });
  });

  it("answers a bad or missing email with 400 JSON naming email", async () => {
    for (const email of ["not-an-email", "", 42, `${"x".repeat(260)}@example.com`, undefined]) {
      const res = await userExists(email);
      expect(res.status, String(email)).toBe(400);
      expect(res.body.field).toBe("email");
      expect(res.body.code).toBe("validation_error");
    }
    const malformed = await call("/api/admin/public/user-exists", {
      method: "POST",
      body: "{",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.field).toBe("body");
  });

  describe("rate limits", () => {
    // Freeze the clock inside one fixed window so the counts cannot straddle a window boundary.
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Math.floor(Date.now() / 60_000) * 60_000 + 1_000);
    });
    afterEach(() => vi.useRealTimers());

    it("trips per email across client addresses with a 429 JSON message", async () => {
      const email = uniqueEmail("hammered");
      const allowed = await Promise.all(Array.from({ length: 10 }, (_, i) => userExists(email, `10.1.0.${i + 1}`)));
      expect(allowed.map((r) => r.status)).toEqual(Array(10).fill(200));

      const limited = await userExists(email, "10.1.0.99");
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe("rate_limited");
      expect(limited.body.error).toBe("Too many requests. Please wait a minute and try again.");
      // Another email from a fresh address is unaffected.
      expect((await userExists(uniqueEmail(), "10.1.0.100")).status).toBe(200);
    });

    it("trips per client address (cf-connecting-ip) across emails", async () => {
      const ip = "10.2.0.1";
      const allowed = await Promise.all(Array.from({ length: 30 }, () => userExists(uniqueEmail("scan"), ip)));
      expect(allowed.map((r) => r.status)).toEqual(Array(30).fill(200));

      const limited = await userExists(uniqueEmail("scan"), ip);
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ code: "rate_limited", error: expect.stringMatching(/too many requests/i) });
      expect((await userExists(uniqueEmail("scan"), "10.2.0.2")).status).toBe(200);
    });

    it("starts counting again in the next window", async () => {
      const email = uniqueEmail("patient");
      await Promise.all(Array.from({ length: 10 }, (_, i) => userExists(email, `10.3.0.${i + 1}`)));
      expect((await userExists(email, "10.3.0.50")).status).toBe(429);
      vi.setSystemTime(Date.now() + 60_000);
      expect((await userExists(email, "10.3.0.51")).status).toBe(200);
    });
  });
});

describe("POST /api/admin/public/update-user-profile", () => {
  it("refuses a signed-out caller with 401", async () => {
    const res = await updateProfile(undefined, { email: uniqueEmail(), username: "x" });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("unauthorized");
  });

  it("refuses to touch another account with 403, and changes nothing", async () => {
    const me = await signUpAndSignIn();
    const other = await signUpAndSignIn();
    const before = await profileOf(other.userId);
    const res = await updateProfile(me.accessToken, { email: other.email, username: "hijacked", company: "Evil", newEmail: uniqueEmail() });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("forbidden");
    expect(await profileOf(other.userId)).toEqual(before);
    expect((await profileOf(me.userId))!.username).toBe("tester");
    // The other account still signs in with its own email.
    const signIn = await call("/auth/v1/token?grant_type=password", { method: "POST", json: { email: other.email, password: other.password } });
    expect(signIn.status).toBe(200);
  });

  it("updates the caller's own username and company, read back by GET /api/profile", async () => {
    const me = await signUpAndSignIn();
    const res = await updateProfile(me.accessToken, { email: me.email.toUpperCase(), username: "  New Nick  ", company: "New Co" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, profile: { username: "New Nick", company: "New Co", email: me.email.toLowerCase() } });
    const profile = await call("/api/profile", { token: me.accessToken });
    expect(profile.body).toMatchObject({ username: "New Nick", company: "New Co", email: me.email.toLowerCase() });

    // Without company, the company is kept.
    await updateProfile(me.accessToken, { email: me.email, username: "Again" });
    expect((await call("/api/profile", { token: me.accessToken })).body).toMatchObject({ username: "Again", company: "New Co" });
  });

  it("answers bad input with 400 naming the field", async () => {
    const me = await signUpAndSignIn();
    const cases: [Record<string, unknown>, string][] = [
      [{ username: "x" }, "email"],
      [{ email: me.email }, "username"],
      [{ email: me.email, username: "   " }, "username"],
      [{ email: me.email, username: "x".repeat(101) }, "username"],
      [{ email: me.email, username: "x", company: "c".repeat(201) }, "company"],
      [{ email: me.email, username: "x", newEmail: "nope" }, "newEmail"],
    ];
    for (const [json, field] of cases) {
      const res = await updateProfile(me.accessToken, json);
      expect(res.status, JSON.stringify(json).slice(0, 60)).toBe(400);
      expect(res.body.field).toBe(field);
    }
  });

  it("refuses a newEmail that another account uses with 409 naming newEmail", async () => {
    const me = await signUpAndSignIn();
    const other = await signUpAndSignIn();
    const res = await updateProfile(me.accessToken, { email: me.email, username: "x", newEmail: other.email.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "conflict", field: "newEmail" });
    expect((await profileOf(me.userId))!.email).toBe(me.email.toLowerCase());
    expect((await profileOf(me.userId))!.username).toBe("tester");
  });

  it("moves the account to a free newEmail: sign-in works with it, and no longer with the old one", async () => {
    const me = await signUpAndSignIn();
    const newEmail = uniqueEmail("Moved");
    const res = await updateProfile(me.accessToken, { email: me.email, username: "mover", newEmail });
    expect(res.status).toBe(200);
    expect(res.body.profile.email).toBe(newEmail.toLowerCase());

    const withNew = await call("/auth/v1/token?grant_type=password", { method: "POST", json: { email: newEmail, password: me.password } });
    expect(withNew.status).toBe(200);
    expect(withNew.body.user.email).toBe(newEmail.toLowerCase());
    const withOld = await call("/auth/v1/token?grant_type=password", { method: "POST", json: { email: me.email, password: me.password } });
    expect(withOld.body.code).toBe("invalid_credentials");

    expect((await call("/api/profile", { token: withNew.body.access_token })).body.email).toBe(newEmail.toLowerCase());
    expect((await userExists(newEmail)).body.exists).toBe(true);
    expect((await userExists(me.email)).body.exists).toBe(false);
  });
});
