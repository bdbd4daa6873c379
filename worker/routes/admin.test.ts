// The Admin Dashboard's API (docs/product/api.md#admin Admin): authorization of every route, the statistics, the user
// list, flags, the pool numbers and their assignment, user deletion (no orphan rows) and the audit log.
import { env } from "cloudflare:workers";
import { and, eq, sql } from "drizzle-orm";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { ADMIN_API_TEXT } from "@shared/messages";
import { addDays, nyDayOf, nyToday } from "@shared/ny-time";
import { markDaysDirty } from "../services/rollup-dirty";
import * as schema from "../db/schema";
import { accountActivations, adminAuditLog, apiKeys, liveTickets, phoneNumberOffers, agents, reportMailDeliveries, reportMailSubscriptions, reportMailUnsubscribeTokens, authUsers, callLogs, customers, phoneNumbers, profiles, simAssistants, simCalls, subscriptions, usageAlerts, alertRules, alertRuleState, alertHistory, alertNotifications, alertMailRecipients, alertMailLog, webhookAttempts, webhookEndpoints, webhookDeliveries, shardMoves } from "../db/schema";
import { runHourlyRollups, runRollups } from "../jobs/rollups";
import { parseConfig } from "../env";
import { createProviders } from "../providers";
import { USER_ID_COLUMNS, USER_ID_KEPT } from "../services/admin/cleanup";
import { accountPrefix, callTextKey, putCallText } from "../services/call-text";
import { insertAgent, insertCallLogs, insertPhoneNumber, insertProfile, insertRows, recentWindow } from "../test/factories";
import { call, db, shardNameOf, shardOf, signUpAndSignIn, testShards, uniqueEmail, type Json } from "../test/helpers";
import { failingD1, testAdminDatabases, testCleanupDeps, testShardDb } from "../test/admin-databases";
import { DbMeter } from "../services/counts/meter";
import { adminStats } from "../services/admin/stats";
import { adminUserById, listAdminUsers } from "../services/admin/users";
import type { ApiError } from "../lib/errors";
import { cleanupUser, sweepDeletedAccounts } from "../services/admin/cleanup";
import { createDb } from "../db/client";

const signInAdmin = () => signUpAndSignIn({ appMetadata: { is_admin: true } });

/** Every admin-only route, with a body that would pass validation. */
const ADMIN_ROUTES: [method: string, path: string, json?: unknown][] = [
  ["GET", "/api/admin/stats/v2"],
  ["GET", "/api/admin/stats"],
  ["GET", "/api/admin/users/v2"],
  ["GET", "/api/admin/users"],
  ["PUT", "/api/admin/users/some-id/flags", { call_app: true }],
  ["GET", "/api/admin/vapi/available-numbers"],
  ["POST", "/api/admin/assign-phone-number", { user_id: "u", phone_number: "+13055550100", vapi_number_id: "v" }],
  ["POST", "/api/admin/cleanup-user", { email: "someone@example.com" }],
  ["GET", "/api/admin/audit-log"],
  ["PUT", "/api/admin/config/phone-limit", { phoneNumberLimit: 10 }],
];

async function auditRows() {
  return db().select().from(adminAuditLog).orderBy(sql`${adminAuditLog.id} desc`);
}

describe("authorization", () => {
  it("every admin route answers 401 signed out and 403 to a signed-in non-admin, and changes nothing", async () => {
    const user = await signUpAndSignIn();
    const before = (await auditRows()).length;
    for (const [method, path, json] of ADMIN_ROUTES) {
      const anonymous = await call(path, { method, json });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.body.code).toBe("unauthorized");
      const forbidden = await call(path, { method, json, token: user.accessToken });
      expect(forbidden.status, `${method} ${path}`).toBe(403);
      expect(forbidden.body.code).toBe("forbidden");
    }
    // A flag in user_metadata or in the body is no admin.
    const claimed = await call("/api/admin/stats/v2?is_admin=true", { token: user.accessToken, headers: { "x-is-admin": "true" } });
    expect(claimed.status).toBe(403);
    expect((await auditRows()).length).toBe(before);
  });

  it("the public account calls under /api/admin/public stay public", async () => {
    const res = await call("/api/admin/public/user-exists", { method: "POST", json: { email: uniqueEmail() } });
    expect(res.status).toBe(200);
  });
});

