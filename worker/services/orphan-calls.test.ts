// Adopting orphan calls: the calls of an assistant no agent held wait in the directory (they belong
// to no account, decision 076); adoption moves them to the agent's account's shard, owned, with their
// days marked dirty in the same batch, so the owner's counts include them at once (the roll-ups never
// saw ownerless calls) and the next roll-up run folds them in.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runRollups } from "../jobs/rollups";
import { d1Of } from "../db/client";
import { insertAgent, insertCallLogs, insertProfile } from "../test/factories";
import { db, shardNameOf, shardOf, testShards } from "../test/helpers";
import { callLogCounts } from "./counts/call-logs";
import { DbMeter } from "./counts/meter";
import { callTextKey, getCallText, putCallText } from "./call-text";
import { adoptOrphanCalls, orphanCalls } from "./orphan-calls";

type Db = Awaited<ReturnType<typeof shardOf>>;
const dirtyDays = async (shard: Db) =>
  (await d1Of(shard).prepare("SELECT day FROM rollup_dirty_days WHERE source = 'call_logs' ORDER BY day").all<{ day: string }>()).results.map((r) => r.day);
const countOf = async (database: Db, sql: string, ...params: unknown[]) => (await d1Of(database).prepare(sql).bind(...params).first<{ n: number }>())!.n;

