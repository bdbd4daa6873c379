// The last-admin guards, in a database of its own (one admin only). Through the API an admin acting
// always leaves themselves, so these guard a race or a demoted actor; the services refuse alike.
import { describe, expect, it } from "vitest";
import { ADMIN_API_TEXT } from "@shared/messages";
import { ApiError } from "../../lib/errors";
import { insertProfile } from "../../test/factories";
import { db } from "../../test/helpers";
import { testAdminDatabases, testCleanupDeps } from "../../test/admin-databases";
import { cleanupUser } from "./cleanup";
import { setUserFlags } from "./users";

const actor = { id: "maintenance-script", email: "ops@example.com", ip: null };

async function refusal(p: Promise<unknown>) {
  const e = await p.then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

describe("the last admin", () => {
  it("can be neither deleted nor stripped of admin, until another admin exists", async () => {
    const only = await insertProfile({ isAdmin: true });
    const deps = testCleanupDeps();

    const del = await refusal(cleanupUser(deps, actor, only.email));
    expect([del.status, del.message, del.field]).toEqual([409, ADMIN_API_TEXT.cannotDeleteLastAdmin, "email"]);
    const revoke = await refusal(setUserFlags({ db: db(), dbs: testAdminDatabases(), identity: deps.identity }, actor, only.id, { is_admin: false }));
    expect([revoke.status, revoke.message]).toEqual([409, ADMIN_API_TEXT.cannotRevokeLastAdmin]);

    await insertProfile({ isAdmin: true });
    const revoked = await setUserFlags({ db: db(), dbs: testAdminDatabases(), identity: deps.identity }, actor, only.id, { is_admin: false });
    expect(revoked.app_metadata.is_admin).toBe(false);
  });
});
