// Work across accounts on the shards (decision 079): the roll-up job rolls up every shard's call logs
// beside the directory's store network; a failing shard leaves the others' work done and is named in
// the job's error; the shard-size job measures every shard into the directory and keeps a failing
// shard's last figure; the change log is pruned on every shard.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../db/client";
import { profiles, shards } from "../db/schema";
import type { Shard } from "../db/shards";
import { parseConfig } from "../env";
import { insertAircallCalls, insertCallLogs, insertProfile } from "../test/factories";
import { db, shardOf, testShards } from "../test/helpers";
import { jobsByCron, FREQUENT_CRON, pruneCountersJob, runJobs } from "./index";
import { rollupJob, runHourlyRollups, runRollups } from "./rollups";
import { CLOSE_SHARD_AT_BYTES, measureShards, shardSizeJob } from "./shard-sizes";
import { unreachableShard } from "../test/admin-databases";

const NOW = new Date("2026-09-10T12:00:00Z");


/** An account on the named shard with `n` calls on 2026-09-08 (New York). */
async function accountOn(shard: string, n: number) {
  const user = await insertProfile();
  await db().update(profiles).set({ shard }).where(eq(profiles.id, user.id));
  await insertCallLogs(user.id, n, { direction: "outbound", status: "ended" }, { day: "2026-09-08" });
  return user.id;
}

const rolledUp = async (userId: string) =>
  (await (await shardOf(userId)).$client.prepare("SELECT sum(total) AS n FROM call_log_user_daily WHERE user_id = ? AND day = '2026-09-08'").bind(userId).first<{ n: number | null }>())?.n ?? 0;
const ctx = (shardList: Shard[] = testShards()) => ({ db: db(), shards: shardList, now: NOW, config: parseConfig(env as unknown as Record<string, unknown>) });

