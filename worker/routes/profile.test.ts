// The signed-in account's own profile: read with server-side flags, updated only for the caller's own account.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { profiles } from "../db/schema";
import { call, db, signUpAndSignIn, uniqueEmail } from "../test/helpers";

const userExists = (email: unknown) => call("/api/admin/public/user-exists", { method: "POST", json: { email } });

const updateProfile = (token: string | undefined, json: Record<string, unknown>) =>
  call("/api/admin/public/update-user-profile", { method: "POST", token, json });

const profileOf = (id: string) => db().query.profiles.findFirst({ where: eq(profiles.id, id) });

describe("GET /api/profile", () => {
  it("answers the caller's own profile in the spec's field names, and 401 when signed out", async () => {
    const s = await signUpAndSignIn();
    const res = await call("/api/profile", { token: s.accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: s.userId, email: s.email, is_admin: false, shopwindows_info: false, call_app: false });
    expect((await call("/api/profile")).status).toBe(401);
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
    expect(res.body).toEqual({
      success: true,
      profile: { username: "New Nick", company: "New Co", email: me.email.toLowerCase() },
      emailChangeSent: false,
    });
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

  it("moves the account to a newEmail only once the link mailed to it is followed (email-change tests: account-safety.test.ts)", async () => {
    const me = await signUpAndSignIn();
    const newEmail = uniqueEmail("Moved");
    const res = await updateProfile(me.accessToken, { email: me.email, username: "mover", newEmail });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, emailChangeSent: true, profile: { username: "mover", email: me.email.toLowerCase() } });
    expect((await userExists(newEmail)).body.exists).toBe(false);
    expect((await userExists(me.email)).body.exists).toBe(true);
  });
});
