// "Upcoming" (decision 009: scheduled, beginning after the range, booked by its end) over the roll-up
// of bookings by begin day (decision 047): equal to a brute-force count for every range end, before,
// inside and after the roll-up's coverage, with dirty days and bookings older than the coverage;
// and the plans: covering-index searches only.
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { STORES } from "@shared/constants";
import type { AppointmentCountsQuery } from "@shared/schemas/counts";
import { addDays, nyDateRange, nyDayOf } from "@shared/ny-time";
import { describe, expect, it } from "vitest";
import { runRollups } from "../../jobs/rollups";
import { bruteAppointmentCounts } from "../../test/brute-counts";
import { RecordingMeter } from "../../test/explain";
import { insertAppointments } from "../../test/factories";
import { db } from "../../test/helpers";
import { appointments } from "../../db/schema";
import { D1Timer } from "../../db/timed-d1";
import { markDaysDirty } from "../rollup-dirty";
import { appointmentCategoryCounts, appointmentCountsByStore } from "./appointments";
import { nyDaySql } from "./figures";
import { DbMeter } from "./meter";

const meter = () => new DbMeter(env.DB);
const query = (endDate: string, store?: AppointmentCountsQuery["store"]): AppointmentCountsQuery => ({
  dateFilterType: "range",
  startDate: addDays(endDate, -6),
  endDate,
  store,
  bookedBy: undefined,
  appointmentType: undefined,
});

describe("nyDaySql", () => {
  it("gives the New York day nyDayOf gives, for any instant 2007-2099 and at each daylight-saving change", async () => {
    const edges = ["2026-03-08T06:59:59.999Z", "2026-03-08T07:00:00.000Z", "2026-11-01T05:59:59.999Z", "2026-11-01T06:00:00.000Z", "2031-03-09T07:00:00.000Z", "2031-11-02T05:59:59.000Z"];
    const random = fc.sample(fc.date({ min: new Date("2007-01-01T00:00:00Z"), max: new Date("2099-12-31T23:59:59Z"), noInvalidDate: true }), 400).map((d) => d.toISOString());
    const instants = [...edges, ...random];
    const { results } = await env.DB.prepare(`SELECT ${nyDaySql("value")} AS day FROM json_each(?)`).bind(JSON.stringify(instants)).all<{ day: string }>();
    expect(results.map((r) => r.day)).toEqual(instants.map((t) => nyDayOf(t)));
  });
});

// First: before any roll-up run in this file's database.
describe("the live Upcoming count's plan (booked-by or type filters, or no roll-ups)", () => {
  it("is a covering-index search, whatever the filters", async () => {
    for (const filters of [{}, { store: "MIAMI" }, { bookedBy: "Ana", appointmentType: "Hearing Test" }]) {
      const rec = new RecordingMeter();
      await appointmentCategoryCounts(rec, { dateFilterType: "range", startDate: "2026-03-01", endDate: "2026-03-31", ...filters } as never);
      const upcoming = (await rec.plans()).filter((p) => p.sql.includes("appointments_scheduled_cover_idx"));
      expect(upcoming, JSON.stringify(filters)).toHaveLength(1);
      expect(upcoming[0].plan.join(" | "), JSON.stringify(filters)).toMatch(/SEARCH r USING COVERING INDEX appointments_scheduled_cover_idx/);
    }
  });
});