describe("GET /api/admin/stats/v2 and /api/admin/stats", () => {
  it("counts accounts, agents, and every account's phone calls and minutes, the same with and without roll-ups", async () => {
    const admin = await signInAdmin();
    const owner = await insertProfile();
    await insertAgent(owner.id);
    await insertCallLogs(owner.id, 30, { direction: "outbound" }, { window: recentWindow() });
    // A browser call: in the minutes, not among the calls (decision 009).
    await insertCallLogs(owner.id, 2, { direction: "web" }, { window: recentWindow() });
    // A call no account owns is not counted.
    await insertCallLogs(null, 3);
    const direct = async () => {
      const [u] = await db().select({ n: sql<number>`count(*)` }).from(profiles);
      const [a] = await db().select({ n: sql<number>`count(*)` }).from(agents);
      // Every account's calls, summed over the shards (decision 076).
      const c = { n: 0, s: 0 };
      for (const shard of testShards()) {
        const [r] = await shard.db
          .select({ n: sql<number>`count(*) FILTER (WHERE direction IN ('inbound', 'outbound'))`, s: sql<number>`coalesce(sum(duration), 0)` })
          .from(callLogs)
          .where(sql`user_id is not null`);
        c.n += r.n;
        c.s += r.s;
      }
      return { total_users: u.n, total_assistants: a.n, total_calls: c.n, total_minutes: Math.round(c.s / 6) / 10 };
    };
    const expected = await direct();
    expect(expected.total_calls).toBeGreaterThanOrEqual(30);
    const live = await call("/api/admin/stats/v2", { token: admin.accessToken });
    expect(live.status).toBe(200);
    expect(live.body).toEqual(expected);
    expect(live.headers.get("cache-control")).toBe("private, max-age=60");

    // Rolled up, old days are read from call_log_user_daily: same figures.
    await runRollups({ db: db(), shards: testShards(), now: new Date() }, { backfillFrom: addDays(nyToday(), -10) });
    const rolled = await call("/api/admin/stats", { token: admin.accessToken });
    expect(rolled.body).toEqual(expected);
  }, 30_000);

  it("with one shard failing, answers the others' figures and names the failed shard", async () => {
    const owner = await insertProfile();
    const rows = await insertCallLogs(owner.id, 4, { direction: "outbound", duration: 60 }, { window: recentWindow() });
    // Their days marked dirty, as every call-log writer marks them, so the figures read them live.
    for (const mark of markDaysDirty(await shardOf(owner.id), "call_logs", rows.map((c) => nyDayOf(new Date(c.startTime))))) await mark;
    const failing = await shardNameOf(owner.id);
    const dbs = testAdminDatabases();
    const shards = testShards().map((s) => ({ name: s.name, meter: s.name === failing ? new DbMeter(failingD1(failing), failing) : dbs.shard(s.name) }));
    const whole = await adminStats(dbs.directory, testShards().map((s) => ({ name: s.name, meter: dbs.shard(s.name) })));
    const partial = await adminStats(dbs.directory, shards);
    expect(whole.failed_shards).toBeUndefined();
    expect(partial.failed_shards).toEqual([failing]);
    expect(partial.total_users).toBe(whole.total_users);
    // The failed shard's calls are left out, the other shard's counted.
    const healthy = testShards().find((s) => s.name !== failing)!;
    const only = await adminStats(dbs.directory, [{ name: healthy.name, meter: dbs.shard(healthy.name) }]);
    expect([partial.total_calls, partial.total_minutes]).toEqual([only.total_calls, only.total_minutes]);
    expect(whole.total_calls - partial.total_calls).toBeGreaterThanOrEqual(4);
  });
});

