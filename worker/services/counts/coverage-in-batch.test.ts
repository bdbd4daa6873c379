// A count sends its coverage reads and the statements built from the coverage this isolate read last
// in one batch (docs/decisions/054-coverage-in-the-count-batch.md): once warm, every count family makes
// one D1 round trip of its own, and a change of coverage (a dirty-day mark from a late event, a
// roll-up run, the hourly watermark moved back) is seen by the very next count, which then answers
// exactly as a count with no remembered coverage does.
import { env } from "cloudflare:workers";
import { STORES } from "@shared/constants";
import { nyDayBounds } from "@shared/ny-time";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { D1Timer } from "../../db/timed-d1";
import { appointments, callLogs } from "../../db/schema";
import { runHourlyRollups, runRollups } from "../../jobs/rollups";
import type { PlatformCall } from "../../providers/voice/port";
import { bruteCallLogCounts } from "../../test/brute-counts";
import { insertAgent, insertAircallCalls, insertAppointments, insertCallLogs, insertLeads, insertProfile } from "../../test/factories";
import { db, shardNameOf, shardOf, subscribe, testAccountShards, testShards } from "../../test/helpers";
import { clearRollups } from "../../test/rollup-tables";
import { recordCallEvent } from "../call-logs";
import { dailyReportRows } from "../daily-report";
import { callVolume, storeFunnel } from "../insights";
import { markDaysDirty } from "../rollup-dirty";
import { usageStats } from "../usage";
import { aircallCallCount, aircallOutboundAnswered, aircallStoreTransfers } from "./aircall";
import { appointmentCategoryCounts, appointmentCount, appointmentCountsByStore, appointmentStatusCounts } from "./appointments";
import { callLogCounts } from "./call-logs";
import { forgetCoverage } from "./engine";
import { leadSummary } from "./leads";
import { monthlyCalls, monthlyCallsOf } from "./month";
import { DbMeter } from "./meter";
import { eq } from "drizzle-orm";

// 16:40 in New York: the nightly run of today covers every day before it, the hourly run today's
// hours through 16:00 (20:00 UTC).
const NOW = new Date("2026-06-10T20:40:00.000Z");
const TODAY = "2026-06-10";
const PAST = "2026-06-03";
const ROLLED_FROM = "2026-05-20";
const WINDOW = { fromMs: Date.parse("2026-05-25T04:00:00Z"), toMs: NOW.getTime() };

let userId: string;
let assistantId: string;
let agentRef: { id: number; vapiAssistantId: string | null; store: string | null; type: "outbound" };
/** The account's shard (its calls and their roll-ups, decision 076) and its binding's name. */
let shardName: string;
let shardD1: D1Database;

/** A count's meters: the directory's (the store network) and the account's shard's (its calls). */
type Meters = { directory: DbMeter; shard: DbMeter };

/**
 * One count run through its own timer: its answer, its round trips (the two databases' batches sent
 * at once overlap), and the SQL of each batch each database was sent.
 */
async function measure<T>(count: (meters: Meters) => Promise<T>) {
  const timer = new D1Timer();
  const meters = { directory: new LoggedMeter(timer.wrap(env.DB)), shard: new LoggedMeter(timer.wrap(shardD1), shardName) };
  const result = await count(meters);
  return { result, trips: timer.trips, batches: [meters.directory.batches, meters.shard.batches] };
}

