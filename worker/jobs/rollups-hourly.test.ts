// The intraday roll-up (docs/decisions/034-intraday-rollups.md): today's finished hours are read
// from call_log_hourly / call_log_user_hourly up to the watermark and only the rest of the day live;
// every writer of a call in a covered hour moves the watermark back in its own batch, so a count is
// exact whenever it is asked; a rerun writes the same rows.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { VOICEMAIL_ENDED_REASONS } from "@shared/call-outcomes";
import { nyDayBounds } from "@shared/ny-time";
import { eq } from "drizzle-orm";
import { callLogs } from "../db/schema";
import type { PlatformCall } from "../providers/voice/port";
import { recordCallEvent } from "../services/call-logs";
import { callLogCounts } from "../services/counts/call-logs";
import { readCoverage } from "../services/counts/engine";
import { monthlyCalls } from "../services/counts/month";
import { adoptOrphanCalls } from "../services/orphan-calls";
import { bruteCallLogCounts } from "../test/brute-counts";
import { RecordingMeter, fullScans } from "../test/explain";
import { insertAgent, insertCallLogs, insertProfile } from "../test/factories";
import { db, shardNameOf, shardOf, testAccountShards, testShards } from "../test/helpers";
import { clearRollups, dumpRollups } from "../test/rollup-tables";
import { hourStart, runHourlyRollups, runRollups } from "./rollups";

// 16:40 in New York (EDT): the run rolls up the hours that ended by 16:25, so through 16:00 (20:00 UTC).
const NOW = new Date("2026-06-10T20:40:00.000Z");
const TODAY = "2026-06-10";
const THROUGH = "2026-06-10T20:00:00.000Z";
const ctx = { db: db(), shards: testShards(), now: NOW };

let userId: string;
let assistantId: string;
let agentRef: { id: number; vapiAssistantId: string | null; store: string | null; type: "outbound" };
/** The account's shard: its calls, their roll-ups and the watermark (decision 076). */
let shardD1: D1Database;

const d1Of = async (id: string) => (env as unknown as Record<string, D1Database>)[await shardNameOf(id)];
const rowsOf = async (id: string) => (await shardOf(id)).select().from(callLogs).where(eq(callLogs.userId, id));
const state = (d1 = shardD1) => d1.prepare("SELECT from_at, through_at FROM rollup_hour_state WHERE source = 'call_logs'").first<{ from_at: string; through_at: string }>();
const todayQuery = (callType: "Outbound" | "Inbound" | "Both", agent?: string) => ({ startDate: TODAY, endDate: TODAY, callType, agent });
/** A meter recording the statements of a count on the account's shard. */
const shardMeter = () => new RecordingMeter(shardD1);

/** Rows D1 reads for a count, from its recorded statements run again. */
async function rowsRead(run: (meter: RecordingMeter) => Promise<unknown>) {
  const meter = shardMeter();
  await run(meter);
  let read = 0;
  for (const { sql, params } of meter.recorded) read += (await shardD1.prepare(sql).bind(...params).all()).meta.rows_read;
  return { read, meter };
}

beforeAll(async () => {
  await clearRollups();
  userId = (await insertProfile()).id;
  shardD1 = await d1Of(userId);
  const agent = await insertAgent(userId, {}, { store: "NAPLES", type: "outbound" });
  assistantId = agent.vapiAssistantId!;
  agentRef = { id: agent.id, vapiAssistantId: assistantId, store: agent.store, type: "outbound" };
  // Yesterday, today up to now, and the rest of today (scheduled calls, as the seed has them).
  await insertCallLogs(userId, 300, {}, { agent: agentRef, window: { fromMs: Date.parse("2026-06-01T04:00:00Z"), toMs: Date.parse("2026-06-09T04:00:00Z") } });
  await insertCallLogs(userId, 400, {}, { agent: agentRef, window: { fromMs: Date.parse("2026-06-09T04:00:00Z"), toMs: NOW.getTime() } });
  await insertCallLogs(userId, 20, {}, { agent: agentRef, window: { fromMs: NOW.getTime(), toMs: Date.parse("2026-06-11T03:59:00Z") } });
  await runRollups(ctx, { backfillFrom: "2026-06-01" });
  await runHourlyRollups(ctx);
}, 60_000);