describe("the roll-up job across shards", () => {
  it("rolls up the call logs of every shard and the store network in the directory", async () => {
    const a = await accountOn("SHARD_0", 3);
    const b = await accountOn("SHARD_1", 5);
    await insertAircallCalls(4, {}, { day: "2026-09-08" });
    const runs = await runRollups(ctx(), { backfillFrom: "2026-09-01" });
    expect(runs.map((r) => [r.source, r.shard ?? "directory"])).toEqual([
      ["call_logs", "SHARD_0"],
      ["call_logs", "SHARD_1"],
      ["aircall", "directory"],
      ["appointments", "directory"],
      ["leads", "directory"],
    ]);
    expect(await rolledUp(a)).toBe(3);
    expect(await rolledUp(b)).toBe(5);
    // Each database keeps its own coverage; the directory's call-log coverage is never written.
    for (const d1 of [env.SHARD_0, env.SHARD_1]) {
      expect(await d1.prepare("SELECT until_day FROM rollup_state WHERE source = 'call_logs'").first()).toEqual({ until_day: "2026-09-10" });
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM rollup_state WHERE source = 'call_logs'").first()).toEqual({ n: 0 });
    expect(await env.DB.prepare("SELECT until_day FROM rollup_state WHERE source = 'aircall'").first()).toEqual({ until_day: "2026-09-10" });
    const hourly = await runHourlyRollups(ctx());
    expect(hourly.map((r) => r.shard)).toEqual(["SHARD_0", "SHARD_1"]);
  });

  it("with one shard failing, rolls up the other shard and the directory, and the job's error names the failing shard", async () => {
    const a = await accountOn("SHARD_0", 6);
    const [shard0] = testShards();
    expect(await rolledUp(a)).toBe(0);
    await env.DB.prepare("DELETE FROM rollup_state WHERE source = 'aircall'").run();
    await expect(rollupJob.run(ctx([shard0, unreachableShard("SHARD_7")]))).rejects.toThrow(/1 of 2 shards failed: SHARD_7: D1_ERROR: SHARD_7 is unreachable/);
    expect(await rolledUp(a)).toBe(6);
    expect(await env.DB.prepare("SELECT until_day FROM rollup_state WHERE source = 'aircall'").first()).toEqual({ until_day: "2026-09-10" });
  });

  it("names both the directory and a failing shard when both fail", async () => {
    const [shard0] = testShards();
    const broken = { ...ctx([shard0, unreachableShard("SHARD_7")]), db: createDb(unreachableShard("DB").db.$client) };
    await expect(runRollups(broken)).rejects.toThrow(/the directory failed: D1_ERROR: DB is unreachable; 1 of 2 shards failed: SHARD_7/);
  });

  it("runs the job through runJobs and records the failing shard in job_runs", async () => {
    const [shard0] = testShards();
    jobsByCron["test-cron"] = [rollupJob];
    try {
      const results = await runJobs("test-cron", ctx([shard0, unreachableShard("SHARD_7")]));
      expect(results).toEqual([{ name: "rollups", ok: false, error: expect.stringMatching(/SHARD_7: D1_ERROR/) }]);
      const row = await env.DB.prepare("SELECT last_error AS error FROM job_runs WHERE job = 'rollups'").first<{ error: string }>();
      expect(row?.error).toMatch(/SHARD_7/);
    } finally {
      delete jobsByCron["test-cron"];
    }
  });
});

describe("the shard-size job", () => {
  it("runs every ten minutes, measures every shard into the directory and registers a bound shard without a row, open", async () => {
    expect(jobsByCron[FREQUENT_CRON]).toContain(shardSizeJob);
    await env.DB.prepare("DELETE FROM shards WHERE name = 'SHARD_1'").run();
    await env.DB.prepare("UPDATE shards SET open = 0 WHERE name = 'SHARD_0'").run();
    const sizes = await measureShards(ctx());
    expect(sizes.map((s) => s.shard)).toEqual(["SHARD_0", "SHARD_1"]);
    const rows = await db().select().from(shards).orderBy(shards.name);
    expect(rows.map((r) => [r.name, r.open, r.measuredAt])).toEqual([
      ["SHARD_0", false, NOW.toISOString()],
      ["SHARD_1", true, NOW.toISOString()],
    ]);
    for (const r of rows) expect(r.sizeBytes).toBeGreaterThan(0);
    await env.DB.prepare("UPDATE shards SET open = 1").run();
  });

  it("keeps a failing shard's last figure, writes the others and names the failing one", async () => {
    const [shard0, shard1] = testShards();
    await measureShards(ctx());
    const last = await db().select().from(shards).where(eq(shards.name, "SHARD_1")).get();
    const later = new Date(NOW.getTime() + 600_000);
    await expect(measureShards({ ...ctx([shard0, unreachableShard("SHARD_1")]), now: later })).rejects.toThrow(/SHARD_1: D1_ERROR/);
    expect(await db().select().from(shards).where(eq(shards.name, "SHARD_1")).get()).toEqual(last);
    expect((await db().select().from(shards).where(eq(shards.name, "SHARD_0")).get())?.measuredAt).toBe(later.toISOString());
    expect(shard1.name).toBe("SHARD_1");
  });
});

describe("the shard-size job at the edges", () => {
  /** A shard whose database reports `sizeBytes` with every answer, as D1's meta.size_after does. */
  const sized = (name: string, sizeBytes: number): Shard => {
    const d1 = { prepare: () => ({ run: async () => ({ results: [], meta: { size_after: sizeBytes } }) }) } as unknown as D1Database;
    return { name, db: createDb(d1) };
  };

  it("writes 150 shards' sizes in one statement of three parameters", async () => {
    const many = Array.from({ length: 150 }, (_, i) => sized(`SHARD_${i + 100}`, 1_000 + i));
    const sizes = await measureShards(ctx(many));
    expect(sizes).toHaveLength(150);
    const row = await db().select().from(shards).where(eq(shards.name, "SHARD_249")).get();
    expect(row).toMatchObject({ sizeBytes: 1_149, open: true, measuredAt: NOW.toISOString() });
    await env.DB.prepare("DELETE FROM shards WHERE CAST(substr(name, 7) AS INTEGER) >= 100").run();
  });

  it("closes a shard past half of 10 GB to new accounts, registers a full new one closed, and never reopens one", async () => {
    await measureShards(ctx([sized("SHARD_90", 1_000), sized("SHARD_91", CLOSE_SHARD_AT_BYTES)]));
    const open = async (name: string) => (await db().select({ open: shards.open }).from(shards).where(eq(shards.name, name)).get())?.open;
    expect([await open("SHARD_90"), await open("SHARD_91")]).toEqual([true, false]);
    await measureShards(ctx([sized("SHARD_90", CLOSE_SHARD_AT_BYTES + 1), sized("SHARD_91", 1_000)]));
    expect([await open("SHARD_90"), await open("SHARD_91")]).toEqual([false, false]);
    await env.DB.prepare("DELETE FROM shards WHERE name IN ('SHARD_90', 'SHARD_91')").run();
  });
});

describe("the live change log prune", () => {
  it("prunes every shard's change log, and names a failing shard after pruning the others", async () => {
    const old = "2026-09-01T00:00:00.000Z";
    const ids = [await accountOn("SHARD_0", 0), await accountOn("SHARD_1", 0)];
    for (const id of ids) {
      const change = (await shardOf(id)).$client.prepare("INSERT INTO call_log_changes (user_id, call_log_id, account_seq, changed_at) VALUES (?, ?, ?, ?)");
      await (await shardOf(id)).$client.batch([1, 2, 3].map((seq) => change.bind(id, seq, seq, old)));
    }
    const left = async (id: string) => (await (await shardOf(id)).$client.prepare("SELECT count(*) AS n FROM call_log_changes WHERE user_id = ?").bind(id).first<{ n: number }>())!.n;
    const result = (await pruneCountersJob.run(ctx())) as { liveChanges: { shard: string; value: number }[] };
    expect(result.liveChanges.map((r) => r.shard)).toEqual(["SHARD_0", "SHARD_1"]);
    // Each account's newest change stays, so its numbering goes on.
    for (const id of ids) expect(await left(id)).toBe(1);
    const [shard0] = testShards();
    await expect(pruneCountersJob.run(ctx([shard0, unreachableShard("SHARD_7")]))).rejects.toThrow(/SHARD_7/);
  });
});
