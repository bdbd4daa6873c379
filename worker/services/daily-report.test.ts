// The daily report over long ranges: every source grouped by day and store in one batch per page, so
// a year's report stays inside D1's queries per Worker invocation, with the same rows as each day
// asked alone (from roll-ups, dirty days and live days alike).
import { env } from "cloudflare:workers";
import { STORES } from "@shared/constants";
import { describe, expect, it } from "vitest";
import { D1Timer } from "../db/timed-d1";
import { runRollups } from "../jobs/rollups";
import { insertAircallCalls, insertAppointments, insertLeads } from "../test/factories";
import { db, testShards } from "../test/helpers";
import { DbMeter } from "./counts/meter";
import { DAILY_REPORT_PAGE_DAYS, dailyReportPages, dailyReportRows } from "./daily-report";
import { markDaysDirty } from "./rollup-dirty";
import { addDays, nyDateRange } from "@shared/ny-time";

/** Cloudflare's D1 queries per Worker invocation on the paid plan (each statement of a batch counts). */
const D1_QUERIES_PER_INVOCATION = 1000;

async function readAll(meter: DbMeter, q: { startDate: string; endDate: string }) {
  const { pageSize, readPage } = dailyReportPages(meter, q);
  const rows = [];
  let cursor: string | null = null;
  for (;;) {
    const page = await readPage(cursor, pageSize);
    if (page.length === 0) break;
    rows.push(...page);
    cursor = page[page.length - 1].date;
  }
  return rows;
}

describe("daily report over a long range", { timeout: 120_000 }, () => {
  it("reads a year in a bounded number of D1 statements, each day as when asked alone", async () => {
    const start = "2025-11-01";
    const end = addDays(start, 365); // 366 days, the longest range allowed
    const w = { fromMs: Date.parse("2025-11-01T05:00:00Z"), toMs: Date.parse("2026-11-02T04:00:00Z") };
    await insertAppointments(600, {}, { window: w, nowMs: Date.parse("2026-10-01T00:00:00Z") });
    await insertAircallCalls(600, {}, { window: w });
    const leads = await insertLeads(300, {}, { window: w });
    // Roll-ups cover most of the year; a dirty day and the days after the run stay live.
    await runRollups({ db: db(), shards: testShards(), now: new Date("2026-10-20T12:00:00Z") }, { backfillFrom: start });
    const [mark] = markDaysDirty(db(), "appointments", ["2026-03-09"]);
    await mark;

    const timer = new D1Timer();
    const rows = await readAll(new DbMeter(timer.wrap(env.DB)), { startDate: start, endDate: end });
    const days = nyDateRange(start, end);
    expect(days).toHaveLength(366);
    expect(rows).toHaveLength(366 * (STORES.length + 1));
    expect(rows.map((r) => r.date)).toEqual(days.flatMap((d) => Array(STORES.length + 1).fill(d)));
    // Per page of a month: 2 coverage statements and at most 11 figure statements.
    const pages = Math.ceil(366 / DAILY_REPORT_PAGE_DAYS);
    expect(timer.queries).toBeLessThanOrEqual(pages * 13);
    expect(timer.queries).toBeLessThan(D1_QUERIES_PER_INVOCATION / 5);

    // Sampled days, each asked alone, give the same rows (the busiest figures are non-zero).
    const meter = new DbMeter(env.DB);
    for (const day of ["2025-11-01", "2026-03-08", "2026-03-09", "2026-07-04", "2026-10-18", "2026-10-25", end]) {
      const alone = await dailyReportRows(meter, { startDate: day, endDate: day });
      expect(rows.filter((r) => r.date === day)).toEqual(alone);
    }
    const total = (k: string) => rows.filter((r) => r.store === "ALL").reduce((n, r) => n + r.figures[k], 0);
    expect(total("Total")).toBeGreaterThan(400);
    // Every lead is a store's: in its store's row and in ALL, as in the dashboard's total.
    const storeRows = (k: string) => rows.filter((r) => r.store !== "ALL").reduce((n, r) => n + r.figures[k], 0);
    expect(storeRows("Lead submissions")).toBe(leads.length);
    expect(total("Lead submissions")).toBe(leads.length);
  });
});
