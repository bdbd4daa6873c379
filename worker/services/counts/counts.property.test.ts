// Property: for random ranges and filters, every count equals a brute-force count of decision 009
// over the same seeded rows, whether the days come from roll-ups, dirty days or live queries.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { CALL_TYPES, STORE_NUMBER_NAMES, STORES } from "@shared/constants";
import { beforeAll, describe, expect, it } from "vitest";
import { APPOINTMENT_TYPES, CALL_CENTRE_STAFF } from "../../db/factories";
import { runHourlyRollups, runRollups } from "../../jobs/rollups";
import { bruteAircallCounts, bruteAppointmentCounts, bruteCallLogCounts, bruteLeadSummary } from "../../test/brute-counts";
import { insertAgent, insertAircallCalls, insertAppointments, insertCallLogs, insertLeads, insertProfile } from "../../test/factories";
import { db, shardOf, testShards } from "../../test/helpers";
import { callHoursChanged, markDaysDirty } from "../rollup-dirty";
import { inArray } from "drizzle-orm";
import { eq } from "drizzle-orm";
import { callLogs, profiles } from "../../db/schema";
import type { Database } from "../../db/client";
import { aircallCallCount, aircallOutboundAnswered, aircallStoreTransfers } from "./aircall";
import { appointmentCategoryCounts, appointmentStatusCounts } from "./appointments";
import { callLogCounts } from "./call-logs";
import { leadSummary } from "./leads";
import { DbMeter } from "./meter";
import { addDays } from "@shared/ny-time";

// Two windows, each across a daylight-saving change; the roll-ups cover Feb 20 - Nov 1.
const WINDOWS = [
  { fromMs: Date.parse("2026-02-25T00:00:00Z"), toMs: Date.parse("2026-03-16T00:00:00Z") },
  { fromMs: Date.parse("2026-10-24T00:00:00Z"), toMs: Date.parse("2026-11-08T00:00:00Z") },
];
const NOW = new Date("2026-11-04T12:00:00Z");

type Seeded = {
  a: string;
  b: string;
  assistants: string[];
  calls: Awaited<ReturnType<typeof insertCallLogs>>;
  aircall: Awaited<ReturnType<typeof insertAircallCalls>>;
  appointments: Awaited<ReturnType<typeof insertAppointments>>;
  leads: Awaited<ReturnType<typeof insertLeads>>;
};
let seeded: Seeded;
/** Each account's shard: a on SHARD_0, b on SHARD_1, so the counts cross shards. */
const shards = new Map<string, Database>();

