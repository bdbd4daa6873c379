// /api/admin/config/phone-limit: every signed-in user reads the per-account limit; admins set it (1..100).
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PHONE_API_TEXT } from "@shared/messages";
import { systemConfig } from "../db/schema";
import { call, db, signUpAndSignIn } from "../test/helpers";

const PATH = "/api/admin/config/phone-limit";
const put = (token: string | undefined, json: unknown) => call(PATH, { method: "PUT", token, json });
const stored = async () => (await db().select().from(systemConfig).where(eq(systemConfig.key, "phone_number_limit")))[0]?.value;

describe("GET /api/admin/config/phone-limit", () => {
  it("answers the default of 9 before anything is set, to any signed-in user", async () => {
    const { accessToken } = await signUpAndSignIn();
    const res = await call(PATH, { token: accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ phoneNumberLimit: 9 });
  });

  it("answers 401 when signed out", async () => {
    const res = await call(PATH);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("unauthorized");
  });
});

describe("PUT /api/admin/config/phone-limit", () => {
  it("lets an admin set the limit, which every user then reads", async () => {
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    const user = await signUpAndSignIn();
    const res = await put(admin.accessToken, { phoneNumberLimit: 25 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ phoneNumberLimit: 25 });
    expect(await stored()).toBe("25");
    expect((await call(PATH, { token: user.accessToken })).body).toEqual({ phoneNumberLimit: 25 });

    expect((await put(admin.accessToken, { phoneNumberLimit: 12 })).body).toEqual({ phoneNumberLimit: 12 });
    expect((await call(PATH, { token: user.accessToken })).body).toEqual({ phoneNumberLimit: 12 });
  });

  it("accepts the bounds 1 and 100", async () => {
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    for (const n of [1, 100]) {
      const res = await put(admin.accessToken, { phoneNumberLimit: n });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ phoneNumberLimit: n });
      expect((await call(PATH, { token: admin.accessToken })).body).toEqual({ phoneNumberLimit: n });
    }
  });

  it("answers 400 naming phoneNumberLimit outside 1..100 or not a whole number, and keeps the value", async () => {
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    await put(admin.accessToken, { phoneNumberLimit: 7 });
    for (const json of [
      { phoneNumberLimit: 0 },
      { phoneNumberLimit: 101 },
      { phoneNumberLimit: -3 },
      { phoneNumberLimit: 2.5 },
      { phoneNumberLimit: "10" },
      { phoneNumberLimit: null },
      {},
    ]) {
      const res = await put(admin.accessToken, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.field).toBe("phoneNumberLimit");
      expect(res.body.error).toBe(`phoneNumberLimit: ${PHONE_API_TEXT.limitRange}`);
    }
    expect(await stored()).toBe("7");
  });

  it("answers 403 to a non-admin and 401 when signed out, and changes nothing", async () => {
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    await put(admin.accessToken, { phoneNumberLimit: 5 });
    const user = await signUpAndSignIn();
    const forbidden = await put(user.accessToken, { phoneNumberLimit: 50 });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe("forbidden");
    // Admin rights come from app_metadata on the server, never from what the client claims.
    const claimed = await call(PATH, { method: "PUT", token: user.accessToken, json: { phoneNumberLimit: 50, is_admin: true } });
    expect(claimed.status).toBe(403);
    const signedOut = await put(undefined, { phoneNumberLimit: 50 });
    expect(signedOut.status).toBe(401);
    expect(await stored()).toBe("5");
  });
});
