// Adopting orphan calls: the calls of an assistant no agent held become the agent's, their days are
// marked dirty in the same batch, so the owner's counts include them at once (the roll-ups left
// ownerless calls out) and the next roll-up run folds them in.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runRollups } from "../jobs/rollups";
import { insertAgent, insertCallLogs, insertProfile } from "../test/factories";
import { db } from "../test/helpers";
import { callLogCounts } from "./counts/call-logs";
import { DbMeter } from "./counts/meter";
import { callTextKey, getCallText, putCallText } from "./call-text";
import { adoptOrphanCalls } from "./orphan-calls";

const dirtyDays = async () =>
  (await env.DB.prepare("SELECT day FROM rollup_dirty_days WHERE source = 'call_logs' ORDER BY day").all<{ day: string }>()).results.map((r) => r.day);

describe("adopting orphan calls", { timeout: 30_000 }, () => {
  it("gives them to the agent's account and marks their days dirty, so counts include them at once", async () => {
    const user = await insertProfile();
    const assistant = `asst-${crypto.randomUUID()}`;
    const stray = { vapiAssistantId: assistant, store: null, type: "outbound" as const };
    await insertCallLogs(null, 3, { direction: "outbound" }, { agent: stray, day: "2026-06-02" });
    await insertCallLogs(null, 2, { direction: "outbound" }, { agent: stray, day: "2026-06-04" });
    await insertCallLogs(user.id, 4, { direction: "outbound" }, { day: "2026-06-03" });
    await runRollups({ db: db(), now: new Date("2026-06-20T12:00:00Z") }, { backfillFrom: "2026-06-01" });
    const q = { startDate: "2026-06-01", endDate: "2026-06-10", callType: "Both" as const };
    expect((await callLogCounts(new DbMeter(env.DB), user.id, q)).total).toBe(4);

    const agent = await insertAgent(user.id, { vapiAssistantId: assistant }, { store: "NAPLES" });
    expect(await adoptOrphanCalls(db(), env.CALL_TEXT, assistant, { userId: user.id, agentId: agent.id, store: "NAPLES" })).toBe(5);
    expect(await dirtyDays()).toEqual(["2026-06-02", "2026-06-04"]);
    const owned = await env.DB.prepare("SELECT count(*) AS n FROM call_logs WHERE assistant_id = ? AND user_id = ? AND agent_id = ? AND store = 'NAPLES'")
      .bind(assistant, user.id, agent.id)
      .first<{ n: number }>();
    expect(owned?.n).toBe(5);
    // Counted at once: the marked days are read live.
    expect((await callLogCounts(new DbMeter(env.DB), user.id, q)).total).toBe(9);

    // The next run folds them into the roll-ups and clears the marks; the count stays right.
    await runRollups({ db: db(), now: new Date("2026-06-21T12:00:00Z") });
    expect(await dirtyDays()).toEqual([]);
    const rolled = await env.DB.prepare("SELECT sum(total) AS n FROM call_log_daily WHERE user_id = ? AND day IN ('2026-06-02', '2026-06-04')")
      .bind(user.id)
      .first<{ n: number }>();
    expect(rolled?.n).toBe(5);
    expect((await callLogCounts(new DbMeter(env.DB), user.id, q)).total).toBe(9);

    // Nothing left to adopt: no write, no mark.
    expect(await adoptOrphanCalls(db(), env.CALL_TEXT, assistant, { userId: user.id, agentId: agent.id, store: "NAPLES" })).toBe(0);
    expect(await dirtyDays()).toEqual([]);
  });

  it("moves the adopted calls' transcripts from orphans/ to the account in R2 (decision 077)", async () => {
    const user = await insertProfile();
    const assistant = `asst-${crypto.randomUUID()}`;
    const stray = { vapiAssistantId: assistant, store: null, type: "inbound" as const };
    const [withText, withoutText] = await insertCallLogs(null, 2, { transcript: null }, { agent: stray, day: "2026-06-05" });
    await putCallText(env.CALL_TEXT, null, withText.callId, { transcript: "AI: Nobody's yet." });
    const agent = await insertAgent(user.id, { vapiAssistantId: assistant }, { store: "NAPLES" });
    expect(await adoptOrphanCalls(db(), env.CALL_TEXT, assistant, { userId: user.id, agentId: agent.id, store: "NAPLES" })).toBe(2);
    expect(await env.CALL_TEXT.head(callTextKey(null, withText.callId))).toBeNull();
    expect(await getCallText(env.CALL_TEXT, user.id, withText.callId)).toEqual({ transcript: "AI: Nobody's yet." });
    expect(await env.CALL_TEXT.head(callTextKey(user.id, withText.callId))).not.toBeNull();
    expect(await getCallText(env.CALL_TEXT, user.id, withoutText.callId)).toBeNull();
  });
});
