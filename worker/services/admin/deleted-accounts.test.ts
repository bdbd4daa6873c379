// A deleted account stays deleted (decision 040): its tokens are refused until they expire and its
// profile is never created again. The Supabase mode is proven in providers/identity/supabase.test.ts;
// here the local identity mode, and the tombstone rows themselves.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authUsers, deletedAccounts, profiles } from "../../db/schema";
import { hashPassword } from "../../lib/crypto";
import { call, db, uniqueEmail } from "../../test/helpers";
import { DELETED_ACCOUNT_TTL_MS } from "./cleanup";

/** A confirmed local account with a password, signed in (its profile created by the first request). */
async function signUpAndSignIn(appMetadata: Record<string, unknown> = {}) {
  const email = uniqueEmail("deleted");
  const password = "Secret123";
  const id = crypto.randomUUID();
  await db().insert(authUsers).values({ id, email, passwordHash: await hashPassword(password), emailConfirmedAt: new Date().toISOString(), appMetadata });
  const token = await call("/auth/v1/token?grant_type=password", { method: "POST", json: { email, password } });
  if (token.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(token.body)}`);
  const accessToken = token.body.access_token as string;
  expect((await call("/api/profile", { token: accessToken })).status).toBe(200);
  return { email, userId: id, accessToken, refreshToken: token.body.refresh_token as string };
}

const signInAdmin = () => signUpAndSignIn({ is_admin: true });

describe("a deleted account in the local identity mode", () => {
  it("refuses the deleted admin's still-unexpired token and never recreates the profile", async () => {
    const admin = await signInAdmin();
    const deletedAdmin = await signInAdmin();
    expect((await call("/api/admin/stats/v2", { token: deletedAdmin.accessToken })).status).toBe(200);
    const res = await call("/api/admin/cleanup-user", { method: "POST", token: admin.accessToken, json: { email: deletedAdmin.email } });
    expect(res.status).toBe(200);
    for (const path of ["/api/profile", "/api/admin/stats/v2"]) {
      expect((await call(path, { token: deletedAdmin.accessToken })).status, path).toBe(401);
    }
    const refreshed = await call("/auth/v1/token?grant_type=refresh_token", { method: "POST", json: { refresh_token: deletedAdmin.refreshToken } });
    expect(refreshed.status).toBeGreaterThanOrEqual(400);
    expect(await db().query.profiles.findFirst({ where: eq(profiles.id, deletedAdmin.userId) })).toBeUndefined();
  });
});

describe("deleted_accounts", () => {
  it("holds a deleted id past the longest token lifetime, and later deletions remove expired rows", async () => {
    const admin = await signInAdmin();
    const gone = await signUpAndSignIn();
    const stale = crypto.randomUUID();
    await db().insert(deletedAccounts).values({ userId: stale, deletedAt: "2000-01-01T00:00:00.000Z", expiresAt: "2000-01-09T00:00:00.000Z" });
    const before = Date.now();
    expect((await call("/api/admin/cleanup-user", { method: "POST", token: admin.accessToken, json: { email: gone.email } })).status).toBe(200);
    const row = await db().query.deletedAccounts.findFirst({ where: eq(deletedAccounts.userId, gone.userId) });
    expect(row).toBeTruthy();
    // A week is the longest access-token lifetime a Supabase project can set.
    expect(DELETED_ACCOUNT_TTL_MS).toBeGreaterThan(7 * 24 * 3_600_000);
    expect(Date.parse(row!.expiresAt)).toBeGreaterThanOrEqual(before + DELETED_ACCOUNT_TTL_MS);
    expect(await db().query.deletedAccounts.findFirst({ where: eq(deletedAccounts.userId, stale) })).toBeUndefined();
  });
});
