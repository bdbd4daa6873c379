// The Admin Dashboard's API (docs/product/api.md#admin Admin), admins only (each route's declared
// access class installs requireAdmin). Every change writes its audit entry in the same batch.
import { type Context } from "hono";
import { type AdminPhoneNumbersResponse, type AdminUserResponse, type AdminUsersResponse, type AssignPhoneNumberResponse } from "@shared/schemas/admin";
import type { AppEnv } from "../app-env";
import { adminActor } from "../context/request-deps";
import { listAuditLog } from "../services/admin/audit-log";
import { cleanupUser } from "../services/admin/cleanup";
import { assignPlatformNumber, listPlatformNumbers } from "../services/admin/numbers";
import { ADMIN_STATS_MAX_AGE_SECONDS, adminStats } from "../services/admin/stats";
import { listAdminUsers, setUserFlags, type AdminDatabases } from "../services/admin/users";
import { meterFor } from "../services/counts/meter";
import { shardBindings } from "../db/shards";
import { emit } from "../events/emit";
import { DeclaredRoutes } from "./serve";

/** The admin's databases in this request: the directory, and any shard by name (their sessions, decision 052). */
const adminDatabases = (c: Context<AppEnv>): AdminDatabases => ({ directory: meterFor(c.var.db), shard: (name) => meterFor(c.var.databases.shard(name), name) });

async function stats(c: Context<AppEnv>) {
  const dbs = adminDatabases(c);
  // Every bound shard: the figures cover every account (decision 079).
  const body = await adminStats(dbs.directory, shardBindings(c.env as unknown as Record<string, unknown>).map((name) => ({ name, meter: dbs.shard(name) })));
  // docs/product/constants.md#business-constants: cached for 60 s; private, as it is an admin's answer.
  c.header("Cache-Control", `private, max-age=${ADMIN_STATS_MAX_AGE_SECONDS}`);
  return c.json(body);
}

export const adminRoutes = new DeclaredRoutes()
  // v1 and v2 answer alike: the client asks v2 and falls back to v1 (docs/product/api.md#api).
  .serve("GET /api/admin/stats/v2", stats)
  .serve("GET /api/admin/stats", stats)
  .serve("GET /api/admin/users/v2", async (c) => c.json((await listAdminUsers(adminDatabases(c), c.req.valid("query"))) satisfies AdminUsersResponse))
  .serve("GET /api/admin/users", async (c) => c.json((await listAdminUsers(adminDatabases(c), c.req.valid("query"))) satisfies AdminUsersResponse))
  .serve("PUT /api/admin/users/:id/flags", async (c) => {
    const user = await setUserFlags(
      { db: c.var.db, dbs: adminDatabases(c), identity: c.var.providers.identity },
      adminActor(c),
      c.req.valid("param").id,
      c.req.valid("json"),
    );
    // The account's open live feeds re-check its flags now: a lost flag stops its store signals.
    emit(c, "accessChanged", { userId: c.req.valid("param").id });
    return c.json({ user } satisfies AdminUserResponse);
  })
  .serve("GET /api/admin/vapi/available-numbers", async (c) => {
    const body: AdminPhoneNumbersResponse = { numbers: await listPlatformNumbers(c.var.db) };
    return c.json(body);
  })
  .serve("POST /api/admin/assign-phone-number", async (c) => {
    const body: AssignPhoneNumberResponse = { success: true, number: await assignPlatformNumber(c.var.db, adminActor(c), c.req.valid("json")) };
    return c.json(body);
  })
  .serve("POST /api/admin/cleanup-user", async (c) => {
    const p = c.var.providers;
    const body = await cleanupUser(
      {
        db: c.var.db,
        shard: (name) => c.var.databases.shard(name),
        identity: p.identity,
        voice: p.voice,
        telephony: p.telephony,
        billing: p.billing,
        text: c.env.CALL_TEXT,
      },
      adminActor(c),
      c.req.valid("json").email,
    );
    // Every deleted account (an email may have had several) leaves the live feed and the search index.
    emit(c, "accountsDeleted", { userIds: body.userIds });
    return c.json(body);
  })
  .serve("GET /api/admin/audit-log", async (c) => c.json(await listAuditLog(c.var.db, c.req.valid("query"))));
