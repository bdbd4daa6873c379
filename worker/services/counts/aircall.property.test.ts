// Property: for random ranges and every combination of the Aircall filters (user, line, store, and
// the direction each endpoint fixes), the counts over the per-dimension roll-ups equal a naive count
// of the stored calls, with rolled-up days trusted: late events through the real writers, which move
// calls to earlier days and change their user, line and direction, are counted at once.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { STORE_NUMBER_NAMES, STORES } from "@shared/constants";
import type { AircallCountsQuery } from "@shared/schemas/counts";
import { addDays, nyDayOf } from "@shared/ny-time";
import { beforeAll, describe, expect, it } from "vitest";
import { CALL_CENTRE_STAFF } from "../../db/factories";
import { aircallCalls } from "../../db/schema";
import { runRollups, ROLLUP_SOURCES } from "../../jobs/rollups";
import { insertAircallCalls } from "../../test/factories";
import { db } from "../../test/helpers";
import { applyAircallEvent, backfilledCallStatements } from "../aircall-calls";
import { aircallCallCount, aircallOutboundAnswered, aircallStoreTransfers } from "./aircall";
import { lastTrustedDay } from "./engine";
import { DbMeter } from "./meter";

const NOW = new Date("2026-06-18T15:00:00Z");
const TODAY = nyDayOf(NOW);
const FROM = "2026-05-20";
const LINES = [...Object.values(STORE_NUMBER_NAMES), "Head office"];
const USERS = [...CALL_CENTRE_STAFF, "Nobody Here"];
type Row = typeof aircallCalls.$inferSelect;
type Query = AircallCountsQuery;

/** The naive count: every stored call of the range and filters, by the definitions of decision 009. */
function naive(rows: Row[], q: Query) {
  const sel = rows.filter((r) => {
    const day = nyDayOf(r.startedAt);
    return (
      day >= q.startDate &&
      day <= q.endDate &&
      (!q.userName || r.userName === q.userName) &&
      (!q.numberName || r.numberName === q.numberName) &&
      (!q.store || r.numberName === STORE_NUMBER_NAMES[q.store])
    );
  });
  const of = (d: string) => sel.filter((r) => r.direction === d);
  return {
    inbound: of("inbound").length,
    outbound: of("outbound").length,
    outboundAnswered: of("outbound").filter((r) => r.answeredAt !== null).length,
    storeTransfers: of("inbound").filter((r) => r.transferredToStore).length,
  };
}

let rows: Row[] = [];

beforeAll(async () => {
  const window = { fromMs: Date.parse(`${FROM}T04:00:00Z`), toMs: NOW.getTime() };
  await insertAircallCalls(1500, {}, { window });
  await insertAircallCalls(200, { numberName: "Head office", store: null }, { window });
  await runRollups({ db: db(), now: NOW }, { backfillFrom: FROM });
  // Late events for calls on rolled-up days, through the webhook's writer and the backfill's: each
  // moves its call one to four days earlier (the earliest start is kept) and gives it another
  // user, line and direction, so both the day it leaves and the day it lands on change.
  const stored = await db().select().from(aircallCalls);
  const trusted = lastTrustedDay("aircall", TODAY);
  const late = stored.filter((r) => nyDayOf(r.startedAt) > addDays(FROM, 5) && nyDayOf(r.startedAt) <= trusted).slice(0, 60);
  const moved = late.map((r, i) => ({
    id: r.aircallId,
    direction: i % 3 ? r.direction : r.direction === "inbound" ? "outbound" : "inbound",
    status: "done",
    startedAt: new Date(Date.parse(r.startedAt) - (1 + (i % 4)) * 86_400_000 - 3_600_000).toISOString(),
    answeredAt: i % 2 ? r.answeredAt : null,
    endedAt: r.endedAt,
    durationSeconds: r.duration,
    userName: i % 5 === 0 ? null : USERS[i % USERS.length],
    numberName: LINES[i % LINES.length],
    transferredTo: i % 4 === 0 ? "Tulsa" : null,
  })) satisfies Parameters<typeof backfilledCallStatements>[1];
  const observedAt = new Date(NOW.getTime() - 60_000).toISOString();
  for (const [i, call] of moved.slice(0, 30).entries()) {
    await applyAircallEvent(db(), { kind: "call", eventId: `late-${i}`, eventType: "call.ended", occurredAt: observedAt, call });
  }
  const [first, ...rest] = backfilledCallStatements(db(), moved.slice(30), observedAt);
  await db().batch([first, ...rest]);
  rows = await db().select().from(aircallCalls);
  // The late events did move calls across rolled-up days.
  const movedDays = rows.filter((r) => moved.some((m) => m.id === r.aircallId) && nyDayOf(r.startedAt) < nyDayOf(stored.find((s) => s.aircallId === r.aircallId)!.startedAt));
  expect(movedDays.length).toBe(moved.length);
}, 120_000);

const days: string[] = [];
for (let d = addDays(FROM, -3); d <= addDays(TODAY, 1); d = addDays(d, 1)) days.push(d);
const range = fc.record({ start: fc.constantFrom(...days), length: fc.integer({ min: 0, max: 35 }) }).map(({ start, length }) => ({
  startDate: start,
  endDate: addDays(start, length),
}));
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
const meter = () => new DbMeter(env.DB);

describe("Aircall counts over the per-dimension roll-ups", () => {
  it("equal the naive count for every filter combination, late events included", async () => {
    expect(ROLLUP_SOURCES).toContain("aircall");
    await fc.assert(
      fc.asyncProperty(range, opt(fc.constantFrom(...USERS)), opt(fc.constantFrom(...LINES)), opt(fc.constantFrom(...STORES)), async (r, userName, numberName, store) => {
        const q: Query = { ...r, dateFilterType: "range", userName, numberName, store };
        const want = naive(rows, q);
        expect(await aircallCallCount(meter(), { ...q, direction: "inbound" })).toBe(want.inbound);
        expect(await aircallCallCount(meter(), { ...q, direction: "outbound" })).toBe(want.outbound);
        expect(await aircallOutboundAnswered(meter(), q)).toBe(want.outboundAnswered);
        expect(await aircallStoreTransfers(meter(), q)).toBe(want.storeTransfers);
      }),
      {
        numRuns: 60,
        // The whole rolled-up span with each filter alone and together, so every table is read.
        examples: [
          [{ startDate: FROM, endDate: TODAY }, undefined, undefined, undefined],
          [{ startDate: FROM, endDate: TODAY }, CALL_CENTRE_STAFF[0], undefined, undefined],
          [{ startDate: FROM, endDate: TODAY }, undefined, "Miami", undefined],
          [{ startDate: FROM, endDate: TODAY }, undefined, undefined, "TULSA"],
          [{ startDate: FROM, endDate: TODAY }, CALL_CENTRE_STAFF[1], "Head office", undefined],
          [{ startDate: FROM, endDate: TODAY }, CALL_CENTRE_STAFF[2], undefined, "OKC"],
          [{ startDate: FROM, endDate: TODAY }, undefined, "Tyler.", "TYLER"],
        ],
      },
    );
  }, 120_000);
});
