// The Call Logs counts read the roll-up table that fits the filter: without an agent the
// (account, day, direction) table, a few rows a day however many assistants the account has; with an
// agent the (account, day, assistant, direction) one. Both equal the brute-force count.
import { addDays, nyDayOf } from "@shared/ny-time";
import { describe, expect, it } from "vitest";
import { runRollups } from "../../jobs/rollups";
import { D1Timer } from "../../db/timed-d1";
import { bruteCallLogCounts } from "../../test/brute-counts";
import { RecordingMeter } from "../../test/explain";
import { insertAgent, insertCallLogs, insertProfile } from "../../test/factories";
import { db, shardOf, testShards } from "../../test/helpers";
import { callLogCounts } from "./call-logs";
import { countOver } from "./engine";
import { callLogSpec } from "./figures";
import { DbMeter } from "./meter";

const NOW = new Date("2026-08-20T18:00:00Z");
const TODAY = nyDayOf(NOW);
const ASSISTANTS = 20;
const DAYS = 90;

/** D1's rows read by one count on the account's shard, coverage lookups included. */
async function rowsRead<T>(shard: D1Database, count: (meter: DbMeter) => Promise<T>) {
  const timer = new D1Timer();
  const result = await count(new DbMeter(timer.wrap(shard)));
  return { result, rows: timer.rowsRead };
}

describe("Call Logs counts over the roll-ups", { timeout: 60_000 }, () => {
  it("read O(days) roll-up rows without an agent, independent of the number of assistants, and equal the brute-force count", async () => {
    const user = await insertProfile();
    // Half inbound, half outbound agents; each with calls on most days of the 90 before today.
    const window = { fromMs: Date.parse(`${addDays(TODAY, -DAYS)}T05:00:00Z`), toMs: Date.parse(`${TODAY}T04:00:00Z`) };
    const assistants: string[] = [];
    const calls = [];
    for (let i = 0; i < ASSISTANTS; i++) {
      const type = i % 2 ? "inbound" : "outbound";
      const agent = await insertAgent(user.id, { name: `Agent ${i + 1}` }, { store: "MIAMI", type });
      assistants.push(agent.vapiAssistantId!);
      const ref = { id: agent.id, vapiAssistantId: agent.vapiAssistantId, store: agent.store, type } as const;
      calls.push(...(await insertCallLogs(user.id, 120, {}, { agent: ref, window })));
    }
    await runRollups({ db: db(), now: NOW, shards: testShards() }, { backfillFrom: addDays(TODAY, -DAYS) });
    const shard = (await shardOf(user.id)).$client;
    // Today's calls, after the run: read live.
    const todays = await insertCallLogs(user.id, 25, { direction: "outbound", assistantId: assistants[0] }, { window: { fromMs: Date.parse(`${TODAY}T04:00:00Z`), toMs: NOW.getTime() } });
    calls.push(...todays);

    const q = { startDate: addDays(TODAY, -(DAYS - 1)), endDate: TODAY, callType: "Both" as const };
    const perAccount = await rowsRead(shard, (m) => callLogCounts(m, user.id, q));
    expect(perAccount.result).toEqual(bruteCallLogCounts(calls, user.id, q));
    expect(perAccount.result.total).toBeGreaterThan(2000);
    // At most one roll-up row per day and direction stored (inbound, outbound, web), today's calls
    // read live, and the coverage bookkeeping.
    const directions = Number((await shard.prepare("SELECT count(DISTINCT direction) AS n FROM call_log_user_daily WHERE user_id = ?").bind(user.id).first())!.n);
    expect(directions).toBeLessThanOrEqual(3);
    expect(perAccount.rows).toBeLessThanOrEqual(directions * (DAYS - 1) + todays.length + 10);

    // The same range over the per-assistant table reads a row per day, assistant and direction.
    const perAssistant = await rowsRead(shard, (m) =>
      countOver(m, callLogSpec, q, ["total"], [{ sql: "r.user_id = ?", params: [user.id] }, { sql: "+r.direction IN ('inbound', 'outbound')", params: [] }]),
    );
    expect(perAssistant.result.total).toBe(perAccount.result.total);
    expect(perAssistant.rows).toBeGreaterThan(ASSISTANTS * (DAYS - 1) * 0.5);
    expect(perAccount.rows * 5).toBeLessThan(perAssistant.rows);

    // Every call type, without an agent and with one (the per-assistant table), equal to brute force.
    for (const agent of [undefined, assistants[0], assistants[1]]) {
      for (const callType of ["Outbound", "Inbound", "Both"] as const) {
        const qa = { ...q, callType, agent };
        expect(await callLogCounts(new DbMeter(shard), user.id, qa), `${agent} ${callType}`).toEqual(bruteCallLogCounts(calls, user.id, qa));
      }
    }
  });

  it("take the per-account table without an agent and the per-assistant table with one", async () => {
    const user = await insertProfile();
    await runRollups({ db: db(), now: NOW, shards: testShards() }, { backfillFrom: "2026-08-01" });
    const shard = (await shardOf(user.id)).$client;
    const q = { startDate: "2026-08-01", endDate: "2026-08-10", callType: "Outbound" as const };
    const tables = async (agent?: string) => {
      const m = new RecordingMeter(shard);
      await callLogCounts(m, user.id, { ...q, agent });
      return m.recorded.map((r) => /FROM (call_log_\w*daily) r/.exec(r.sql)?.[1]).filter(Boolean);
    };
    expect(await tables()).toEqual(["call_log_user_daily"]);
    expect(await tables("asst-1")).toEqual(["call_log_daily"]);
  });
});

describe("the live part of the Call Logs counts", () => {
  it("reads the calls not rolled up from the covering index alone, with or without an agent", async () => {
    const shard = (await shardOf((await insertProfile()).id)).$client;
    for (const agent of [undefined, "asst-covering"]) {
      const rec = new RecordingMeter(shard);
      // No roll-up covers this user's days: every day of the range is read live.
      await callLogCounts(rec, "user-covering", { startDate: "2026-03-01", endDate: "2026-03-31", callType: "Both", agent });
      const live = (await rec.plans()).filter((p) => /\bcall_logs r\b/.test(p.sql));
      expect(live.length, String(agent)).toBeGreaterThan(0);
      for (const p of live) expect(p.plan.join(" | "), String(agent)).toMatch(/SEARCH r USING COVERING INDEX call_logs_user_time_idx/);
    }
  });
});