beforeAll(async () => {
  const a = (await insertProfile()).id;
  const b = (await insertProfile()).id;
  await db().update(profiles).set({ shard: "SHARD_0" }).where(eq(profiles.id, a));
  await db().update(profiles).set({ shard: "SHARD_1" }).where(eq(profiles.id, b));
  for (const id of [a, b]) shards.set(id, await shardOf(id));
  const out = await insertAgent(a, {}, { store: "NAPLES", type: "outbound" });
  const inb = await insertAgent(a, {}, { store: "NAPLES", type: "inbound" });
  const other = await insertAgent(b, {}, { store: "TYLER", type: "outbound" });
  const ref = (g: typeof out) => ({ id: g.id, vapiAssistantId: g.vapiAssistantId, store: g.store, type: g.type! });
  const s: Seeded = { a, b, assistants: [out.vapiAssistantId!, inb.vapiAssistantId!], calls: [], aircall: [], appointments: [], leads: [] };
  for (const window of WINDOWS) {
    s.calls.push(...(await insertCallLogs(a, 700, {}, { agent: ref(out), window })));
    s.calls.push(...(await insertCallLogs(a, 400, {}, { agent: ref(inb), window })));
    s.calls.push(...(await insertCallLogs(b, 300, {}, { agent: ref(other), window })));
    s.aircall.push(...(await insertAircallCalls(500, {}, { window })));
    s.appointments.push(...(await insertAppointments(500, {}, { window, nowMs: NOW.getTime() })));
    s.leads.push(...(await insertLeads(250, {}, { window })));
  }
  await runRollups({ db: db(), now: NOW, shards: testShards() }, { backfillFrom: "2026-02-20" });
  // Today's finished hours too (docs/decisions/034-intraday-rollups.md): Nov 3 05:00 to Nov 4 11:00 UTC.
  await runHourlyRollups({ db: db(), now: NOW, shards: testShards() });

  // Late events for rolled-up days, each with its day marked dirty in the same batch: the counts
  // must read those days live until the next run.
  const late = { fromMs: Date.parse("2026-03-08T06:00:00Z"), toMs: Date.parse("2026-03-09T03:00:00Z") };
  const lateCalls = await insertCallLogs(a, 40, {}, { agent: ref(out), window: late });
  const lateAppointments = await insertAppointments(30, { bookedAt: "2026-03-02T15:00:00.000Z" }, { window: late, nowMs: NOW.getTime() });
  const lateAircall = await insertAircallCalls(30, {}, { window: late });
  const lateLeads = await insertLeads(20, {}, { window: late });
  const d = db();
  const shardA = shards.get(a)!;
  const [mark] = markDaysDirty(shardA, "call_logs", ["2026-03-08"]);
  await shardA.batch([mark]);
  const [first, ...rest] = [
    ...markDaysDirty(d, "appointments", ["2026-03-08", "2026-03-02"]),
    ...markDaysDirty(d, "aircall", ["2026-03-08"]),
    ...markDaysDirty(d, "leads", ["2026-03-08"]),
  ];
  await d.batch([first, ...rest]);
  // And late calls in covered hours of today, written with the statement every call writer adds.
  const lateToday = await insertCallLogs(a, 25, {}, { agent: ref(out), window: { fromMs: Date.parse("2026-11-04T06:00:00Z"), toMs: Date.parse("2026-11-04T10:00:00Z") } });
  await shardA.batch([callHoursChanged(shardA, inArray(callLogs.id, lateToday.map((c) => c.id)))]);
  s.calls.push(...lateCalls, ...lateToday);
  s.appointments.push(...lateAppointments);
  s.aircall.push(...lateAircall);
  s.leads.push(...lateLeads);
  seeded = s;
}, 120_000);

const DAYS = (() => {
  const days: string[] = [];
  for (let d = "2026-02-15"; d <= "2026-11-12"; d = addDays(d, 1)) days.push(d);
  return days;
})();
// Ranges near the seeded windows most of the time, anywhere in the year otherwise.
const startDay = fc.oneof(
  fc.constantFrom(...DAYS.filter((d) => (d >= "2026-02-20" && d <= "2026-03-16") || (d >= "2026-10-20" && d <= "2026-11-10"))),
  fc.constantFrom(...DAYS),
);
const range = fc.record({ start: startDay, length: fc.integer({ min: 0, max: 40 }) }).map(({ start, length }) => ({
  startDate: start,
  endDate: addDays(start, length),
}));
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
const meter = () => new DbMeter(env.DB);
/** A meter on the account's shard, named as the request's is (its coverage remembered per shard). */
const shardMeter = (userId: string) => new DbMeter(shards.get(userId)!.$client, userId === seeded.a ? "SHARD_0" : "SHARD_1");
const LATE_RANGE = { startDate: "2026-03-01", endDate: "2026-03-10" };

