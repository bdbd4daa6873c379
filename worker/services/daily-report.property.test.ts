// Property: over random data, the daily report's ALL row of each day is the dashboard's figures for
// that day (decision 009: one definition). Aircall calls on a line that is no store's are in both,
// or in neither when a store is chosen; a lead row without a store (none is written: visitors' plan
// leads are in plan_leads) is in neither.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { STORE_NUMBER_NAMES, STORES, type Store } from "@shared/constants";
import { DAILY_REPORT_ALL_STORES, dailyReportStoreTotal } from "@shared/daily-report";
import { addDays, nyDateRange, nyLocalToUtc } from "@shared/ny-time";
import { describe, expect, it } from "vitest";
import { insertAircallCalls, insertAppointments, insertLeads } from "../test/factories";
import { aircallCallCount, aircallOutboundAnswered, aircallStoreTransfers } from "./counts/aircall";
import { appointmentCategoryCounts, appointmentStatusCounts } from "./counts/appointments";
import { leadSummary } from "./counts/leads";
import { DbMeter } from "./counts/meter";
import { dailyReportRows } from "./daily-report";

const meter = () => new DbMeter(env.DB);

/** The dashboard's figures for one day (and maybe a store), under the daily report's column names. */
async function dashboardFigures(day: string, store: Store | undefined): Promise<Record<string, number>> {
  const range = { dateFilterType: "range" as const, startDate: day, endDate: day };
  const appointmentQuery = { ...range, store, bookedBy: undefined, appointmentType: undefined };
  // The Aircall section narrowed to a store reads that store's line (docs/product/README.md#records).
  const aircallQuery = { ...range, userName: undefined, numberName: store ? STORE_NUMBER_NAMES[store] : undefined };
  const [categories, status, leads, inbound, outbound, answered, transfers] = await Promise.all([
    appointmentCategoryCounts(meter(), appointmentQuery),
    appointmentStatusCounts(meter(), appointmentQuery),
    leadSummary(meter(), { ...range, store }),
    aircallCallCount(meter(), { ...aircallQuery, direction: "inbound" }),
    aircallCallCount(meter(), { ...aircallQuery, direction: "outbound" }),
    aircallOutboundAnswered(meter(), aircallQuery),
    aircallStoreTransfers(meter(), aircallQuery),
  ]);
  return {
    ...categories,
    ...status,
    "Lead submissions": leads.totalSubmissions,
    "Aircall inbound calls": inbound,
    "Aircall outbound calls": outbound,
    "Aircall outbound answered": answered,
    "Aircall store transfers": transfers,
  };
}

// A plain day, the spring daylight-saving change and the autumn one.
const DAYS = ["2026-06-10", "2026-03-08", "2026-11-01"];

const data = fc.record({
  day: fc.constantFrom(...DAYS),
  store: fc.option(fc.constantFrom(...STORES), { nil: undefined, freq: 2 }),
  leadsWithStore: fc.integer({ min: 0, max: 8 }),
  leadsWithoutStore: fc.integer({ min: 0, max: 6 }),
  leadStore: fc.option(fc.constantFrom(...STORES), { nil: undefined }),
  storeLineCalls: fc.integer({ min: 0, max: 8 }),
  otherLineCalls: fc.integer({ min: 0, max: 5 }),
  appointments: fc.integer({ min: 0, max: 10 }),
});

describe("the daily report's ALL row is the dashboard's figures", () => {
  it("for every day of random data, with and without a store", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(data, async (d) => {
        await env.DB.batch(["leads", "aircall_calls", "appointments"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
        // From the New York day before to the day after, so the range's edges hold records too.
        const window = { fromMs: nyLocalToUtc(addDays(d.day, -1), 0).getTime(), toMs: nyLocalToUtc(addDays(d.day, 2), 0).getTime() - 1 };
        await insertLeads(d.leadsWithStore, { leadSource: "store" }, { window, store: d.leadStore });
        await insertLeads(d.leadsWithoutStore, { store: null, leadSource: "trial" }, { window });
        await insertAircallCalls(d.storeLineCalls, {}, { window });
        await insertAircallCalls(d.otherLineCalls, { numberName: "Head office", store: null }, { window });
        await insertAppointments(d.appointments, {}, { window, nowMs: window.toMs });

        const startDate = addDays(d.day, -1);
        const endDate = addDays(d.day, 1);
        const rows = await dailyReportRows(meter(), { startDate, endDate, store: d.store });
        for (const day of nyDateRange(startDate, endDate)) {
          // ALL for every store; a one-store report's total row is named after its store.
          const all = rows.find((r) => r.date === day && r.store === (d.store ? dailyReportStoreTotal(d.store) : DAILY_REPORT_ALL_STORES));
          expect(all?.figures, `${day} ${d.store ?? "all stores"}`).toEqual(await dashboardFigures(day, d.store));
        }
      }),
      {
        numRuns: 25,
        // Always: a lead row without a store and calls on a line that is no store's, with no store filter.
        examples: [[{ day: "2026-06-10", store: undefined, leadsWithStore: 4, leadsWithoutStore: 3, leadStore: "MIAMI", storeLineCalls: 3, otherLineCalls: 2, appointments: 5 }]],
      },
    );
  });
});
