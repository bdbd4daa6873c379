// The roll-up job and the counts built on it: reruns write identical rows, a late event is counted
// (live while its day is dirty, then in the roll-up), New York days hold across both DST changes,
// and no count statement scans a whole table.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { Bindings } from "../env";
import worker from "../index";
import { DAILY_CRON } from "./index";
import { like } from "drizzle-orm";
import { appointmentRecord, leadRecord } from "../../shared/schemas/ingest";
import { appointments, callLogs, leads } from "../db/schema";
import { ingestAppointments, ingestLeads } from "../services/ingest";
import { appointmentCategoryCounts } from "../services/counts/appointments";
import { aircallCallCount, aircallOptions, aircallOutboundAnswered, aircallStoreTransfers } from "../services/counts/aircall";
import { callLogCounts } from "../services/counts/call-logs";
import { leadSummary } from "../services/counts/leads";
import { DbMeter } from "../services/counts/meter";
import { appointmentOptions } from "../services/counts/appointments";
import { markDaysDirty } from "../services/rollup-dirty";
import { bruteAppointmentCounts, bruteCallLogCounts, bruteLeadSummary } from "../test/brute-counts";
import { RecordingMeter, fullScans } from "../test/explain";
import { insertAgent, insertAircallCalls, insertAppointments, insertCallLogs, insertLeads, insertProfile } from "../test/factories";
import { db, shardNameOf, shardOf, testShards } from "../test/helpers";
import { rollupInsertSql, runRollups } from "./rollups";
import { dayBounds } from "../services/counts/ny-days";
import { SPECS_BY_SOURCE } from "../services/counts/figures";

/** Every roll-up table, from the specs the job rebuilds, and the job's own bookkeeping. */
const ROLLUP_TABLES = [...Object.values(SPECS_BY_SOURCE).flatMap((specs) => specs.map((spec) => spec.rollupTable)), "rollup_state", "rollup_dirty_days"];

/** The directory and every shard, by binding name: each rolls up its own sources (decision 076). */
const DATABASES = { DB: env.DB, SHARD_0: env.SHARD_0, SHARD_1: env.SHARD_1 };