describe("counts equal a brute-force count of decision 009", () => {
  it("call logs", async () => {
    await fc.assert(
      fc.asyncProperty(range, fc.constantFrom(...CALL_TYPES), opt(fc.integer({ min: 0, max: 2 })), fc.boolean(), async (r, callType, agentIx, asB) => {
        const agent = agentIx === undefined ? undefined : [...seeded.assistants, "asst-unknown"][agentIx];
        const userId = asB ? seeded.b : seeded.a;
        const q = { ...r, callType, agent };
        expect(await callLogCounts(shardMeter(userId), userId, q)).toEqual(bruteCallLogCounts(seeded.calls, userId, q));
      }),
      // Always also the ranges with the late events of both windows' DST days, and rolled-up ranges
      // of each direction with and without an agent (the per-account and per-assistant roll-ups).
      {
        numRuns: 40,
        examples: [
          [LATE_RANGE, "Both", undefined, false],
          [{ startDate: "2026-11-03", endDate: "2026-11-04" }, "Outbound", undefined, false],
          [{ startDate: "2026-11-04", endDate: "2026-11-04" }, "Outbound", 0, false],
          [{ startDate: "2026-10-30", endDate: "2026-11-06" }, "Outbound", 0, false],
          [{ startDate: "2026-02-25", endDate: "2026-03-16" }, "Inbound", undefined, false],
          [{ startDate: "2026-10-24", endDate: "2026-10-31" }, "Outbound", undefined, true],
          [{ startDate: "2026-10-24", endDate: "2026-10-31" }, "Inbound", 1, false],
        ],
      },
    );
  }, 60_000);

  it("Aircall", async () => {
    await fc.assert(
      fc.asyncProperty(range, opt(fc.constantFrom(...CALL_CENTRE_STAFF)), opt(fc.constantFrom(...Object.values(STORE_NUMBER_NAMES))), async (r, userName, numberName) => {
        const q = { ...r, dateFilterType: "range" as const, userName, numberName };
        const want = bruteAircallCounts(seeded.aircall, q);
        expect(await aircallCallCount(meter(), { ...q, direction: "inbound" })).toBe(want.inbound);
        expect(await aircallCallCount(meter(), { ...q, direction: "outbound" })).toBe(want.outbound);
        expect(await aircallOutboundAnswered(meter(), q)).toBe(want.outboundAnswered);
        expect(await aircallStoreTransfers(meter(), q)).toBe(want.storeTransfers);
      }),
      { numRuns: 30, examples: [[LATE_RANGE, undefined, undefined]] },
    );
  }, 60_000);

  it("appointments", async () => {
    const bookedBy = ["Online Booking", "AI Receptionist", "AI Outbound", "Miami Front Desk", ...CALL_CENTRE_STAFF];
    await fc.assert(
      fc.asyncProperty(
        range,
        opt(fc.constantFrom(...STORES)),
        opt(fc.constantFrom(...bookedBy)),
        opt(fc.constantFrom(...APPOINTMENT_TYPES)),
        async (r, store, by, appointmentType) => {
          const q = { ...r, dateFilterType: "range" as const, store, bookedBy: by, appointmentType };
          const want = bruteAppointmentCounts(seeded.appointments, q);
          expect(await appointmentCategoryCounts(meter(), q)).toEqual(want.categories);
          expect(await appointmentStatusCounts(meter(), q)).toEqual(want.status);
        },
      ),
      { numRuns: 40, examples: [[LATE_RANGE, undefined, undefined, undefined], [{ startDate: "2026-03-02", endDate: "2026-03-02" }, undefined, undefined, undefined]] },
    );
  }, 60_000);

  it("leads", async () => {
    await fc.assert(
      fc.asyncProperty(range, opt(fc.constantFrom(...STORES)), async (r, store) => {
        const q = { ...r, dateFilterType: "range" as const, store };
        expect(await leadSummary(meter(), q)).toEqual(bruteLeadSummary(seeded.leads, q));
      }),
      { numRuns: 30, examples: [[LATE_RANGE, undefined]] },
    );
  }, 60_000);

  it("some of the ranges above were answered from roll-ups, dirty days included, each account's on its shard", async () => {
    const rolled = await env.DB.prepare("SELECT (SELECT count(*) FROM appointment_begin_daily) AS a, (SELECT count(*) FROM rollup_dirty_days) AS dirty").first();
    expect(rolled).toMatchObject({ dirty: 4 });
    expect(Number(rolled!.a)).toBeGreaterThan(50);
    for (const id of [seeded.a, seeded.b]) {
      const onShard = await shards
        .get(id)!
        .$client.prepare(
          "SELECT (SELECT count(*) FROM call_log_daily WHERE user_id = ?1) AS c, (SELECT count(*) FROM call_log_user_daily WHERE user_id = ?1) AS cu, (SELECT count(*) FROM rollup_dirty_days) AS dirty",
        )
        .bind(id)
        .first();
      expect(onShard).toMatchObject({ dirty: id === seeded.a ? 1 : 0 });
      // Both windows' days (35) of each account are rolled up.
      expect(Number(onShard!.c)).toBeGreaterThan(30);
      expect(Number(onShard!.cu)).toBeGreaterThan(30);
    }
    // The directory holds none of the accounts' calls or their roll-ups.
    const inDirectory = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM call_logs WHERE user_id IN (?1, ?2)) AS calls, (SELECT count(*) FROM call_log_daily WHERE user_id IN (?1, ?2)) AS rolled",
    )
      .bind(seeded.a, seeded.b)
      .first();
    expect(inDirectory).toEqual({ calls: 0, rolled: 0 });
  });
});
