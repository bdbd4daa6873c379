// The Admin Dashboard's API (docs/product/api.md#admin Admin), admins only: every route checks requireAdmin itself
// (a middleware on the sub-app would also catch /api/admin/public/* and the phone-limit read, which
// are not admin-only). Every change writes its audit entry in the same batch.
import { Hono, type Context } from "hono";
import {
  adminFlagsBody,
  adminUserIdParam,
  adminUsersQuery,
  assignPhoneNumberBody,
  auditLogQuery,
  cleanupUserBody,
  type AdminPhoneNumbersResponse,
  type AdminUserResponse,
  type AdminUsersResponse,
  type AssignPhoneNumberResponse,
} from "@shared/schemas/admin";
import type { AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { requireAdmin } from "../middleware/auth";
import { adminActor } from "../context/request-deps";
import { listAuditLog } from "../services/admin/audit-log";
import { cleanupUser } from "../services/admin/cleanup";
import { assignPlatformNumber, listPlatformNumbers } from "../services/admin/numbers";
import { ADMIN_STATS_MAX_AGE_SECONDS, adminStats } from "../services/admin/stats";
import { listAdminUsers, setUserFlags } from "../services/admin/users";
import { meterFor } from "../services/counts/meter";
import { d1Of } from "../db/client";
import { emit } from "../events/emit";

async function stats(c: Context<AppEnv>) {
  const meter = meterFor(c.var.db);
  const body = await adminStats(meter);
  // docs/product/constants.md#business-constants: cached for 60 s; private, as it is an admin's answer.
  c.header("Cache-Control", `private, max-age=${ADMIN_STATS_MAX_AGE_SECONDS}`);
  return c.json(body);
}

export const adminRoutes = new Hono<AppEnv>()
  // v1 and v2 answer alike: the client asks v2 and falls back to v1 (docs/product/api.md#api).
  .get("/stats/v2", requireAdmin, stats)
  .get("/stats", requireAdmin, stats)
  .get("/users/v2", requireAdmin, validate("query", adminUsersQuery), async (c) => c.json((await listAdminUsers(d1Of(c.var.db), c.req.valid("query"))) satisfies AdminUsersResponse))
  .get("/users", requireAdmin, validate("query", adminUsersQuery), async (c) => c.json((await listAdminUsers(d1Of(c.var.db), c.req.valid("query"))) satisfies AdminUsersResponse))
  .put("/users/:id/flags", requireAdmin, validate("param", adminUserIdParam), validate("json", adminFlagsBody), async (c) => {
    const user = await setUserFlags(
      { db: c.var.db, d1: d1Of(c.var.db), identity: c.var.providers.identity },
      adminActor(c),
      c.req.valid("param").id,
      c.req.valid("json"),
    );
    // The account's open live feeds re-check its flags now: a lost flag stops its store signals.
    emit(c, "accessChanged", { userId: c.req.valid("param").id });
    return c.json({ user } satisfies AdminUserResponse);
  })
  .get("/vapi/available-numbers", requireAdmin, async (c) => {
    const body: AdminPhoneNumbersResponse = { numbers: await listPlatformNumbers(c.var.db) };
    return c.json(body);
  })
  .post("/assign-phone-number", requireAdmin, validate("json", assignPhoneNumberBody), async (c) => {
    const body: AssignPhoneNumberResponse = { success: true, number: await assignPlatformNumber(c.var.db, adminActor(c), c.req.valid("json")) };
    return c.json(body);
  })
  .post("/cleanup-user", requireAdmin, validate("json", cleanupUserBody), async (c) => {
    const p = c.var.providers;
    const body = await cleanupUser(
      { db: c.var.db, identity: p.identity, voice: p.voice, telephony: p.telephony, billing: p.billing },
      adminActor(c),
      c.req.valid("json").email,
    );
    // Every deleted account (an email may have had several) leaves the live feed and the search index.
    emit(c, "accountsDeleted", { userIds: body.userIds });
    return c.json(body);
  })
  .get("/audit-log", requireAdmin, validate("query", auditLogQuery), async (c) => c.json(await listAuditLog(c.var.db, c.req.valid("query"))));