describe("intraday roll-up", () => {
  it("covers yesterday's start to the last hour that ended HOUR_SETTLE_MINUTES ago", async () => {
    expect(await state()).toEqual({ from_at: nyDayBounds("2026-06-09").startUtc, through_at: THROUGH });
    expect(hourStart(Date.parse("2026-06-10T20:59:59.999Z"))).toBe("2026-06-10T20:00:00.000Z");
    const coverage = await readCoverage(shardMeter(), "call_logs", TODAY, TODAY);
    expect(coverage.hourly).toEqual({ days: [TODAY], through: THROUGH });
    expect(coverage.live).toEqual([[TODAY, THROUGH, nyDayBounds(TODAY).endUtc]]);
  });

  it("today's counts equal a brute-force count and read the calls after the watermark only", async () => {
    const rows = await rowsOf(userId);
    for (const [callType, agent] of [["Both", undefined], ["Outbound", undefined], ["Outbound", assistantId], ["Inbound", assistantId]] as const) {
      const q = todayQuery(callType, agent);
      const { read, meter } = await rowsRead((m) => callLogCounts(m, userId, q));
      expect(await callLogCounts(shardMeter(), userId, q)).toEqual(bruteCallLogCounts(rows, userId, q));
      // The calls of today before 16:00 New York are many more than the rows read: hourly rows and the calls after it.
      const before = rows.filter((r) => r.startTime >= nyDayBounds(TODAY).startUtc && r.startTime < THROUGH).length;
      const after = rows.filter((r) => r.startTime >= THROUGH && r.startTime < nyDayBounds(TODAY).endUtc).length;
      expect(before).toBeGreaterThan(100);
      expect(read, `${callType} ${agent ?? ""}`).toBeLessThan(after + 60);
      for (const { plan } of await meter.plans()) expect(fullScans(plan)).toEqual([]);
    }
    // The month of usage statistics: the daily roll-ups, the hourly rows and the live tail.
    const month = await monthlyCalls(await shardOf(userId), userId, NOW, await shardNameOf(userId));
    const inJune = rows.filter((r) => r.startTime >= nyDayBounds("2026-06-01").startUtc && r.startTime < nyDayBounds("2026-06-30").endUtc);
    expect(month).toEqual({ calls: inJune.filter((r) => r.direction !== "web").length, duration_seconds: inJune.reduce((s, r) => s + r.duration, 0) });
  });

  it("a late event for a call of a covered hour moves the watermark back in its batch: the count is exact at once", async () => {
    const [call] = (await rowsOf(userId)).filter((r) => r.startTime >= "2026-06-10T15:00" && r.startTime < "2026-06-10T16:00" && r.endedReason !== VOICEMAIL_ENDED_REASONS[0]);
    const platformCall: PlatformCall = {
      id: call.callId,
      assistantId,
      type: "outboundPhoneCall",
      status: "ended",
      endedReason: VOICEMAIL_ENDED_REASONS[0],
      customer: { number: call.phoneNumber },
      phoneNumberId: null,
      startedAt: call.startTime,
      endedAt: call.endTime,
      createdAt: call.startTime,
      summary: null,
      transcript: null,
      recordingUrl: null,
      cost: null,
      duration: call.duration,
    };
    await recordCallEvent(db(), testAccountShards(), env.CALL_TEXT, { id: `evt_${crypto.randomUUID()}`, provider: "vapi", type: "end-of-call-report", call: platformCall });
    const rows = await rowsOf(userId);
    for (const q of [todayQuery("Outbound"), todayQuery("Outbound", assistantId)]) {
      expect(await callLogCounts(shardMeter(), userId, q)).toEqual(bruteCallLogCounts(rows, userId, q));
    }
    expect((await state())!.through_at).toBe("2026-06-10T15:00:00.000Z");
    // The next run recomputes from there: the same rows as a run from nothing.
    await runHourlyRollups(ctx);
    expect((await state())!.through_at).toBe(THROUGH);
    const rerun = await dumpRollups();
    await shardD1.prepare("DELETE FROM rollup_hour_state").run();
    await runHourlyRollups(ctx);
    expect(await dumpRollups()).toEqual(rerun);
    expect(await callLogCounts(shardMeter(), userId, todayQuery("Outbound"))).toEqual(bruteCallLogCounts(rows, userId, todayQuery("Outbound")));
  });

  it("adopting ownerless calls of covered hours moves the watermark back to the first of them", async () => {
    const other = (await insertProfile()).id;
    const orphanAssistant = `asst_orphan_${crypto.randomUUID()}`;
    await insertCallLogs(null, 30, { assistantId: orphanAssistant, direction: "outbound" }, { window: { fromMs: Date.parse("2026-06-10T13:00:00Z"), toMs: Date.parse("2026-06-10T19:00:00Z") } });
    await runHourlyRollups(ctx);
    const agent = await insertAgent(other, { vapiAssistantId: orphanAssistant }, { store: "TYLER", type: "outbound" });
    expect(await adoptOrphanCalls(db(), await shardOf(other), env.CALL_TEXT, orphanAssistant, { userId: other, agentId: agent.id, store: agent.store })).toBe(30);
    const rows = await rowsOf(other);
    expect(rows).toHaveLength(30);
    expect(await callLogCounts(new RecordingMeter(await d1Of(other)), other, todayQuery("Both"))).toEqual(bruteCallLogCounts(rows, other, todayQuery("Both")));
    expect((await state(await d1Of(other)))!.through_at <= "2026-06-10T13:00:00.000Z").toBe(true);
  });

  it("the next day keeps yesterday's hours and drops the day before's", async () => {
    const tomorrow = new Date(NOW.getTime() + 86_400_000);
    await runHourlyRollups({ ...ctx, now: tomorrow });
    const hours = await shardD1.prepare("SELECT min(hour) AS first, max(hour) AS last FROM call_log_hourly").first<{ first: string; last: string }>();
    expect(hours!.first >= nyDayBounds(TODAY).startUtc).toBe(true);
    expect(await state()).toEqual({ from_at: nyDayBounds(TODAY).startUtc, through_at: "2026-06-11T20:00:00.000Z" });
  });
});