async function dump() {
  const out: Record<string, unknown[]> = {};
  for (const [name, d1] of Object.entries(DATABASES)) {
    for (const t of ROLLUP_TABLES) {
      if (!(await d1.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").bind(t).first())) continue;
      out[`${name}.${t}`] = (await d1.prepare(`SELECT * FROM ${t}`).all()).results.map((r) => JSON.stringify(r)).sort();
    }
  }
  return out;
}

/** Every roll-up job run here covers the directory and both shards, as the cron's does. */
const everywhere = (now: Date) => ({ db: db(), shards: testShards(), now });

/** A meter over the directory (the store network's counts). */
const meter = () => new DbMeter(env.DB);
/** A meter over the account's shard (its call counts). */
const shardMeter = async (userId: string) => {
  const name = await shardNameOf(userId);
  return new DbMeter(DATABASES[name as keyof typeof DATABASES], name);
};
/** The account's shard's D1 binding. */
const shardD1 = async (userId: string) => DATABASES[(await shardNameOf(userId)) as keyof typeof DATABASES];
const window = (from: string, to: string) => ({ fromMs: Date.parse(from), toMs: Date.parse(to) });

async function callAccount() {
  const user = await insertProfile();
  const agent = await insertAgent(user.id, {}, { store: "LARGO", type: "outbound" });
  return { user, ref: { id: agent.id, vapiAssistantId: agent.vapiAssistantId, store: agent.store, type: "outbound" } };
}

/** One call of the account at an exact instant, with an outcome that is easy to count. */
const callAt = (userId: string, startTime: string, endedReason = "customer-ended-call") =>
  insertCallLogs(userId, 1, { startTime, endedReason, direction: "outbound", status: "ended" });

describe("roll-up job", { timeout: 30_000 }, () => {
  it("writes byte-identical rows when run again, and counts from roll-ups equal the brute-force count", async () => {
    const { user, ref } = await callAccount();
    const w = window("2026-01-05T00:00:00Z", "2026-01-25T00:00:00Z");
    const rows = await insertCallLogs(user.id, 300, {}, { agent: ref, window: w });
    await insertAircallCalls(200, {}, { window: w });
    await insertAppointments(200, {}, { window: w, nowMs: Date.parse("2026-01-20T00:00:00Z") });
    await insertLeads(100, {}, { window: w });
    const now = new Date("2026-01-28T12:00:00Z");
    const first = await runRollups(everywhere(now), { backfillFrom: "2026-01-01" });
    expect(first.map((r) => [r.source, r.fromDay, r.untilDay])).toEqual([
      ["call_logs", "2026-01-01", "2026-01-28"],
      ["call_logs", "2026-01-01", "2026-01-28"],
      ["aircall", "2026-01-01", "2026-01-28"],
      ["appointments", "2026-01-01", "2026-01-28"],
      ["leads", "2026-01-01", "2026-01-28"],
    ]);
    const once = await dump();
    const own = await shardNameOf(user.id);
    expect(once[`${own}.call_log_daily`].length).toBeGreaterThan(10);
    expect(once[`${own}.call_log_user_daily`].length).toBeGreaterThan(10);
    // The directory holds the store network's roll-ups and no account's calls.
    expect(once["DB.call_log_daily"]).toEqual([]);
    expect(once["DB.appointment_begin_daily"].length).toBeGreaterThan(10);
    expect(once["DB.appointment_begin_all_daily"].length).toBeGreaterThan(10);
    expect(once["DB.appointment_upcoming_all_daily"].length).toBeGreaterThan(10);
    // The all-stores tables hold the per-store tables summed by day.
    const summed = async (table: string, columns: string[], keys: string[]) =>
      (
        await env.DB.prepare(`SELECT ${[...keys, ...columns.map((c) => `sum(${c}) AS ${c}`)].join(", ")} FROM ${table} GROUP BY ${keys.join(", ")} ORDER BY ${keys.join(", ")}`).all()
      ).results;
    const beginColumns = ["total", "scheduled", "visited", "sold", "no_show", "cancelled", "virtual_scheduled", "virtual_no_call", "virtual_no_answer", "virtual_answered", "virtual_purchased"];
    expect(await summed("appointment_begin_all_daily", beginColumns, ["day"])).toEqual(await summed("appointment_begin_store_daily", beginColumns, ["day"]));
    const bookedColumns = ["booked", "booked_future", "inbound_booked", "outbound_booked"];
    expect(await summed("appointment_booked_all_daily", bookedColumns, ["day"])).toEqual(await summed("appointment_booked_store_daily", bookedColumns, ["day"]));
    expect(await summed("appointment_upcoming_all_daily", ["scheduled"], ["day", "begin_day"])).toEqual(await summed("appointment_upcoming_daily", ["scheduled"], ["day", "begin_day"]));
    await runRollups(everywhere(now));
    await runRollups(everywhere(now), { backfillFrom: "2026-01-01" });
    expect(JSON.stringify(await dump())).toBe(JSON.stringify(once));

    // The roll-ups answer Jan 1-24 (until - 3 days); the rest of the range is live. Without an agent
    // the per-account table answers, with one the per-assistant table.
    for (const [startDate, endDate] of [["2026-01-01", "2026-01-31"], ["2026-01-06", "2026-01-10"], ["2026-01-24", "2026-01-26"]]) {
      for (const agent of [undefined, ref.vapiAssistantId!]) {
        const q = { startDate, endDate, callType: "Both" as const, agent };
        expect(await callLogCounts(await shardMeter(user.id), user.id, q)).toEqual(bruteCallLogCounts(rows, user.id, q));
      }
    }
  });

  it("corrects a late event: live while its day is dirty, in the roll-up after the next run; call logs and Aircall trust every rolled-up day", async () => {
    const { user } = await callAccount();
    await callAt(user.id, "2026-02-03T15:00:00Z");
    const now = new Date("2026-02-12T12:00:00Z");
    await runRollups(everywhere(now), { backfillFrom: "2026-02-01" });
    const q = { startDate: "2026-02-03", endDate: "2026-02-03", callType: "Outbound" as const };
    expect((await callLogCounts(await shardMeter(user.id), user.id, q)).total).toBe(1);

    // A call for Feb 3 (rolled up) arrives late, with its day marked dirty in the same batch.
    // The account's calls and their dirty marks are on its shard (decision 076).
    const d = await shardOf(user.id);
    const insert = d.insert(callLogs).values({
      userId: user.id, callId: crypto.randomUUID(), direction: "outbound", status: "ended", endedReason: "voicemail", startTime: "2026-02-03T18:00:00.000Z",
    });
    await d.batch([insert, ...markDaysDirty(d, "call_logs", ["2026-02-03"])]);
    expect(markDaysDirty(d, "call_logs", [])).toEqual([]);
    // No job run yet: the dirty day is read live, so the count is already right.
    expect(await callLogCounts(await shardMeter(user.id), user.id, q)).toEqual({ total: 2, connected: 1, voicemail: 1, forwarded: 0 });
    for (const table of ["call_log_daily", "call_log_user_daily"]) {
      const staleRow = await (await shardD1(user.id)).prepare(`SELECT total FROM ${table} WHERE user_id = ? AND day = '2026-02-03'`).bind(user.id).first();
      expect(staleRow, table).toEqual({ total: 1 });
    }

    await runRollups(everywhere(new Date("2026-02-13T12:00:00Z")));
    for (const d1 of Object.values(DATABASES)) expect(await d1.prepare("SELECT count(*) AS n FROM rollup_dirty_days").first()).toEqual({ n: 0 });
    for (const table of ["call_log_daily", "call_log_user_daily"]) {
      const fixedRow = await (await shardD1(user.id)).prepare(`SELECT total, voicemail FROM ${table} WHERE user_id = ? AND day = '2026-02-03'`).bind(user.id).first();
      expect(fixedRow, table).toEqual({ total: 2, voicemail: 1 });
    }
    expect((await callLogCounts(await shardMeter(user.id), user.id, q)).total).toBe(2);

    // Call logs trust every rolled-up day (their writers all mark): yesterday is read from the
    // roll-up, so a late call for it is counted once it is marked, as every writer marks it.
    const recent = { ...q, startDate: "2026-02-10", endDate: "2026-02-13" };
    const yesterday = d.insert(callLogs).values({
      userId: user.id, callId: crypto.randomUUID(), direction: "outbound", status: "ended", startTime: "2026-02-12T16:00:00.000Z",
    });
    await yesterday;
    expect((await callLogCounts(await shardMeter(user.id), user.id, recent)).total).toBe(0);
    const [mark] = markDaysDirty(d, "call_logs", ["2026-02-12"]);
    await mark;
    expect((await callLogCounts(await shardMeter(user.id), user.id, recent)).total).toBe(1);

    // So does Aircall (decision 055): a late call for yesterday counts once its day is marked, as
    // the webhook and the backfill mark it.
    const aircallDay = { startDate: "2026-02-12", endDate: "2026-02-12", dateFilterType: "range" as const, userName: undefined, numberName: undefined };
    await insertAircallCalls(3, { direction: "inbound" }, { day: "2026-02-12" });
    expect(await aircallCallCount(meter(), { ...aircallDay, direction: "inbound" })).toBe(0);
    const [aircallMark] = markDaysDirty(db(), "aircall", ["2026-02-12"]);
    await aircallMark;
    expect(await aircallCallCount(meter(), { ...aircallDay, direction: "inbound" })).toBe(3);
  });

  it("places calls on New York days across both daylight-saving changes, live and rolled up", async () => {
    const { user } = await callAccount();
    const instants = [
      "2026-03-08T04:59:59.000Z", // Mar 7, 23:59:59 EST
      "2026-03-08T05:00:00.000Z", // Mar 8, 00:00 EST: the 23-hour day begins
      "2026-03-09T03:59:59.000Z", // Mar 8, 23:59:59 EDT: still the 23-hour day
      "2026-03-09T04:00:00.000Z", // Mar 9, 00:00 EDT
      "2026-11-01T03:59:59.000Z", // Oct 31, 23:59:59 EDT
      "2026-11-01T04:00:00.000Z", // Nov 1, 00:00 EDT: the 25-hour day begins
      "2026-11-02T04:59:59.000Z", // Nov 1, 23:59:59 EST: still the 25-hour day
      "2026-11-02T05:00:00.000Z", // Nov 2, 00:00 EST
    ];
    for (const t of instants) await callAt(user.id, t);
    const expected: Record<string, number> = { "2026-03-07": 1, "2026-03-08": 2, "2026-03-09": 1, "2026-10-31": 1, "2026-11-01": 2, "2026-11-02": 1 };
    const count = async (day: string) =>
      (await callLogCounts(await shardMeter(user.id), user.id, { startDate: day, endDate: day, callType: "Outbound" })).total;
    const check = async () => {
      for (const [day, n] of Object.entries(expected)) expect(await count(day), day).toBe(n);
    };
    await check(); // live (this file's roll-ups stop in February)
    await runRollups(everywhere(new Date("2026-11-10T12:00:00Z")), { backfillFrom: "2026-03-01" });
    const rolled = await (await shardD1(user.id)).prepare("SELECT day, total FROM call_log_daily WHERE user_id = ? ORDER BY day").bind(user.id).all();
    expect(Object.fromEntries(rolled.results.map((r) => [r.day, r.total]))).toEqual(expected);
    await check(); // from the roll-ups
  });

  it("plans every count statement without a full scan of a table", async () => {
    const { user } = await callAccount();
    await insertCallLogs(user.id, 20, {}, { day: "2026-11-09" });
    await runRollups(everywhere(new Date("2026-11-10T12:00:00Z")), { backfillFrom: "2026-09-20" });
    // The account's counts are planned on its shard, the store network's on the directory.
    const calls = new RecordingMeter(await shardD1(user.id));
    const m = new RecordingMeter();
    // A range that is part roll-up (to Nov 6), part dirty, part live.
    for (const mark of markDaysDirty(await shardOf(user.id), "call_logs", ["2026-11-03"])) await mark;
    for (const mark of markDaysDirty(db(), "appointments", ["2026-11-03"])) await mark;
    const range = { dateFilterType: "range" as const, startDate: "2026-10-01", endDate: "2026-11-10" };
    await callLogCounts(calls, user.id, { ...range, callType: "Both" });
    await callLogCounts(calls, user.id, { ...range, callType: "Outbound", agent: "asst-x" });
    await appointmentCategoryCounts(m, { ...range, store: "MIAMI", bookedBy: "Online Booking", appointmentType: undefined });
    await appointmentCategoryCounts(m, { ...range, store: undefined, bookedBy: undefined, appointmentType: undefined });
    await aircallCallCount(m, { ...range, direction: "inbound", userName: "Maria Lopez", numberName: undefined });
    await aircallOutboundAnswered(m, { ...range, userName: undefined, numberName: "Miami" });
    await aircallStoreTransfers(m, { ...range, userName: undefined, numberName: undefined });
    await leadSummary(m, { ...range, store: "OKC" });
    await leadSummary(m, { ...range, store: undefined });
    await aircallOptions(m);
    await appointmentOptions(m);
    const plans = [...(await calls.plans()), ...(await m.plans())];
    const scans = plans.flatMap((p) => fullScans(p.plan).map((line) => `${line} in ${p.sql}`));
    expect(scans).toEqual([]);
    // Live parts walk the day list and read one time range per day; roll-up parts read a day range.
    const live = plans.filter((p) => p.sql.startsWith("WITH d("));
    const rolled = plans.filter((p) => /FROM \w+_daily r/.test(p.sql));
    expect(live.length).toBeGreaterThan(5);
    expect(rolled.length).toBeGreaterThan(5);
    for (const p of live) expect(p.plan.join("\n"), p.sql).toMatch(/SEARCH r USING (COVERING )?INDEX \w+ \((\w+=\? AND )*\w+>\? AND \w+<\?\)/);
    for (const p of rolled) expect(p.plan.join("\n"), p.sql).toMatch(/SEARCH r USING (COVERING )?INDEX \w+ \((\w+=\? AND )*day>\? AND day<\?\)/);
  });

  it("reads the call logs of the days it rolls up from an index alone", async () => {
    for (const spec of SPECS_BY_SOURCE.call_logs) {
      const bounds = JSON.stringify(dayBounds(["2026-11-08", "2026-11-09"]));
      const { results } = await env.SHARD_0.prepare(`EXPLAIN QUERY PLAN ${rollupInsertSql(spec)}`).bind(bounds).all<{ detail: string }>();
      expect(results.map((r) => r.detail).join(" | "), spec.rollupTable).toMatch(/SEARCH r USING COVERING INDEX call_logs_time_idx \(start_time>\? AND start_time<\?\)/);
    }
  });

  it("runs on the daily cron through scheduled(), and logs an ended reason decision 009 does not place", async () => {
    const { user } = await callAccount();
    await callAt(user.id, "2026-12-02T15:00:00Z", "assistant-fell-asleep");
    await callAt(user.id, "2026-12-02T16:00:00Z", "pipeline-error-openai-llm-failed");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: DAILY_CRON, scheduledTime: Date.parse("2026-12-04T10:15:00Z") }), env as unknown as Bindings, ctx);
    await waitOnExecutionContext(ctx);
    // Each shard rolled up its call logs; the directory its store network.
    for (const d1 of [env.SHARD_0, env.SHARD_1]) expect(await d1.prepare("SELECT until_day FROM rollup_state WHERE source = 'call_logs'").first()).toEqual({ until_day: "2026-12-04" });
    expect(await env.DB.prepare("SELECT until_day FROM rollup_state WHERE source = 'leads'").first()).toEqual({ until_day: "2026-12-04" });
    const lines = warn.mock.calls.map((c) => JSON.parse(String(c[0])));
    warn.mockRestore();
    expect(lines.filter((l) => /unmapped VAPI ended reasons/.test(l.message)).map((l) => l.reasons)).toEqual([["assistant-fell-asleep"]]);
  });
  // Last: its run reaches May, past the February roll-ups the tests above rely on.
  it("appointments and leads trust every rolled-up day: ingestion marks the days it changes, so yesterday's late records and a reschedule count at once", async () => {
    const w = window("2026-05-04T00:00:00Z", "2026-05-19T00:00:00Z");
    await insertAppointments(120, {}, { window: w, nowMs: Date.parse("2026-05-15T00:00:00Z") });
    await insertLeads(60, {}, { window: w });
    await runRollups(everywhere(new Date("2026-05-20T12:00:00Z")), { backfillFrom: "2026-05-01" });
    const range = { startDate: "2026-05-10", endDate: "2026-05-19" }; // yesterday is the 19th: rolled up and trusted
    const apptQ = { ...range, dateFilterType: "range" as const, store: undefined, bookedBy: undefined, appointmentType: undefined };
    const check = async () => {
      const [appts, leadRows] = await Promise.all([db().select().from(appointments), db().select().from(leads)]);
      expect(await appointmentCategoryCounts(meter(), apptQ)).toEqual(bruteAppointmentCounts(appts, range).categories);
      expect(await leadSummary(meter(), { ...range, dateFilterType: "range", store: undefined })).toEqual(bruteLeadSummary(leadRows, range));
    };
    await check();
    // No job run in between: the ingested days are dirty, so they are read live until it runs.
    const [moved] = await db().select().from(appointments).where(like(appointments.beginUtc, "2026-05-1%")).limit(1);
    const record = (id: string, begin: string, booked: string, status = "Scheduled") =>
      appointmentRecord.parse({
        external_id: id, store: "MIAMI", begin_utc: begin, booked_at: booked, booked_by: "AI Receptionist",
        appointment_type: "Eye Exam", status, booking_channel: "outbound", customer_name: "Late Record", customer_phone: "(305) 555-0100",
      });
    await ingestAppointments(db(), [
      record("late-yesterday", "2026-05-19T15:00:00Z", "2026-05-19T13:00:00Z", "Visited"),
      record("late-upcoming", "2026-05-28T15:00:00Z", "2026-05-18T13:00:00Z"),
      // An existing appointment moved to another rolled-up day, its status changed too.
      record(moved.externalId, "2026-05-19T16:00:00Z", moved.bookedAt, "Sold"),
    ]);
    await ingestLeads(db(), [leadRecord.parse({ external_id: "late-lead", store: "TULSA", submitted_at: "2026-05-19T14:00:00Z", email: "late@example.com" })]);
    await check();
    await runRollups(everywhere(new Date("2026-05-20T13:00:00Z")));
    await check();
  });

});