class LoggedMeter extends DbMeter {
  readonly #sql = new WeakMap<D1PreparedStatement, string>();
  readonly batches: string[][] = [];
  override statement(sql: string, params: unknown[] = []) {
    const s = super.statement(sql, params);
    this.#sql.set(s, `${sql} ${JSON.stringify(params)}`);
    return s;
  }
  override batch(statements: D1PreparedStatement[]) {
    this.batches.push(statements.map((s) => this.#sql.get(s) ?? "?"));
    return super.batch(statements);
  }
}

const isCoverageRead = (sql: string) => /FROM rollup_(state|dirty_days|hour_state) WHERE/.test(sql);
/** The figure statements of each database's last batch: what a count finally read, its coverage reads left out. */
const figuresRead = (batches: string[][][]) => batches.filter((b) => b.length > 0).flatMap((b) => b.at(-1)!.filter((s) => !isCoverageRead(s)));

const range = (startDate: string, endDate: string) => ({ dateFilterType: "range" as const, startDate, endDate, store: undefined, bookedBy: undefined, appointmentType: undefined });
const MONTH = range("2026-05-28", TODAY);
const callQuery = { startDate: MONTH.startDate, endDate: TODAY, callType: "Both" as const };
const aircallQuery = { ...MONTH, userName: undefined, numberName: undefined };

/** Every count family the dashboard and usage statistics ask for, each over the month to today. */
const FAMILIES: [string, (meters: Meters) => Promise<unknown>][] = [
  ["call-log counts", (m) => callLogCounts(m.shard, userId, callQuery)],
  ["call-log counts of one agent", (m) => callLogCounts(m.shard, userId, { ...callQuery, agent: assistantId })],
  ["call volume", (m) => callVolume(m.shard, userId, callQuery)],
  ["Aircall call count", (m) => aircallCallCount(m.directory, { ...aircallQuery, direction: "inbound" })],
  ["Aircall call count of a user", (m) => aircallCallCount(m.directory, { ...aircallQuery, userName: "Ana", direction: "outbound" })],
  ["Aircall outbound answered", (m) => aircallOutboundAnswered(m.directory, aircallQuery)],
  ["Aircall store transfers", (m) => aircallStoreTransfers(m.directory, aircallQuery)],
  ["appointment count", (m) => appointmentCount(m.directory, MONTH)],
  ["appointment status counts", (m) => appointmentStatusCounts(m.directory, MONTH)],
  ["appointment categories", (m) => appointmentCategoryCounts(m.directory, MONTH)],
  ["appointment categories of a store", (m) => appointmentCategoryCounts(m.directory, { ...MONTH, store: "MIAMI" })],
  ["appointments by store", (m) => appointmentCountsByStore(m.directory, MONTH)],
  ["lead summary", (m) => leadSummary(m.directory, MONTH)],
  // The calls on the shard and the agents and appointments in the directory, at once.
  ["store funnel", (m) => storeFunnel(m, userId, MONTH)],
  ["daily report rows", (m) => dailyReportRows(m.directory, { startDate: "2026-06-01", endDate: TODAY })],
  // What monthlyCalls counts for usage statistics and the plan's minute limit.
  ["usage statistics' month", (m) => monthlyCallsOf(m.shard, userId, NOW)],
];

/** The account's calls as stored on its shard. */
const shardCalls = async () => (await shardOf(userId)).select().from(callLogs).where(eq(callLogs.userId, userId));

/**
 * The round trips a count makes when it must read its coverage before its figures: 2. The store
 * funnel's two databases each make theirs at once, and the timer counts the time some query is in
 * flight: one database's second batch starts while the other's first is still out, so the two
 * chains count as one or two round trips, never more.
 */
function expectTwoTrips(name: string, trips: number) {
  if (name !== "store funnel") return expect(trips, name).toBe(2);
  expect(trips, name).toBeGreaterThanOrEqual(1);
  expect(trips, name).toBeLessThanOrEqual(2);
}

/** A count with no remembered coverage: the reference every warm count must equal. */
async function cold<T>(count: (meters: Meters) => Promise<T>) {
  forgetCoverage();
  return measure(count);
}

beforeAll(async () => {
  await clearRollups();
  userId = (await insertProfile()).id;
  shardName = await shardNameOf(userId);
  shardD1 = (await shardOf(userId)).$client;
  // Subscribed, as an account that reads its usage is: its plan is one lookup.
  await subscribe(userId);
  const agent = await insertAgent(userId, {}, { store: "NAPLES", type: "outbound" });
  assistantId = agent.vapiAssistantId!;
  agentRef = { id: agent.id, vapiAssistantId: assistantId, store: agent.store, type: "outbound" };
  await insertCallLogs(userId, 300, {}, { agent: agentRef, window: WINDOW });
  await insertAircallCalls(200, {}, { window: WINDOW });
  await insertAppointments(200, {}, { window: WINDOW, nowMs: NOW.getTime() });
  await insertLeads(80, {}, { window: WINDOW });
  await runRollups({ db: db(), now: NOW, shards: testShards() }, { backfillFrom: ROLLED_FROM });
  await runHourlyRollups({ db: db(), now: NOW, shards: testShards() });
}, 60_000);

describe("a count with the coverage this isolate read before", { timeout: 60_000 }, () => {
  it("makes one round trip of its own and answers as a cold count does, for every count family", async () => {
    for (const [name, count] of FAMILIES) {
      const first = await cold(count);
      // Cold: the coverage, then the figures built from it.
      expectTwoTrips(name, first.trips);
      const second = await measure(count);
      expect(second.result, name).toEqual(first.result);
      expect(second.trips, name).toBe(1);
      // The same figure statements, sent with the coverage reads that confirm them.
      expect(figuresRead(second.batches), name).toEqual(figuresRead(first.batches));
    }
  });

  it("shares the coverage across ranges and requests: the Appointments section's three counts and the other sections' make one trip each", async () => {
    forgetCoverage();
    await measure((m) => appointmentCount(m.directory, range("2026-06-01", "2026-06-01")));
    await measure((m) => callLogCounts(m.shard, userId, { ...callQuery, startDate: TODAY }));
    await measure((m) => aircallCallCount(m.directory, { ...aircallQuery, direction: "inbound", startDate: TODAY }));
    await measure((m) => leadSummary(m.directory, range(TODAY, TODAY)));
    for (const [name, count] of FAMILIES) expect((await measure(count)).trips, name).toBe(1);
    // Usage statistics: the month's count on the shard and the account's other figures in the directory, read side by side.
    const usage = await measure((m) => usageStats({ directory: createDb(m.directory.d1), shard: createDb(m.shard.d1), shardName }, userId, NOW));
    expect(usage.trips).toBe(1);
    expect(usage.result.callsThisMonth).toBe((await cold((m) => monthlyCalls(createDb(m.shard.d1), userId, NOW, shardName))).result.calls);
  });
});

describe("a change of coverage is seen by the very next count", { timeout: 60_000 }, () => {
  it("a late VAPI event for a rolled-up day marks it dirty: the next count reads that day live", async () => {
    const q = { ...callQuery, callType: "Outbound" as const };
    const warm = await measure((m) => callLogCounts(m.shard, userId, q));
    expect(warm.trips).toBe(1);
    // A report of a call on a past, rolled-up day, delivered now through the webhook's writer.
    const startedAt = new Date(Date.parse(nyDayBounds(PAST).startUtc) + 15 * 3_600_000).toISOString();
    const call: PlatformCall = {
      id: `call_late_${crypto.randomUUID()}`,
      assistantId,
      type: "outboundPhoneCall",
      status: "ended",
      endedReason: "customer-ended-call",
      customer: { number: "+15550100200" },
      phoneNumberId: null,
      startedAt,
      endedAt: new Date(Date.parse(startedAt) + 90_000).toISOString(),
      createdAt: startedAt,
      summary: null,
      transcript: null,
      recordingUrl: null,
      cost: 0.12,
      duration: 90,
    };
    await recordCallEvent(db(), testAccountShards(), env.CALL_TEXT, { id: `evt_${crypto.randomUUID()}`, provider: "vapi", type: "end-of-call-report", call });
    const next = await measure((m) => callLogCounts(m.shard, userId, q));
    const rows = await shardCalls();
    expect(next.result).toEqual(bruteCallLogCounts(rows, userId, q));
    expect(next.result.total).toBe(warm.result.total + 1);
    expect(next.trips).toBe(2);
    expect(figuresRead(next.batches)).toEqual(figuresRead((await cold((m) => callLogCounts(m.shard, userId, q))).batches));
    // The chart reads the same day live too.
    const volume = await measure((m) => callVolume(m.shard, userId, q));
    expect(volume.trips).toBe(1);
    expect(volume.result).toEqual((await cold((m) => callVolume(m.shard, userId, q))).result);
    expect(volume.result.days.find((day) => day.date === PAST)!.outbound.total).toBeGreaterThan(0);
  });

  it("a late event in a covered hour moves the watermark back: the next count of today reads those hours live", async () => {
    const q = { startDate: TODAY, endDate: TODAY, callType: "Both" as const };
    // The hourly run after the late event above: today's hours through 16:00 are covered again.
    await runHourlyRollups({ db: db(), now: NOW, shards: testShards() });
    await measure((m) => callLogCounts(m.shard, userId, q));
    const warm = await measure((m) => callLogCounts(m.shard, userId, q));
    expect(warm.trips).toBe(1);
    expect(figuresRead(warm.batches).some((s) => s.includes("FROM call_log_user_hourly r"))).toBe(true);
    const startedAt = "2026-06-10T15:20:00.000Z";
    const call: PlatformCall = {
      id: `call_hour_${crypto.randomUUID()}`,
      assistantId,
      type: "outboundPhoneCall",
      status: "ended",
      endedReason: "customer-ended-call",
      customer: { number: "+15550100201" },
      phoneNumberId: null,
      startedAt,
      endedAt: "2026-06-10T15:22:00.000Z",
      createdAt: startedAt,
      summary: null,
      transcript: null,
      recordingUrl: null,
      cost: 0.2,
      duration: 120,
    };
    await recordCallEvent(db(), testAccountShards(), env.CALL_TEXT, { id: `evt_${crypto.randomUUID()}`, provider: "vapi", type: "end-of-call-report", call });
    const next = await measure((m) => callLogCounts(m.shard, userId, q));
    const rows = await shardCalls();
    expect(next.result).toEqual(bruteCallLogCounts(rows, userId, q));
    expect(next.result.total).toBe(warm.result.total + 1);
    expect(figuresRead(next.batches)).toEqual(figuresRead((await cold((m) => callLogCounts(m.shard, userId, q))).batches));
  });

  it("a day marked dirty after late rows: each family's next count reads it live, as a cold count does", async () => {
    // Late rows of every source on a rolled-up day, not yet marked: the counts read that day's roll-ups.
    const late = { fromMs: Date.parse(nyDayBounds(PAST).startUtc) + 3_600_000, toMs: Date.parse(nyDayBounds(PAST).endUtc) - 3_600_000 };
    await insertCallLogs(userId, 15, {}, { agent: agentRef, window: late });
    await insertAircallCalls(20, {}, { window: late });
    await insertAppointments(20, {}, { window: late, nowMs: NOW.getTime() });
    await insertLeads(10, {}, { window: late });
    const d = db();
    const shard = await shardOf(userId);
    // The call logs' day is marked on the shard, the store network's in the directory.
    const marks = () => (["aircall", "appointments", "leads"] as const).flatMap((source) => markDaysDirty(d, source, [PAST]));
    let changed = 0;
    for (const [name, count] of FAMILIES) {
      for (const d1 of [env.DB, shardD1]) await d1.prepare("DELETE FROM rollup_dirty_days WHERE day = ?").bind(PAST).run();
      await measure(count);
      const warm = await measure(count);
      expect(warm.trips, name).toBe(1);
      const [first, ...rest] = marks();
      const [shardMark] = markDaysDirty(shard, "call_logs", [PAST]);
      await Promise.all([d.batch([first, ...rest]), shard.batch([shardMark])]);
      // The remembered coverage has the day rolled up; the batch's own coverage reads say otherwise.
      const next = await measure(count);
      expectTwoTrips(name, next.trips);
      const fresh = await cold(count);
      expect(next.result, name).toEqual(fresh.result);
      expect(figuresRead(next.batches), name).toEqual(figuresRead(fresh.batches));
      if (JSON.stringify(next.result) !== JSON.stringify(warm.result)) changed++;
    }
    // The late rows moved most answers (a few filters match none of them).
    expect(changed).toBeGreaterThan(FAMILIES.length - 4);
  });

  it("a roll-up run: each family's next count reads the coverage it left, as a cold count does", async () => {
    for (const [i, [name, count]] of FAMILIES.entries()) {
      await measure(count);
      expect((await measure(count)).trips, name).toBe(1);
      // A later night's run: it rolls up the days since the last one and moves the trusted days on.
      await runRollups({ db: db(), now: new Date(NOW.getTime() + (i + 1) * 86_400_000), shards: testShards() });
      const next = await measure(count);
      expectTwoTrips(name, next.trips);
      const fresh = await cold(count);
      expect(next.result, name).toEqual(fresh.result);
      expect(figuresRead(next.batches), name).toEqual(figuresRead(fresh.batches));
    }
    // Today's appointments are now read from the roll-ups: the new coverage is the one in use.
    const now = await measure((m) => appointmentCategoryCounts(m.directory, range(TODAY, TODAY)));
    expect(figuresRead(now.batches).some((sql) => sql.includes("FROM appointment_begin_all_daily r"))).toBe(true);
  });

  it("appointments changed on a rolled-up day and marked in the same batch are counted at once, per store too", async () => {
    const q = range(PAST, PAST);
    const before = await measure((m) => appointmentCountsByStore(m.directory, q));
    const d = db();
    await d.batch([
      d.insert(appointments).values({ externalId: `late-${crypto.randomUUID()}`, store: "TYLER", beginUtc: `${PAST}T15:00:00.000Z`, bookedAt: `${PAST}T14:00:00.000Z`, appointmentType: "Eye Exam", status: "Sold" }),
      ...markDaysDirty(d, "appointments", [PAST]),
    ]);
    const after = await measure((m) => appointmentCountsByStore(m.directory, q));
    const sold = (r: typeof before.result) => r.get("TYLER")?.categories["Reservations took (sold)"] ?? 0;
    expect(sold(after.result)).toBe(sold(before.result) + 1);
    expect(after.result).toEqual((await cold((m) => appointmentCountsByStore(m.directory, q))).result);
    for (const store of STORES) expect(after.result.get(store)?.categories.Total ?? 0).toBe((await appointmentCategoryCounts(new DbMeter(env.DB), { ...q, store })).Total);
  });
});