describe("GET /api/admin/users/v2", () => {
  it("pages newest first by cursor, every account once, with each account's agents, calls and minutes", async () => {
    const admin = await signInAdmin();
    const tag = `pg${Date.now().toString(36)}`;
    const made: Awaited<ReturnType<typeof insertProfile>>[] = [];
    for (let i = 0; i < 7; i++) {
      made.push(await insertProfile({ email: `${tag}.${i}@example.com`, createdAt: `2025-0${1 + (i % 3)}-0${1 + i}T10:00:00.000Z` }));
    }
    await insertAgent(made[0].id);
    await insertAgent(made[0].id);
    // Calls of the last day or two, their days marked dirty as every call-log writer marks them, so the
    // figures read them live whatever the roll-ups hold.
    const window = { fromMs: Date.now() - 30 * 3_600_000, toMs: Date.now() - 3_600_000 };
    const calls = await insertCallLogs(made[0].id, 5, { direction: "outbound" }, { window });
    // A browser call: in the minutes, not among the calls (decision 009).
    calls.push(...(await insertCallLogs(made[0].id, 1, { direction: "web", duration: 120 }, { window })));
    const ownShard = await shardOf(made[0].id);
    for (const mark of markDaysDirty(ownShard, "call_logs", calls.map((c) => nyDayOf(new Date(c.startTime))))) await mark;
    const seen: Json[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: Json } = await call(`/api/admin/users/v2?search=${tag}&limit=3${cursor ? `&cursor=${cursor}` : ""}`, { token: admin.accessToken });
      expect(res.status).toBe(200);
      expect(res.body.users.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.users);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen.map((u) => u.id).sort()).toEqual(made.map((m) => m.id).sort());
    const order = seen.map((u) => `${u.created_at}|${u.id}`);
    expect(order).toEqual([...order].sort().reverse());
    const first = seen.find((u) => u.id === made[0].id)!;
    expect(first).toMatchObject({
      email: made[0].email,
      username: made[0].username,
      company: made[0].company,
      user_metadata: { username: made[0].username, company: made[0].company },
      app_metadata: { is_admin: false, shopwindows_info: false, call_app: false },
      total_assistants: 2,
      total_calls: 5,
      total_minutes: Math.round(calls.reduce((s, c) => s + c.duration, 0) / 6) / 10,
    });
    // v1 answers alike.
    const v1 = await call(`/api/admin/users?search=${tag}&limit=100`, { token: admin.accessToken });
    expect(v1.body.users.map((u: Json) => u.id)).toEqual(seen.map((u) => u.id));
  });

  it("searches by the start of the email, username or company, ignoring case", async () => {
    const admin = await signInAdmin();
    const tag = `sr${Date.now().toString(36)}`;
    const byEmail = await insertProfile({ email: `${tag}.mail@example.com` });
    const byName = await insertProfile({ username: `${tag.toUpperCase()}Name` });
    const byCompany = await insertProfile({ company: `${tag}Co Holdings` });
    await insertProfile({ email: `x${tag}@example.com`, username: `x${tag}`, company: `x${tag}` });
    const res = await call(`/api/admin/users/v2?search=${tag.toUpperCase()}`, { token: admin.accessToken });
    expect(res.body.users.map((u: Json) => u.id).sort()).toEqual([byEmail.id, byName.id, byCompany.id].sort());
    const none = await call(`/api/admin/users/v2?search=${tag}zzz`, { token: admin.accessToken });
    expect(none.body).toEqual({ users: [], nextCursor: null });
  });

  it("answers 400 naming the parameter for a bad cursor, limit or search", async () => {
    const admin = await signInAdmin();
    for (const [query, field] of [
      ["cursor=not*valid", "cursor"],
      ["cursor=bm90LWpzb24", "cursor"],
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["limit=abc", "limit"],
      [`search=${"a".repeat(101)}`, "search"],
    ]) {
      const res = await call(`/api/admin/users/v2?${query}`, { token: admin.accessToken });
      expect(res.status, query).toBe(400);
      expect(res.body.field, query).toBe(field);
    }
  });
});

describe("the user list with a shard failing", () => {
  it("lists every account, names the failed shard, and one account's figures on it answer 503 naming the shard", async () => {
    const tag = `fs${Date.now().toString(36)}`;
    const a = await insertProfile({ email: `${tag}.a@example.com` });
    const b = await insertProfile({ email: `${tag}.b@example.com` });
    await db().update(profiles).set({ shard: "SHARD_0" }).where(eq(profiles.id, a.id));
    await db().update(profiles).set({ shard: "SHARD_1" }).where(eq(profiles.id, b.id));
    const rows = await insertCallLogs(a.id, 2, { direction: "outbound" }, { window: recentWindow() });
    for (const mark of markDaysDirty(await shardOf(a.id), "call_logs", rows.map((c) => nyDayOf(new Date(c.startTime))))) await mark;
    const dbs = testAdminDatabases();
    const broken = { ...dbs, shard: (name: string) => (name === "SHARD_1" ? new DbMeter(failingD1(name), name) : dbs.shard(name)) };
    const page = await listAdminUsers(broken, { search: tag, limit: 25 });
    expect(page.failedShards).toEqual(["SHARD_1"]);
    expect(page.users.map((u) => u.id).sort()).toEqual([a.id, b.id].sort());
    expect(page.users.find((u) => u.id === a.id)?.total_calls).toBe(2);
    expect((await listAdminUsers(dbs, { search: tag, limit: 25 })).failedShards).toBeUndefined();
    const refused = await adminUserById(broken, b.id).then(
      () => null,
      (e: unknown) => e as ApiError,
    );
    expect([refused?.status, refused?.code, refused?.extra]).toEqual([503, "shard_unavailable", { shards: ["SHARD_1"] }]);
    expect((await adminUserById(broken, a.id)).total_calls).toBe(2);
  });
});