describe("adopting orphan calls", { timeout: 30_000 }, () => {
  it("moves them from the directory to the agent's account's shard and marks their days dirty, so counts include them at once", async () => {
    const user = await insertProfile();
    const shard = await shardOf(user.id);
    const meter = async () => new DbMeter(d1Of(shard), await shardNameOf(user.id));
    const assistant = `asst-${crypto.randomUUID()}`;
    const stray = { vapiAssistantId: assistant, store: null, type: "outbound" as const };
    await insertCallLogs(null, 3, { direction: "outbound" }, { agent: stray, day: "2026-06-02" });
    await insertCallLogs(null, 2, { direction: "outbound" }, { agent: stray, day: "2026-06-04" });
    await insertCallLogs(user.id, 4, { direction: "outbound" }, { day: "2026-06-03" });
    const ctx = (now: string) => ({ db: db(), shards: testShards(), now: new Date(now) });
    await runRollups(ctx("2026-06-20T12:00:00Z"), { backfillFrom: "2026-06-01" });
    const q = { startDate: "2026-06-01", endDate: "2026-06-10", callType: "Both" as const };
    expect((await callLogCounts(await meter(), user.id, q)).total).toBe(4);
    expect(await countOf(db(), "SELECT count(*) AS n FROM call_logs WHERE assistant_id = ? AND user_id IS NULL", assistant)).toBe(5);

    const agent = await insertAgent(user.id, { vapiAssistantId: assistant }, { store: "NAPLES" });
    expect(await adoptOrphanCalls(db(), shard, env.CALL_TEXT, assistant, { userId: user.id, agentId: agent.id, store: "NAPLES" })).toBe(5);
    expect(await dirtyDays(shard)).toEqual(["2026-06-02", "2026-06-04"]);
    const owned = "SELECT count(*) AS n FROM call_logs WHERE assistant_id = ? AND user_id = ? AND agent_id = ? AND store = 'NAPLES'";
    expect(await countOf(shard, owned, assistant, user.id, agent.id)).toBe(5);
    // Gone from the directory, and on no other shard.
    expect(await countOf(db(), "SELECT count(*) AS n FROM call_logs WHERE assistant_id = ?", assistant)).toBe(0);
    const home = await shardNameOf(user.id);
    for (const other of testShards().filter((s) => s.name !== home)) {
      expect(await countOf(other.db, "SELECT count(*) AS n FROM call_logs WHERE assistant_id = ?", assistant)).toBe(0);
    }
    // Counted at once: the marked days are read live.
    expect((await callLogCounts(await meter(), user.id, q)).total).toBe(9);

    // The next run folds them into the roll-ups and clears the marks; the count stays right.
    await runRollups(ctx("2026-06-21T12:00:00Z"));
    expect(await dirtyDays(shard)).toEqual([]);
    expect(await countOf(shard, "SELECT sum(total) AS n FROM call_log_daily WHERE user_id = ? AND day IN ('2026-06-02', '2026-06-04')", user.id)).toBe(5);
    expect((await callLogCounts(await meter(), user.id, q)).total).toBe(9);

    // Nothing left to adopt: no write, no mark.
    expect(await adoptOrphanCalls(db(), shard, env.CALL_TEXT, assistant, { userId: user.id, agentId: agent.id, store: "NAPLES" })).toBe(0);
    expect(await dirtyDays(shard)).toEqual([]);
  });

  it("is idempotent by call id: a move cut after the shard's copy is finished by the next adoption, each call once", async () => {
    const user = await insertProfile();
    const shard = await shardOf(user.id);
    const assistant = `asst-${crypto.randomUUID()}`;
    const [first] = await insertCallLogs(null, 4, { direction: "inbound", transcript: null }, { agent: { vapiAssistantId: assistant, store: null, type: "inbound" }, day: "2026-06-05" });
    await putCallText(env.CALL_TEXT, null, first.callId, { transcript: "AI: Waiting for an owner." });
    const agent = await insertAgent(user.id, { vapiAssistantId: assistant });
    const owner = { userId: user.id, agentId: agent.id, store: null };
    const rows = await orphanCalls(db(), assistant);
    expect(rows).toHaveLength(4);
    // The shard's copy committed, the directory's delete never ran: the calls are in both.
    const directory = db();
    const cut = new Proxy(directory, {
      get: (target, prop) => (prop === "batch" ? () => Promise.reject(new Error("D1_ERROR: directory unavailable")) : Reflect.get(target, prop, target)),
    });
    await expect(adoptOrphanCalls(cut, shard, env.CALL_TEXT, assistant, owner, rows)).rejects.toThrow("directory unavailable");
    expect(await countOf(shard, "SELECT count(*) AS n FROM call_logs WHERE assistant_id = ? AND user_id = ?", assistant, user.id)).toBe(4);
    expect(await countOf(db(), "SELECT count(*) AS n FROM call_logs WHERE assistant_id = ?", assistant)).toBe(4);
    // The text has not moved yet, and the owned copy reads it from orphans/ meanwhile.
    expect(await env.CALL_TEXT.head(callTextKey(user.id, first.callId))).toBeNull();
    expect(await getCallText(env.CALL_TEXT, user.id, first.callId)).toEqual({ transcript: "AI: Waiting for an owner." });
    // The next adoption copies nothing twice, empties the directory and moves the text.
    expect(await adoptOrphanCalls(db(), shard, env.CALL_TEXT, assistant, owner)).toBe(4);
    expect(await countOf(shard, "SELECT count(*) AS n FROM call_logs WHERE assistant_id = ?", assistant)).toBe(4);
    expect(await countOf(shard, "SELECT count(DISTINCT call_id) AS n FROM call_logs WHERE assistant_id = ?", assistant)).toBe(4);
    expect(await countOf(db(), "SELECT count(*) AS n FROM call_logs WHERE assistant_id = ?", assistant)).toBe(0);
    expect(await env.CALL_TEXT.head(callTextKey(null, first.callId))).toBeNull();
    expect(await getCallText(env.CALL_TEXT, user.id, first.callId)).toEqual({ transcript: "AI: Waiting for an owner." });
  });

  it("moves the adopted calls' transcripts from orphans/ to the account in R2 (decision 077)", async () => {
    const user = await insertProfile();
    const assistant = `asst-${crypto.randomUUID()}`;
    const stray = { vapiAssistantId: assistant, store: null, type: "inbound" as const };
    const [withText, withoutText] = await insertCallLogs(null, 2, { transcript: null }, { agent: stray, day: "2026-06-05" });
    await putCallText(env.CALL_TEXT, null, withText.callId, { transcript: "AI: Nobody's yet." });
    const agent = await insertAgent(user.id, { vapiAssistantId: assistant }, { store: "NAPLES" });
    expect(await adoptOrphanCalls(db(), await shardOf(user.id), env.CALL_TEXT, assistant, { userId: user.id, agentId: agent.id, store: "NAPLES" })).toBe(2);
    expect(await env.CALL_TEXT.head(callTextKey(null, withText.callId))).toBeNull();
    expect(await getCallText(env.CALL_TEXT, user.id, withText.callId)).toEqual({ transcript: "AI: Nobody's yet." });
    expect(await env.CALL_TEXT.head(callTextKey(user.id, withText.callId))).not.toBeNull();
    expect(await getCallText(env.CALL_TEXT, user.id, withoutText.callId)).toBeNull();
  });
});
