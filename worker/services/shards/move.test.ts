// Moving an account between shards (decision 080): every row of the account reaches the new shard
// exactly once and leaves the old one, whatever step dies on the way, and calls the voice platform
// sends throughout the move are all found on the new shard.
import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { createDb, type Database } from "../../db/client";
import { alertHistory, alertNotifications, alertRuleState, alertRules, callLogDaily, callLogs, profiles, shardMoves, webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { SOURCE_COLUMNS, type SearchSource } from "../../db/search-index";
import { SHARD_ROW_ID, shardBindings, shardDatabase } from "../../db/shards";
import { DEV_VAPI_WEBHOOK_SECRET } from "../../providers/voice/local";
import { insertAgent, insertCallLogs, insertProfile, insertRows, plainAlertRule } from "../../test/factories";
import { call, db, shardNameOf, signUpAndSignIn } from "../../test/helpers";
import { vapiCall, vapiReport } from "../../test/payloads";
import { indexCalls, searchCallLogs, writeSearchRows } from "../call-search";
import { callTextKey, putCallText } from "../call-text";
import { MOVED_TABLES, runMoveToEnd, startMove, stepMove, type MoveDeps, type StepOptions } from "./move";

const bindings = env as unknown as Record<string, unknown>;
const bound = shardBindings(bindings);
const deps = (): MoveDeps => ({ directory: db(), bound, shard: (name) => shardDatabase(bindings, name), text: env.CALL_TEXT });
const shardDb = (name: string): Database => createDb(shardDatabase(bindings, name));
const otherShard = (name: string) => bound.find((b) => b !== name)!;
/** Small steps (a few pages each) and no grace period, so a test walks every phase in a few steps. */
const fast: StepOptions = { graceMs: 0, budget: 40 };

/** A random 52-bit id, as the product's inserts give these rows (SHARD_ROW_ID). */
const rowId = () => Number(crypto.getRandomValues(new BigUint64Array(1))[0] & 0xfffffffffffffn) + 1;

/** An account on a shard with rows in every table a move carries, and their search rows. */
async function seededAccount(calls = 620, shard?: string) {
  const profile = await insertProfile(shard ? { shard } : {});
  const userId = profile.id;
  const from = await shardNameOf(userId);
  const onShard = shardDb(from);
  await insertCallLogs(userId, calls);
  const sources = await shardDatabase(bindings, from).prepare(`SELECT ${SOURCE_COLUMNS} FROM call_logs WHERE user_id = ?1`).bind(userId).all<SearchSource>();
  await writeSearchRows(shardDatabase(bindings, from), env.CALL_TEXT, sources.results);
  await insertRows(callLogDaily, [{ userId, day: "2026-03-02", direction: "inbound", total: 3 }, { userId, day: "2026-03-03", direction: "outbound", total: 1 }], onShard);
  const endpointId = `we_${crypto.randomUUID()}`;
  await insertRows(webhookEndpoints, [{ id: endpointId, userId, url: "https://hooks.example.com/x", events: '["call.ended"]', secret: "whsec_x" }], onShard);
  const deliveryId = `msg_${crypto.randomUUID()}`;
  await insertRows(webhookDeliveries, [{ id: deliveryId, endpointId, userId, eventType: "call.ended", payload: '{"a":1}' }], onShard);
  await insertRows(webhookAttempts, [1, 2].map((attempt) => ({ id: rowId(), deliveryId, endpointId, attempt, attemptedAt: new Date().toISOString(), durationMs: 12 })), onShard);
  const [rule] = await insertRows(alertRules, [{ ...plainAlertRule("Calls"), id: rowId(), userId }], onShard);
  const now = new Date().toISOString();
  await insertRows(alertRuleState, [{ ruleId: rule.id, userId, status: "firing", since: now }], onShard);
  const [alert] = await insertRows(
    alertHistory,
    [{ id: rowId(), userId, ruleId: rule.id, ruleName: "Calls", metric: "call_count", scopeKind: "all", severity: "warning", comparison: "gt", threshold: 1, windowMinutes: 60, value: 3, windowStart: now, windowEnd: now, firedAt: now, runId: "r1" }],
    onShard,
  );
  await insertRows(alertNotifications, [{ id: rowId(), userId, alertId: alert.id, kind: "fired", title: "Calls", severity: "warning", createdAt: now }], onShard);
  return { userId, from, to: otherShard(from), ruleId: rule.id, alertId: alert.id };
}

/** The account's rows in every moved table and its search rows, counted on a shard. */
async function countsOn(shard: string, userId: string) {
  const d1 = shardDatabase(bindings, shard);
  const out: Record<string, number> = {};
  for (const t of MOVED_TABLES) {
    const name = getTableConfig(t.table).name;
    out[name] = (await d1.prepare(`SELECT count(*) AS n FROM ${name} WHERE ${t.owner}`).bind(userId).first<{ n: number }>())!.n;
  }
  out.call_search_docs = (await d1.prepare("SELECT count(*) AS n FROM call_search_docs WHERE user_id = ?1").bind(userId).first<{ n: number }>())!.n;
  out.call_search = (await d1.prepare("SELECT count(*) AS n FROM call_search WHERE rowid IN (SELECT doc_rowid FROM call_search_docs WHERE user_id = ?1)").bind(userId).first<{ n: number }>())!.n;
  return out;
}

const zeroes = (counts: Record<string, number>) => Object.fromEntries(Object.keys(counts).map((k) => [k, 0]));

describe("moving an account between shards", () => {
  it("copies every row to the new shard with the same alert ids, switches the account, and deletes the old rows", async () => {
    const a = await seededAccount();
    const bystander = await seededAccount(5);
    const before = await countsOn(a.from, a.userId);
    const bystanderBefore = [await countsOn(bystander.from, bystander.userId), await countsOn(bystander.to, bystander.userId)];
    expect(before.call_logs).toBe(620);

    const move = await startMove(deps(), { account: a.userId, shard: a.to, startedBy: "test" });
    const done = await runMoveToEnd(deps(), move.id, fast);

    expect(done).toMatchObject({ phase: "done", fromShard: a.from, toShard: a.to });
    expect(await shardNameOf(a.userId)).toBe(a.to);
    expect(await countsOn(a.to, a.userId)).toEqual(before);
    expect(await countsOn(a.from, a.userId)).toEqual(zeroes(before));
    // Alert ids stay as they were: links and bell items still name the same rule and alert.
    const to = shardDb(a.to);
    expect((await to.select().from(alertRules).where(eq(alertRules.userId, a.userId)))[0].id).toBe(a.ruleId);
    expect((await to.select().from(alertHistory).where(eq(alertHistory.userId, a.userId)))[0].id).toBe(a.alertId);
    expect((await to.select().from(alertRuleState).where(eq(alertRuleState.userId, a.userId)))[0]).toMatchObject({ ruleId: a.ruleId, status: "firing" });
    // Another account's rows on either shard are untouched.
    expect([await countsOn(bystander.from, bystander.userId), await countsOn(bystander.to, bystander.userId)]).toEqual(bystanderBefore);
  });

  it("moves an account there and back with the same alert ids, and a shard's own new rows never take a moved row's id", async () => {
    const a = await seededAccount(10);
    const before = await countsOn(a.from, a.userId);
    for (const shard of [a.to, a.from]) {
      const move = await startMove(deps(), { account: a.userId, shard, startedBy: "test" });
      expect((await runMoveToEnd(deps(), move.id, fast)).phase).toBe("done");
    }
    expect(await shardNameOf(a.userId)).toBe(a.from);
    expect(await countsOn(a.from, a.userId)).toEqual(before);
    expect((await shardDb(a.from).select().from(alertRules).where(eq(alertRules.userId, a.userId)))[0].id).toBe(a.ruleId);
    // A rule made through the product on either shard gets a random id of its own, not the next after a moved one.
    for (const name of bound) {
      const other = await insertProfile({ shard: name });
      const made = await shardDatabase(bindings, name)
        .prepare(`INSERT INTO alert_rules (id, user_id, name, metric, scope_kind, comparison, threshold, window_minutes, cooldown_minutes, severity) VALUES (${SHARD_ROW_ID}, ?, 'Own', 'call_count', 'all', 'gte', 1, 15, 60, 'warning') RETURNING id`)
        .bind(other.id)
        .first<{ id: number }>();
      expect(made!.id).not.toBe(a.ruleId + 1);
      expect(Number.isSafeInteger(made!.id)).toBe(true);
    }
  });

  it("refuses a second move of an account, its own shard, an unknown shard and an unknown account, naming the field", async () => {
    const a = await seededAccount(3);
    await expect(startMove(deps(), { account: a.userId, shard: a.from, startedBy: "t" })).rejects.toMatchObject({ field: "shard", status: 400 });
    await expect(startMove(deps(), { account: a.userId, shard: "SHARD_99", startedBy: "t" })).rejects.toMatchObject({ field: "shard", status: 400 });
    await expect(startMove(deps(), { account: "nobody", shard: a.to, startedBy: "t" })).rejects.toMatchObject({ field: "account", status: 404 });
    await startMove(deps(), { account: a.userId, shard: a.to, startedBy: "t" });
    await expect(startMove(deps(), { account: a.userId, shard: a.to, startedBy: "t" })).rejects.toMatchObject({ field: "account", status: 409 });
  });

  const CRASH_POINTS = ["copying:page", "copying:saved", "catching_up:page", "catching_up:saved", "switch:before", "switch:after", "switched:page", "final:page", "deleting:batch"];
  for (const point of CRASH_POINTS) {
    it(`resumes after a crash at ${point} and ends with every row exactly once on the new shard`, async () => {
      const a = await seededAccount(300);
      const before = await countsOn(a.from, a.userId);
      const move = await startMove(deps(), { account: a.userId, shard: a.to, startedBy: "test" });
      let crashed = false;
      const crash = (at: string) => {
        if (at === point && !crashed) {
          crashed = true;
          throw new Error(`crash at ${at}`);
        }
      };
      await expect(runMoveToEnd(deps(), move.id, { ...fast, crash })).rejects.toThrow(`crash at ${point}`);
      expect(crashed).toBe(true);
      // The step that died released its hold; the next one goes on from the directory's cursor.
      const done = await runMoveToEnd(deps(), move.id, fast);
      expect(done.phase).toBe("done");
      expect(await countsOn(a.to, a.userId)).toEqual(before);
      expect(await countsOn(a.from, a.userId)).toEqual(zeroes(before));
      expect(await shardNameOf(a.userId)).toBe(a.to);
    });
  }

  it("waits out the grace period after the switch before the last catch-up and the deletion", async () => {
    const a = await seededAccount(5);
    const move = await startMove(deps(), { account: a.userId, shard: a.to, startedBy: "test" });
    const t0 = Date.now();
    let step = await stepMove(deps(), move.id, { now: () => new Date(t0) });
    while (step!.phase !== "final") step = await stepMove(deps(), move.id, { now: () => new Date(t0) });
    expect(step!.switchedAt).not.toBeNull();
    // 59 s after the switch: nothing happens, the old rows are still there.
    step = await stepMove(deps(), move.id, { now: () => new Date(t0 + 59_000) });
    expect(step!.phase).toBe("final");
    expect((await countsOn(a.from, a.userId)).call_logs).toBe(5);
    step = await stepMove(deps(), move.id, { now: () => new Date(t0 + 61_000) });
    expect(step!.phase).toBe("done");
    expect((await countsOn(a.from, a.userId)).call_logs).toBe(0);
  });
});

describe("calls arriving through the voice platform's webhook during a move", () => {
  it("are each found exactly once on the new shard and none on the old, before, during the copy and between the switch and the final catch-up", async () => {
    const session = await signUpAndSignIn();
    const assistantId = `asst-${crypto.randomUUID()}`;
    await insertAgent(session.userId, { vapiAssistantId: assistantId, name: `Desk ${assistantId.slice(-8)}` }, { store: "MIAMI" });
    await insertCallLogs(session.userId, 300);
    const from = await shardNameOf(session.userId);
    const to = otherShard(from);
    const sent: string[] = [];
    const send = async (id: string = crypto.randomUUID()) => {
      sent.push(id);
      const res = await call("/api/webhooks/vapi", {
        method: "POST",
        body: JSON.stringify(vapiReport(id, assistantId)),
        headers: { "content-type": "application/json", "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET },
      });
      expect(res.status).toBe(200);
      return id;
    };
    // A status update first and its report later: the same call written twice, across the move.
    const statusFirst = async () => {
      const id = crypto.randomUUID();
      sent.push(id);
      const res = await call("/api/webhooks/vapi", {
        method: "POST",
        body: JSON.stringify({ message: { type: "status-update", status: "in-progress", call: vapiCall(id, assistantId) } }),
        headers: { "content-type": "application/json", "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET },
      });
      expect(res.status).toBe(200);
      return id;
    };

    const first = await send();
    // Before the move, the webhook writes to the account's shard.
    expect(await shardDb(from).select({ id: callLogs.id }).from(callLogs).where(eq(callLogs.callId, first))).toHaveLength(1);
    const early = await statusFirst();
    const move = await startMove(deps(), { account: session.userId, shard: to, startedBy: "test" });
    const opts: StepOptions = { graceMs: 0, budget: 12 };
    const phasesSeen = new Set<string>();
    let state = (await db().select().from(shardMoves).where(eq(shardMoves.id, move.id)).get())!;
    let late: string | null = null;
    while (state.phase !== "done") {
      phasesSeen.add(state.phase);
      if (state.phase === "copying" || state.phase === "catching_up") await send();
      // After the switch, before the last catch-up from the old shard has begun.
      if (state.phase === "switched") {
        // A request that read the old shard's name before the switch writes there after it.
        await writeToOldShard(from, session.userId, assistantId, sent);
        if (!late) {
          late = await send();
          // The early call's report: the call was copied, now it ends on the new shard.
          await send(early);
        }
      }
      state = (await stepMove(deps(), move.id, opts))!;
    }
    await send();
    expect([...phasesSeen]).toEqual(expect.arrayContaining(["copying", "catching_up", "switched", "final"]));

    const ids = JSON.stringify(sent);
    const onNew = await shardDb(to)
      .select({ callId: callLogs.callId, status: callLogs.status })
      .from(callLogs)
      .where(sql`${callLogs.callId} IN (SELECT value FROM json_each(${ids}))`);
    expect(onNew.map((r) => r.callId).sort()).toEqual([...new Set(sent)].sort());
    expect(new Set(onNew.map((r) => r.callId)).size).toBe(onNew.length);
    // The early call's report, sent after the switch, ended it on the new shard.
    expect(onNew.find((r) => r.callId === early)?.status).toBe("ended");
    const onOld = await shardDb(from).select({ n: sql<number>`count(*)` }).from(callLogs).where(eq(callLogs.userId, session.userId));
    expect(onOld[0].n).toBe(0);
    const total = await shardDb(to).select({ n: sql<number>`count(*)` }).from(callLogs).where(eq(callLogs.userId, session.userId));
    expect(total[0].n).toBe(300 + new Set(sent).size);
    expect((await db().select({ shard: profiles.shard }).from(profiles).where(eq(profiles.id, session.userId)))[0].shard).toBe(to);
  });
});

/** A webhook write that read the account's old shard before the switch and lands there after it (the window the grace period covers). */
async function writeToOldShard(from: string, userId: string, assistantId: string, sent: string[]) {
  const callId = crypto.randomUUID();
  sent.push(callId);
  const now = new Date().toISOString();
  await insertRows(
    callLogs,
    [{ userId, callId, assistantId, direction: "inbound", status: "ended", startTime: now, createdAt: now, updatedAt: now }],
    shardDb(from),
  );
}

// Last in the file: the account it moves stays on the new shard with its ids, after every test that counts them.
describe("the call text in R2 across a move", () => {
  it("indexes a moved call whose transcript is in R2 (decision 077) on the new shard: the object stays under the account", async () => {
    const a = await seededAccount(3);
    const word = `zq${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;
    const [inR2] = await insertCallLogs(a.userId, 1, { transcript: null, summary: "No words here." });
    await putCallText(env.CALL_TEXT, a.userId, inR2.callId, { transcript: `Human: my ${word} whistles` });
    // Indexed on the old shard as its write would: the move takes the text from that index, not R2.
    await indexCalls(shardDb(await shardNameOf(a.userId)), env.CALL_TEXT, [inR2.callId]);
    const read: string[] = [];
    const counting = { ...deps(), text: { ...env.CALL_TEXT, put: env.CALL_TEXT.put.bind(env.CALL_TEXT), delete: env.CALL_TEXT.delete.bind(env.CALL_TEXT), list: env.CALL_TEXT.list.bind(env.CALL_TEXT), get: ((key: string) => (read.push(key), env.CALL_TEXT.get(key))) as R2Bucket["get"] } };
    const move = await startMove(counting, { account: a.userId, shard: a.to, startedBy: "test" });
    expect((await runMoveToEnd(counting, move.id, fast)).phase).toBe("done");
    expect(read).toEqual([]);
    const found = await searchCallLogs(shardDb(a.to), a.userId, word, 10, null);
    expect(found.results.map((r) => r.log.call_id)).toEqual([inR2.callId]);
    expect(await env.CALL_TEXT.head(callTextKey(a.userId, inR2.callId))).not.toBeNull();
  });
});