describe("PUT /api/admin/users/:id/flags", () => {
  it("grants and revokes flags in app_metadata and the profile, effective on the user's next request, and audits it", async () => {
    const admin = await signInAdmin();
    const user = await signUpAndSignIn();
    const analytics = () =>
      call("/api/analytics/won", { method: "POST", token: user.accessToken, json: { storeId: "MIAMI", startDate: "2026-01-01", endDate: "2026-01-02", limit: 300 } });
    const adminPage = () => call("/api/admin/stats/v2", { token: user.accessToken });
    expect((await analytics()).status).toBe(403);
    expect((await adminPage()).status).toBe(403);

    const granted = await call(`/api/admin/users/${user.userId}/flags`, { method: "PUT", token: admin.accessToken, json: { shopwindows_info: true, is_admin: true } });
    expect(granted.status).toBe(200);
    expect(granted.body.user.app_metadata).toEqual({ is_admin: true, shopwindows_info: true, call_app: false });
    const stored = await db().query.authUsers.findFirst({ where: eq(authUsers.id, user.userId) });
    expect(stored!.appMetadata).toMatchObject({ is_admin: true, shopwindows_info: true });
    // The same session, next request.
    expect((await analytics()).status).toBe(200);
    expect((await adminPage()).status).toBe(200);
    expect((await call("/api/profile", { token: user.accessToken })).body).toMatchObject({ is_admin: true, shopwindows_info: true, call_app: false });

    const revoked = await call(`/api/admin/users/${user.userId}/flags`, { method: "PUT", token: admin.accessToken, json: { is_admin: false, shopwindows_info: false } });
    expect(revoked.status).toBe(200);
    expect((await analytics()).status).toBe(403);
    expect((await adminPage()).status).toBe(403);
    const after = await db().query.authUsers.findFirst({ where: eq(authUsers.id, user.userId) });
    expect(after!.appMetadata).toMatchObject({ is_admin: false, shopwindows_info: false });

    const [latest, previous] = await auditRows();
    expect(latest).toMatchObject({ action: "set_flags", actorId: admin.userId, targetUserId: user.userId, targetEmail: user.email.toLowerCase() });
    expect(latest.detail).toMatchObject({ before: { is_admin: true, shopwindows_info: true }, after: { is_admin: false, shopwindows_info: false } });
    expect(latest.ip).toBeTruthy();
    expect(previous.action).toBe("set_flags");
  });

  it("refuses an admin removing their own admin flag, unknown flags, an empty body and unknown users", async () => {
    const admin = await signInAdmin();
    const own = await call(`/api/admin/users/${admin.userId}/flags`, { method: "PUT", token: admin.accessToken, json: { is_admin: false } });
    expect(own.status).toBe(409);
    expect(own.body).toMatchObject({ error: ADMIN_API_TEXT.cannotRevokeOwnAdmin, field: "is_admin" });
    for (const json of [{}, { is_superuser: true }, { is_admin: "yes" }, { call_app: null }]) {
      const res = await call(`/api/admin/users/${admin.userId}/flags`, { method: "PUT", token: admin.accessToken, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.field, JSON.stringify(res.body)).toBeTruthy();
    }
    const missing = await call(`/api/admin/users/nobody/flags`, { method: "PUT", token: admin.accessToken, json: { call_app: true } });
    expect(missing.status).toBe(404);
    const stillAdmin = await call("/api/admin/stats/v2", { token: admin.accessToken });
    expect(stillAdmin.status).toBe(200);
  });
});

describe("pool numbers and assignment", () => {
  it("lists the voice platform's numbers with their holder, and assigns a pool number once", async () => {
    const admin = await signInAdmin();
    const holder = await insertProfile();
    const taker = await insertProfile();
    const held = await insertPhoneNumber(holder.id, { name: "Front desk" });
    const pooled = await insertPhoneNumber(null, { name: null });
    await insertPhoneNumber(holder.id, { vapiPhoneNumberId: null });
    const list = await call("/api/admin/vapi/available-numbers", { token: admin.accessToken });
    expect(list.status).toBe(200);
    const byId = new Map(list.body.numbers.map((n: Json) => [n.id, n]));
    expect(byId.get(held.vapiPhoneNumberId)).toEqual({
      id: held.vapiPhoneNumberId,
      phoneNumber: held.phoneNumber,
      number: held.phoneNumber,
      status: "active",
      name: "Front desk",
      assignedTo: holder.email,
      assignedUserId: holder.id,
    });
    expect(byId.get(pooled.vapiPhoneNumberId)).toMatchObject({ assignedTo: null, name: null });
    expect(list.body.numbers.every((n: Json) => n.id)).toBe(true);

    const assign = (json: Json) => call("/api/admin/assign-phone-number", { method: "POST", token: admin.accessToken, json });
    const ok = await assign({ user_id: taker.id, phone_number: pooled.phoneNumber, vapi_number_id: pooled.vapiPhoneNumberId });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, number: { assignedTo: taker.email, assignedUserId: taker.id } });
    expect((await db().query.phoneNumbers.findFirst({ where: eq(phoneNumbers.id, pooled.id) }))!.userId).toBe(taker.id);
    const [entry] = await auditRows();
    expect(entry).toMatchObject({ action: "assign_phone_number", targetUserId: taker.id, detail: { phone_number: pooled.phoneNumber } });
    // Again: nothing changes, nothing more is recorded.
    expect((await assign({ user_id: taker.id, phone_number: pooled.phoneNumber, vapi_number_id: pooled.vapiPhoneNumberId })).status).toBe(200);
    expect((await auditRows())[0].id).toBe(entry.id);

    const taken = await assign({ user_id: taker.id, phone_number: held.phoneNumber, vapi_number_id: held.vapiPhoneNumberId });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe(ADMIN_API_TEXT.numberTaken);
    expect((await db().query.phoneNumbers.findFirst({ where: eq(phoneNumbers.id, held.id) }))!.userId).toBe(holder.id);
    expect((await assign({ user_id: taker.id, phone_number: "+13055550199", vapi_number_id: held.vapiPhoneNumberId })).body.field).toBe("phone_number");
    expect((await assign({ user_id: taker.id, phone_number: held.phoneNumber, vapi_number_id: "unknown" })).status).toBe(404);
    expect((await assign({ user_id: "nobody", phone_number: pooled.phoneNumber, vapi_number_id: pooled.vapiPhoneNumberId })).status).toBe(404);
    expect((await auditRows())[0].id).toBe(entry.id);
  });

  it("answers 400 naming the missing field", async () => {
    const admin = await signInAdmin();
    const full = { user_id: "u1", phone_number: "+13055550100", vapi_number_id: "v1" };
    for (const field of ["user_id", "phone_number", "vapi_number_id"] as const) {
      const json: Json = { ...full };
      delete json[field];
      const res = await call("/api/admin/assign-phone-number", { method: "POST", token: admin.accessToken, json });
      expect(res.status, field).toBe(400);
      expect(res.body.field).toBe(field);
    }
    const bad = await call("/api/admin/assign-phone-number", { method: "POST", token: admin.accessToken, json: { ...full, phone_number: "305" } });
    expect(bad.body.field).toBe("phone_number");
  });
});