describe("Upcoming over the roll-ups", { timeout: 60_000 }, () => {
  it("equals the brute-force count for every range end, store and grouping, live, rolled up and dirty", async () => {
    // Bookings from Dec 20 (before the roll-ups begin, Jan 5) to Jan 30 (after their last trusted
    // day, Jan 24), beginning up to 20 days later; some begin on their booking day or the range's end.
    const book = { fromMs: Date.parse("2026-12-20T12:00:00Z"), toMs: Date.parse("2027-01-30T22:00:00Z") };
    const rng = fc.sample(fc.tuple(fc.integer({ min: book.fromMs, max: book.toMs }), fc.integer({ min: 0, max: 20 * 24 }), fc.constantFrom(...STORES), fc.integer({ min: 0, max: 3 })), 400);
    const rows = rng.map(([bookedMs, hoursAhead, store, s]) => ({
      bookedAt: new Date(bookedMs).toISOString(),
      beginUtc: new Date(bookedMs + hoursAhead * 3_600_000).toISOString(),
      store,
      status: s === 0 ? "Visited" : "Scheduled",
    }));
    for (const r of rows) await insertAppointments(1, r);
    await runRollups({ db: db(), now: new Date("2027-01-25T15:00:00Z") }, { backfillFrom: "2027-01-05" });
    // A late booking on a rolled-up day, marked dirty as every writer does, and a status change.
    const d = db();
    await d.batch([
      d.insert(appointments).values({ externalId: "late-1", store: "TYLER", beginUtc: "2027-01-20T15:00:00.000Z", bookedAt: "2027-01-12T15:00:00.000Z", appointmentType: "Eye Exam", status: "Scheduled" }),
      ...markDaysDirty(d, "appointments", ["2027-01-12"]),
    ]);
    const all = await db().select().from(appointments);
    const used = new Set<string>();
    for (const end of nyDateRange("2026-12-28", "2027-02-05")) {
      const expected = bruteAppointmentCounts(all, query(end)).categories.Upcoming;
      const rec = new RecordingMeter();
      expect((await appointmentCategoryCounts(rec, query(end))).Upcoming, end).toBe(expected);
      for (const r of rec.recorded) if (/appointment_upcoming_(all_)?daily/.test(r.sql)) used.add(end);
      for (const store of ["TYLER", "MIAMI"] as const) {
        expect((await appointmentCategoryCounts(meter(), query(end, store))).Upcoming, `${end} ${store}`).toBe(bruteAppointmentCounts(all, query(end, store)).categories.Upcoming);
      }
      const byStore = await appointmentCountsByStore(meter(), query(end));
      for (const store of STORES) {
        expect(byStore.get(store)?.categories.Upcoming ?? 0, `${end} by store ${store}`).toBe(bruteAppointmentCounts(all, query(end, store)).categories.Upcoming);
      }
    }
    // Range ends from the roll-ups' first day on read them; earlier ends are all live.
    expect([...used].sort()[0]).toBe("2027-01-05");
    // Some bookings are older than the roll-ups, so the live part before them was exercised.
    expect(all.some((a) => a.status === "Scheduled" && nyDayOf(a.bookedAt) < "2027-01-05" && a.beginUtc >= "2027-01-06T05:00:00.000Z")).toBe(true);
  });

  it("reads covering indexes only: the roll-up's begin-day index and the scheduled bookings' index", async () => {
    const rec = new RecordingMeter();
    await appointmentCategoryCounts(rec, query("2027-01-20"));
    await appointmentCategoryCounts(rec, query("2027-01-20", "MIAMI"));
    const plans = (await rec.plans()).filter((p) => /appointment_upcoming_(all_)?daily|scheduled_booked_idx/.test(p.sql));
    expect(plans).toHaveLength(4);
    for (const p of plans) {
      const plan = p.plan.join(" | ");
      expect(plan).toMatch(/SEARCH x USING COVERING INDEX (appointment_upcoming_(all_)?daily_begin_idx|appointments_scheduled_booked_idx)/);
    }
  });

  it("reads the all-stores roll-up without a store, and the per-store one with a store or by store", async () => {
    const tables = async (count: (m: RecordingMeter) => Promise<unknown>) => {
      const rec = new RecordingMeter();
      await count(rec);
      return rec.recorded.map((r) => /FROM (appointment_\w+_daily) /.exec(r.sql)?.[1]).filter(Boolean).sort();
    };
    expect(await tables((m) => appointmentCategoryCounts(m, query("2027-01-20")))).toEqual([
      "appointment_begin_all_daily",
      "appointment_booked_all_daily",
      "appointment_upcoming_all_daily",
    ]);
    const perStore = ["appointment_begin_store_daily", "appointment_booked_store_daily", "appointment_upcoming_daily"];
    expect(await tables((m) => appointmentCategoryCounts(m, query("2027-01-20", "MIAMI")))).toEqual(perStore);
    expect(await tables((m) => appointmentCountsByStore(m, query("2027-01-20")))).toEqual(perStore);
  });

  it("read fewer rows without a store than the per-store tables do for the same range", async () => {
    const rowsRead = async (count: (m: DbMeter) => Promise<unknown>) => {
      const timer = new D1Timer();
      await count(new DbMeter(timer.wrap(env.DB)));
      return timer.rowsRead;
    };
    const q = { ...query("2027-01-24"), startDate: "2027-01-05" };
    const all = await rowsRead((m) => appointmentCategoryCounts(m, q));
    const perStore = await rowsRead((m) => appointmentCountsByStore(m, q));
    // Measured 320 against 956: the all-stores tables hold a row where the per-store ones hold one a store.
    expect(all * 2).toBeLessThan(perStore);
  });
});

