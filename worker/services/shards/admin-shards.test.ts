// The shards' admin API (decision 080): admins only, bad input refused naming the field, every change
// audited, and a started move carried out by the minute cron's job.
import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { adminAuditLog, shardMoves } from "../../db/schema";
import { shardMovesJob } from "../../jobs/shard-moves";
import { parseConfig } from "../../env";
import { env } from "cloudflare:workers";
import { insertCallLogs } from "../../test/factories";
import { call, db, shardNameOf, signUpAndSignIn, testShards } from "../../test/helpers";

const ROUTES: [method: string, path: string, json?: unknown][] = [
  ["GET", "/api/admin/shards"],
  ["PUT", "/api/admin/shards/SHARD_0", { open: true }],
  ["GET", "/api/admin/shards/moves"],
  ["POST", "/api/admin/shards/moves", { account: "someone", shard: "SHARD_1" }],
];

const signInAdmin = () => signUpAndSignIn({ appMetadata: { is_admin: true } });
const lastAudit = async () => (await db().select().from(adminAuditLog).orderBy(desc(adminAuditLog.id)).limit(1))[0];

describe("the shards' admin API", () => {
  it("answers 401 signed out and 403 to a non-admin on every route, and starts no move", async () => {
    const user = await signUpAndSignIn();
    for (const [method, path, json] of ROUTES) {
      expect((await call(path, { method, json })).status, `${method} ${path}`).toBe(401);
      const res = await call(path, { method, json, token: user.accessToken });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect(await db().select().from(shardMoves)).toEqual([]);
  });

  it("refuses bad input with a 4xx naming the field", async () => {
    const admin = await signInAdmin();
    const account = await signUpAndSignIn();
    const own = await shardNameOf(account.userId);
    const other = own === "SHARD_0" ? "SHARD_1" : "SHARD_0";
    const post = (json: unknown) => call("/api/admin/shards/moves", { method: "POST", json, token: admin.accessToken });
    const cases: [unknown, number, string][] = [
      [{ shard: other }, 400, "account"],
      [{ account: account.userId }, 400, "shard"],
      [{ account: account.userId, shard: "DB" }, 400, "shard"],
      [{ account: account.userId, shard: "SHARD_77" }, 400, "shard"],
      [{ account: "no-such-account", shard: other }, 404, "account"],
      [{ account: account.userId, shard: own }, 400, "shard"],
    ];
    for (const [json, status, field] of cases) {
      const res = await post(json);
      expect([res.status, res.body.field], JSON.stringify(json)).toEqual([status, field]);
    }
    expect((await post({ account: account.userId, shard: other })).status).toBe(202);
    const again = await post({ account: account.userId, shard: other });
    expect([again.status, again.body.field]).toEqual([409, "account"]);

    const put = (path: string, json: unknown) => call(path, { method: "PUT", json, token: admin.accessToken });
    expect(await put("/api/admin/shards/SHARD_9", { open: false })).toMatchObject({ status: 404, body: { field: "name" } });
    expect(await put("/api/admin/shards/nope", { open: false })).toMatchObject({ status: 400, body: { field: "name" } });
    expect(await put("/api/admin/shards/SHARD_0", { open: "no" })).toMatchObject({ status: 400, body: { field: "open" } });
  });

  it("reports each shard's size, accounts and room, and closes and opens a shard, audited", async () => {
    const admin = await signInAdmin();
    const status = await call("/api/admin/shards", { token: admin.accessToken });
    expect(status.status).toBe(200);
    expect(status.body.shards.map((s: { name: string }) => s.name)).toEqual(["SHARD_0", "SHARD_1"]);
    for (const s of status.body.shards) {
      expect(s.size_bytes).toBeGreaterThan(0);
      expect(s.room_bytes).toBe(status.body.limit_bytes - s.size_bytes);
      expect(s.open).toBe(true);
    }
    const placed = await shardNameOf(admin.userId);
    expect(status.body.shards.find((s: { name: string }) => s.name === placed).accounts).toBeGreaterThanOrEqual(1);

    const closed = await call("/api/admin/shards/SHARD_1", { method: "PUT", json: { open: false }, token: admin.accessToken });
    expect(closed).toMatchObject({ status: 200, body: { shard: { name: "SHARD_1", open: false } } });
    expect(await lastAudit()).toMatchObject({ action: "set_shard_open", actorId: admin.userId, detail: { shard: "SHARD_1", open: false } });
    // A closed shard takes no new account.
    for (let i = 0; i < 4; i++) expect(await shardNameOf((await signUpAndSignIn()).userId)).toBe("SHARD_0");
    const opened = await call("/api/admin/shards/SHARD_1", { method: "PUT", json: { open: true }, token: admin.accessToken });
    expect(opened.body.shard.open).toBe(true);
    expect(await lastAudit()).toMatchObject({ action: "set_shard_open", detail: { shard: "SHARD_1", open: true } });
  });

  it("starts a move, audited, lists it, and the minute cron's job carries it out", async () => {
    const admin = await signInAdmin();
    const account = await signUpAndSignIn();
    await insertCallLogs(account.userId, 20);
    const from = await shardNameOf(account.userId);
    const to = from === "SHARD_0" ? "SHARD_1" : "SHARD_0";
    const res = await call("/api/admin/shards/moves", { method: "POST", json: { account: account.userId, shard: to }, token: admin.accessToken });
    expect(res).toMatchObject({ status: 202, body: { move: { account: account.userId, from_shard: from, to_shard: to, phase: "copying", started_by: admin.email } } });
    expect(await lastAudit()).toMatchObject({ action: "move_account_shard", actorId: admin.userId, targetUserId: account.userId, detail: { from, to } });
    const list = await call("/api/admin/shards/moves", { token: admin.accessToken });
    expect(list.body.moves[0]).toMatchObject({ id: res.body.move.id, phase: "copying" });

    const ctx = { db: db(), config: parseConfig(env as unknown as Record<string, unknown>), now: new Date(), shards: testShards(), callText: env.CALL_TEXT };
    await shardMovesJob.run(ctx);
    const afterOne = (await db().select().from(shardMoves).where(eq(shardMoves.id, res.body.move.id)))[0];
    // One run copies, catches up and switches; the old rows wait for the grace period.
    expect(afterOne.phase).toBe("final");
    expect(await shardNameOf(account.userId)).toBe(to);
  });
});