/** Every (table, column) of the schema that holds a user id: by name, or by a reference to an account. */
function userIdColumnsFromSchema(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const value of Object.values(schema)) {
    if (!value || typeof value !== "object" || !(Symbol.for("drizzle:IsDrizzleTable") in value)) continue;
    const config = getTableConfig(value as SQLiteTable);
    const referencing = new Set(
      config.foreignKeys
        .map((fk) => fk.reference())
        .filter((r) => ["profiles", "auth_users"].includes(getTableConfig(r.foreignTable).name))
        .flatMap((r) => r.columns.map((c) => c.name)),
    );
    const columns = config.columns
      .map((c) => c.name)
      .filter(
        (name) =>
          referencing.has(name) ||
          /(^|_)(user|owner|actor)_id$/.test(name) ||
          (name === "id" && ["profiles", "auth_users"].includes(config.name)),
      );
    if (columns.length) out.set(config.name, columns.sort());
  }
  return out;
}

describe("POST /api/admin/cleanup-user", () => {
  it("handles every table that holds a user id (the list is derived from the schema)", () => {
    const derived = userIdColumnsFromSchema();
    const handled = new Map<string, string[]>(
      Object.entries({ ...USER_ID_COLUMNS, ...USER_ID_KEPT }).map(([t, cols]) => [t, [...cols].sort()]),
    );
    expect(Object.fromEntries(derived)).toEqual(Object.fromEntries(handled));
    expect(derived.size).toBeGreaterThanOrEqual(13);
  });

  it("deletes the account and every row it owns in one go, leaving no orphan in any table, and no one else's row", async () => {
    const admin = await signInAdmin();
    const victim = await signUpAndSignIn();
    const bystander = await signUpAndSignIn();
    const d = db();
    // Rows in every table that can hold the victim's id.
    const assistantId = `sim_asst_${crypto.randomUUID()}`;
    await d.insert(simAssistants).values({ id: assistantId, ownerId: victim.userId, name: "A", prompt: "p", voiceId: "v" });
    const agent = await insertAgent(victim.userId, { vapiAssistantId: assistantId });
    await insertAgent(bystander.userId);
    const poolNumber = await insertPhoneNumber(victim.userId, {}, { agent: { id: agent.id } as never });
    await d.update(agents).set({ twilioNumberId: poolNumber.id }).where(eq(agents.id, agent.id));
    const plainNumber = await insertPhoneNumber(victim.userId, { vapiPhoneNumberId: null });
    await d.insert(phoneNumbers).values({ userId: victim.userId, phoneNumber: "+19999990001", status: "pending" });
    await insertPhoneNumber(bystander.userId);
    const victimCalls = await insertCallLogs(victim.userId, 12, { assistantId, transcript: null });
    const bystanderCalls = await insertCallLogs(bystander.userId, 4, { transcript: null });
    // Their transcripts in R2 (decision 077).
    for (const c of [...victimCalls, ...bystanderCalls]) await putCallText(env.CALL_TEXT, c.userId, c.callId, { transcript: `AI: ${c.callId}` });
    // A few in today's finished hours, for the intraday roll-up's rows.
    await insertCallLogs(victim.userId, 3, { assistantId }, { window: { fromMs: Date.now() - 3 * 3_600_000, toMs: Date.now() - 2 * 3_600_000 } });
    await runRollups({ db: d, shards: testShards(), now: new Date() }, { backfillFrom: addDays(nyToday(), -10) });
    await runHourlyRollups({ db: d, shards: testShards(), now: new Date() });
    // The victim's calls, alerts and webhooks are on its shard (decision 076).
    const vs = await shardOf(victim.userId);
    await d.insert(simCalls).values({ id: `sim_call_${crypto.randomUUID()}`, ownerId: victim.userId, assistantId, call: {} });
    await d.insert(customers).values({ userId: victim.userId, email: victim.email });
    // A live subscription at the billing provider (the local one): deleting the account must stop its billing.
    const billing = createProviders(parseConfig(env as unknown as Record<string, unknown>), d).billing;
    const customer = await billing.createCustomer({ email: victim.email, idempotencyKey: `c-${victim.userId}` });
    const [price] = (await billing.listProducts())[0].prices;
    const live = await billing.createSubscription({ customerId: customer.id, priceId: price.id, idempotencyKey: `s-${victim.userId}` });
    await d.insert(subscriptions).values({ id: live.id, userId: victim.userId, customerId: customer.id, priceId: price.id, status: "active" });
    await d.insert(accountActivations).values({ userId: victim.userId, email: victim.email });
    await d.insert(phoneNumberOffers).values({ userId: victim.userId, phoneNumber: "+19999990002", expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await d.insert(reportMailSubscriptions).values({ userId: victim.userId, subscribed: true, changedAt: new Date().toISOString() });
    await d.insert(reportMailDeliveries).values({ userId: victim.userId, day: "2026-08-10", status: "sent", claimId: "c", firstClaimedAt: "t", claimedAt: "t" });
    await d.insert(reportMailUnsubscribeTokens).values({ tokenHash: `h-${victim.userId}`, userId: victim.userId, day: "2026-08-10" });
    await d.insert(liveTickets).values({ hash: `h-${victim.userId}`, userId: victim.userId, who: "{}", expiresAt: Date.now() + 30_000 });
    await d.insert(usageAlerts).values({ userId: victim.userId, month: "2026-08", threshold: 80, claimedAt: "2026-08-10T00:00:00.000Z" });
    const [alertRule] = await vs
      .insert(alertRules)
      .values({ userId: victim.userId, name: "r", metric: "call_count", scopeKind: "all", comparison: "gte", threshold: 1, windowMinutes: 15, cooldownMinutes: 0, severity: "warning" })
      .returning();
    await vs.insert(alertRuleState).values({ ruleId: alertRule.id, userId: victim.userId, since: "t" });
    const [alert] = await vs
      .insert(alertHistory)
      .values({ userId: victim.userId, ruleId: alertRule.id, ruleName: "r", metric: "call_count", scopeKind: "all", severity: "warning", comparison: "gte", threshold: 1, windowMinutes: 15, value: 2, windowStart: "t", windowEnd: "t", firedAt: "t", runId: "x" })
      .returning();
    await vs.insert(alertNotifications).values({ userId: victim.userId, alertId: alert.id, kind: "triggered", title: "r", severity: "warning", createdAt: "t" });
    await d.insert(alertMailRecipients).values({ userId: victim.userId, email: "ops@example.com", status: "confirmed", unsubscribeId: `u-${victim.userId}`, changedAt: "t" });
    await d.insert(alertMailLog).values({ userId: victim.userId, email: victim.email, day: "2026-08-10", kind: "alert", ref: `${alert.id}:triggered` });
    await vs.insert(webhookEndpoints).values({ id: `we_${victim.userId}`, userId: victim.userId, url: "https://hooks.example/x", events: "[]", secret: "whsec_x" });
    await vs.insert(webhookDeliveries).values({ id: `msg_${victim.userId}`, endpointId: `we_${victim.userId}`, userId: victim.userId, eventType: "test", payload: "{}" });
    // A move under way to the other shard: its rows copied there so far go too.
    const otherShard = (await shardNameOf(victim.userId)) === "SHARD_0" ? "SHARD_1" : "SHARD_0";
    await d.insert(shardMoves).values({ userId: victim.userId, fromShard: await shardNameOf(victim.userId), toShard: otherShard, startedBy: "ops@example.com" });
    await insertRows(callLogs, [{ userId: victim.userId, callId: `copied-${victim.userId}`, direction: "outbound", status: "ended", startTime: new Date().toISOString() }], testShardDb(otherShard));
    await d.insert(apiKeys).values({ id: `key_${victim.userId.slice(0, 8)}`, userId: victim.userId, name: "Victim's", scopes: ["calls:read"], prefix: "vao_test_abcd", secretHash: `h-${victim.userId}` });
    const hookId = `we_${victim.userId.slice(0, 8)}`;
    await vs.insert(webhookEndpoints).values({ id: hookId, userId: victim.userId, url: "https://hooks.example.com/v", events: '["call.ended"]', secret: "whsec_AAAA" });
    await vs.insert(webhookDeliveries).values({ id: `msg_${victim.userId.slice(0, 8)}`, endpointId: hookId, userId: victim.userId, eventType: "call.ended", payload: "{}" });
    await vs.insert(webhookAttempts).values({ deliveryId: `msg_${victim.userId.slice(0, 8)}`, endpointId: hookId, attempt: 1, attemptedAt: "t", durationMs: 1 });

    const columns = userIdColumnsFromSchema();
    const countFor = async (userId: string) => {
      const out: Record<string, number> = {};
      for (const [table, cols] of columns) {
        for (const col of cols) {
          // Summed over the directory and every shard holding the table: no orphan anywhere.
          out[`${table}.${col}`] = 0;
          for (const d1 of [env.DB, env.SHARD_0, env.SHARD_1]) {
            if (!(await d1.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").bind(table).first())) continue;
            const row = await d1.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${col} = ?`).bind(userId).first<{ n: number }>();
            out[`${table}.${col}`] += row!.n;
          }
        }
      }
      return out;
    };
    const before = await countFor(victim.userId);
    // Every table but the audit log and the deleted-account list holds some of the victim's rows, so
    // the check below means something.
    for (const [key, n] of Object.entries(before)) {
      if (!key.startsWith("admin_audit_log.") && !key.startsWith("deleted_accounts.")) expect(n, key).toBeGreaterThan(0);
    }
    const bystanderBefore = await countFor(bystander.userId);

    const res = await call("/api/admin/cleanup-user", { method: "POST", token: admin.accessToken, json: { email: victim.email.toUpperCase() } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, userId: victim.userId, assistantsReleased: 1, numbersReturnedToPool: 1, numbersReleased: 1 });
    expect(res.body.deleted).toMatchObject({ profiles: 1, agents: 1, call_logs: 16, phone_numbers: 2, phone_numbers_returned: 1, shard_moves: 1 });

    const after = await countFor(victim.userId);
    for (const [key, n] of Object.entries(after)) {
      // Kept on purpose: the record of the deletion, and the id whose tokens are refused (decision 040).
      // And the day's alert mail claims: the per-address caps count every account's mail (decision 073).
      if (key === "admin_audit_log.target_user_id" || key === "deleted_accounts.user_id" || key === "alert_mail_log.user_id") expect(n, key).toBe(1);
      else expect(n, key).toBe(0);
    }
    expect(await countFor(bystander.userId)).toEqual(bystanderBefore);
    // The account's call text is gone from R2; the bystander's is all there.
    expect((await env.CALL_TEXT.list({ prefix: accountPrefix(victim.userId) })).objects).toEqual([]);
    expect((await env.CALL_TEXT.list({ prefix: accountPrefix(bystander.userId) })).objects.map((o) => o.key).sort()).toEqual(
      bystanderCalls.map((c) => callTextKey(bystander.userId, c.callId)).sort(),
    );
    // Webhook attempts hold their endpoint's id only: gone with the endpoint.
    expect(await vs.select().from(webhookAttempts).where(eq(webhookAttempts.endpointId, hookId))).toEqual([]);

    // The platform number is back in the pool, unlinked; the other two are gone.
    const pool = await d.query.phoneNumbers.findFirst({ where: eq(phoneNumbers.id, poolNumber.id) });
    expect(pool).toMatchObject({ userId: null, agentId: null, status: "active" });
    expect(await d.query.phoneNumbers.findFirst({ where: eq(phoneNumbers.id, plainNumber.id) })).toBeUndefined();
    const listed = await call("/api/admin/vapi/available-numbers", { token: admin.accessToken });
    expect(listed.body.numbers.find((n: Json) => n.id === poolNumber.vapiPhoneNumberId)).toMatchObject({ assignedTo: null });

    const [entry] = await auditRows();
    expect(entry).toMatchObject({ action: "delete_user", actorId: admin.userId, targetUserId: victim.userId, targetEmail: victim.email.toLowerCase() });
    expect(entry.detail).toMatchObject({ numbers_returned_to_pool: [poolNumber.phoneNumber], numbers_released: [plainNumber.phoneNumber] });

    // Its subscription is not billed again: it ends with the period already paid.
    expect((await billing.getSubscription(live.id))?.cancel_at_period_end).toBe(true);

    // The deleted account's session ends, and it cannot sign in again.
    expect((await call("/api/profile", { token: victim.accessToken })).status).toBe(401);
    const signIn = await call("/auth/v1/token?grant_type=password", { method: "POST", json: { email: victim.email, password: victim.password } });
    expect(signIn.status).toBe(400);
  }, 30_000);

  it("deletes the account's rows on its shard; with that shard failing, deletes the rest, names the shard, and the nightly sweep deletes its rows", async () => {
    const actor = { id: "ops", email: "ops@example.com", ip: null };
    const deps = testCleanupDeps();
    const callsOn = async (userId: string, name: string) => (await testShardDb(name).select().from(callLogs).where(eq(callLogs.userId, userId))).length;

    const healthy = await insertProfile();
    await insertCallLogs(healthy.id, 3);
    const healthyShard = await shardNameOf(healthy.id);
    const done = await cleanupUser(deps, actor, healthy.email);
    expect(done.failedShards).toBeUndefined();
    expect(done.deleted.call_logs).toBe(3);
    expect(await callsOn(healthy.id, healthyShard)).toBe(0);

    const victim = await insertProfile();
    await insertCallLogs(victim.id, 5);
    const victimShard = await shardNameOf(victim.id);
    const broken = { ...deps, shard: (name: string) => (name === victimShard ? createDb(failingD1(name)) : testShardDb(name)) };
    const partial = await cleanupUser(broken, actor, victim.email);
    expect(partial.failedShards).toEqual([victimShard]);
    expect(partial.deleted.profiles).toBe(1);
    expect(await db().select().from(profiles).where(eq(profiles.id, victim.id))).toEqual([]);
    expect(await callsOn(victim.id, victimShard)).toBe(5);

    // The nightly sweep finds the id in deleted_accounts and deletes its rows on every shard.
    const swept = await sweepDeletedAccounts(db(), testShards(), new Date());
    expect(swept.deleted).toBeGreaterThanOrEqual(5);
    expect(await callsOn(victim.id, victimShard)).toBe(0);
    // A failing shard fails the sweep, naming it.
    await expect(sweepDeletedAccounts(db(), [{ name: "SHARD_7", db: createDb(failingD1("SHARD_7")) }], new Date())).rejects.toThrow(/SHARD_7/);
  });

  it("refuses deleting yourself, an unknown email and a bad email, deleting nothing", async () => {
    const admin = await signInAdmin();
    const self = await call("/api/admin/cleanup-user", { method: "POST", token: admin.accessToken, json: { email: admin.email } });
    expect(self.status).toBe(409);
    expect(self.body).toMatchObject({ error: ADMIN_API_TEXT.cannotDeleteSelf, field: "email" });
    expect(await db().query.profiles.findFirst({ where: eq(profiles.id, admin.userId) })).toBeTruthy();
    const unknown = await call("/api/admin/cleanup-user", { method: "POST", token: admin.accessToken, json: { email: uniqueEmail("ghost") } });
    expect(unknown.status).toBe(404);
    for (const json of [{}, { email: "not-an-email" }, { email: 5 }]) {
      const res = await call("/api/admin/cleanup-user", { method: "POST", token: admin.accessToken, json });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe("email");
    }
  });
});

describe("the audit log", () => {
  it("lists entries newest first in keyset pages, and refuses any update or delete", async () => {
    const admin = await signInAdmin();
    for (const n of [11, 12, 13]) {
      expect((await call("/api/admin/config/phone-limit", { method: "PUT", token: admin.accessToken, json: { phoneNumberLimit: n } })).status).toBe(200);
    }
    const first = await call("/api/admin/audit-log?limit=2", { token: admin.accessToken });
    expect(first.status).toBe(200);
    expect(first.body.entries.map((e: Json) => e.detail.after)).toEqual([13, 12]);
    expect(first.body.entries[0]).toMatchObject({ action: "set_phone_limit", actor_email: admin.email.toLowerCase(), detail: { before: 12, after: 13 } });
    const next = await call(`/api/admin/audit-log?limit=2&before=${first.body.nextCursor}`, { token: admin.accessToken });
    expect(next.body.entries[0].detail.after).toBe(11);
    expect((await call("/api/admin/audit-log?before=x", { token: admin.accessToken })).body.field).toBe("before");

    const d = db();
    await expect(d.update(adminAuditLog).set({ action: "nothing" }).where(sql`1 = 1`)).rejects.toThrow();
    await expect(d.delete(adminAuditLog).where(and(sql`1 = 1`))).rejects.toThrow();
    expect((await auditRows()).some((r) => r.action === "nothing")).toBe(false);
  });

  it("a phone-limit change and its entry commit together; a refused one records nothing", async () => {
    const admin = await signInAdmin();
    const count = async () => (await auditRows()).length;
    const before = await count();
    expect((await call("/api/admin/config/phone-limit", { method: "PUT", token: admin.accessToken, json: { phoneNumberLimit: 101 } })).status).toBe(400);
    expect(await count()).toBe(before);
    expect((await call("/api/admin/config/phone-limit", { method: "PUT", token: admin.accessToken, json: { phoneNumberLimit: 1 } })).status).toBe(200);
    expect(await count()).toBe(before + 1);
    expect(nyToday()).toMatch(/^\d{4}-/);
  });
});
