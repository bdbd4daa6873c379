// The daily report (docs/product/dashboard-and-counts.md#sections-and-who-sees-them, docs/product/api.md#dashboard-counts): per New York day, a row per store and an ALL row with the day's
// figures under no store filter (the dashboard's), every figure from the count services (decision 009 is written there once, never here), each
// source grouped by day and store in one batch per page.
import { APPOINTMENT_CATEGORY_KEYS, STORES, type Store } from "@shared/constants";
import {
  DAILY_REPORT_ALL_STORES,
  DAILY_REPORT_COLUMNS,
  dailyReportStoreTotal,
  type DailyReportRow,
} from "@shared/daily-report";
import { emptyCategoryCounts } from "@shared/schemas/counts";
import type { CsvColumn, PageReader } from "../lib/csv";
import { aircallCountsByNumberPlan, type AircallLineCounts } from "./counts/aircall";
import { appointmentCountsByDayAndStorePlan } from "./counts/appointments";
import { allOf, groupKey, overCoverage } from "./counts/engine";
import { leadSubmissionsByDayAndStorePlan } from "./counts/leads";
import type { DbMeter } from "./counts/meter";
import { nyDateRange } from "@shared/ny-time";
import { storeOfLine } from "@shared/stores";

export const DAILY_REPORT_CSV_COLUMNS: readonly CsvColumn<DailyReportRow>[] = [
  { header: "Date", value: (r) => r.date },
  { header: "Store", value: (r) => r.store },
  ...DAILY_REPORT_COLUMNS.map((c) => ({ header: c.key, value: (r: DailyReportRow) => r.figures[c.key] ?? 0 })),
];

const STATUS_ZERO = { Scheduled: 0, Visited: 0, Sold: 0, "No Show": 0, Cancelled: 0 };

/** The sources of the report's figures, their coverage read together. */
const SOURCES = ["appointments", "aircall", "leads"] as const;

/**
 * Every day of [startDate, endDate] × the stores (all nine, or one), then ALL (the day unfiltered)
 * or, for one store, "<STORE> total" (that store's rows added up), in day order. Each source is one batch for the whole range, grouped by day and store (decision 012's
 * follow-up): a range costs the same few D1 statements however many days it holds.
 */
export async function dailyReportRows(meter: DbMeter, q: { startDate: string; endDate: string; store?: Store }): Promise<DailyReportRow[]> {
  const range = { dateFilterType: "range" as const, startDate: q.startDate, endDate: q.endDate, bookedBy: undefined, appointmentType: undefined, store: undefined };
  // The three sources' statements in one batch, with their coverage reads (overCoverage).
  const [appointments, aircall, leads] = await overCoverage(meter, SOURCES, q, (coverage) =>
    allOf(
      appointmentCountsByDayAndStorePlan(meter, range, coverage.appointments),
      aircallCountsByNumberPlan(meter, coverage.aircall, true),
      leadSubmissionsByDayAndStorePlan(meter, coverage.leads),
    ),
  );
  const stores = q.store ? [q.store] : STORES;
  const storeLines = byStoreOfLine(aircall);
  const out: DailyReportRow[] = [];
  for (const day of nyDateRange(q.startDate, q.endDate)) {
    const rows = stores.map((store): DailyReportRow => {
      const a = appointments.get(groupKey(day, store)) ?? { categories: emptyCategoryCounts(), status: STATUS_ZERO };
      const line = storeLines.get(groupKey(day, store));
      const figures: Record<string, number> = {
        ...Object.fromEntries(APPOINTMENT_CATEGORY_KEYS.map((k) => [k, a.categories[k]])),
        ...a.status,
        "Lead submissions": leads.get(groupKey(day, store)) ?? 0,
        "Aircall inbound calls": line?.inbound ?? 0,
        "Aircall outbound calls": line?.outbound ?? 0,
        "Aircall outbound answered": line?.outboundAnswered ?? 0,
        "Aircall store transfers": line?.storeTransfers ?? 0,
      };
      return { date: day, store, figures };
    });
    out.push(...rows, q.store ? sumRow(day, rows, dailyReportStoreTotal(q.store)) : unfilteredRow(day, appointments, aircall, leads));
  }
  return out;
}

/**
 * Aircall's per day and line counts (keys "day|line") per day and store (keys "day|store"): a store's
 * lines added up, "Naples" and "Naples." alike (storeOfLine); lines of no store are left out.
 */
function byStoreOfLine(lines: ReadonlyMap<string, AircallLineCounts>): Map<string, AircallLineCounts> {
  const out = new Map<string, AircallLineCounts>();
  for (const [key, v] of lines) {
    const cut = key.indexOf("|");
    const store = storeOfLine(key.slice(cut + 1));
    if (!store) continue;
    const k = groupKey(key.slice(0, cut), store);
    const sum = out.get(k) ?? { inbound: 0, outbound: 0, outboundAnswered: 0, storeTransfers: 0 };
    out.set(k, { inbound: sum.inbound + v.inbound, outbound: sum.outbound + v.outbound, outboundAnswered: sum.outboundAnswered + v.outboundAnswered, storeTransfers: sum.storeTransfers + v.storeTransfers });
  }
  return out;
}

/** The figures of every group of `day` in a grouped count (keys "day|group"), added up. */
function sumOfDay<T>(groups: ReadonlyMap<string, T>, day: string, figures: (value: T) => Record<string, number>): Record<string, number> {
  const sum: Record<string, number> = {};
  const prefix = groupKey(day, "");
  for (const [key, value] of groups) {
    if (!key.startsWith(prefix)) continue;
    for (const [k, n] of Object.entries(figures(value))) sum[k] = (sum[k] ?? 0) + n;
  }
  return sum;
}

/**
 * The ALL row of a report for all stores: each figure of the day with no store filter, as the
 * dashboard counts it without a store (decision 009), so Aircall calls on a line that is no store's
 * are in it. It is every group of the day added up, so it is not the sum of the store rows above it.
 */
function unfilteredRow(
  day: string,
  appointments: ReadonlyMap<string, { categories: Record<string, number>; status: Record<string, number> }>,
  aircall: ReadonlyMap<string, { inbound: number; outbound: number; outboundAnswered: number; storeTransfers: number }>,
  leads: ReadonlyMap<string, number>,
): DailyReportRow {
  const a = sumOfDay(appointments, day, (v) => ({ ...v.categories, ...v.status }));
  const line = sumOfDay(aircall, day, (v) => ({
    "Aircall inbound calls": v.inbound,
    "Aircall outbound calls": v.outbound,
    "Aircall outbound answered": v.outboundAnswered,
    "Aircall store transfers": v.storeTransfers,
  }));
  const l = sumOfDay(leads, day, (n) => ({ "Lead submissions": n }));
  const figures: Record<string, number> = {};
  for (const c of DAILY_REPORT_COLUMNS) figures[c.key] = a[c.key] ?? line[c.key] ?? l[c.key] ?? 0;
  return { date: day, store: DAILY_REPORT_ALL_STORES, figures };
}

/** The day total of a one-store report: the sum of the rows given (that store's), under `label`. */
export function sumRow(day: string, rows: readonly DailyReportRow[], label: string): DailyReportRow {
  const all: Record<string, number> = {};
  for (const c of DAILY_REPORT_COLUMNS) all[c.key] = rows.reduce((n, r) => n + (r.figures[c.key] ?? 0), 0);
  return { date: day, store: label, figures: all };
}

/**
 * Days per streamed page: a month, so a year's report is 12 pages of a few statements each, well
 * inside D1's queries per Worker invocation, and the first page still leaves at once.
 */
export const DAILY_REPORT_PAGE_DAYS = 31;

/**
 * Pages of the report for csvStream: a page is the rows of the next days after the cursor (the last
 * row's date), so the answer starts at once and a long range is never held whole. Every day has the
 * same row count, so a page is short only at the end.
 */
export function dailyReportPages(
  meter: DbMeter,
  q: { startDate: string; endDate: string; store?: Store },
): { pageSize: number; readPage: PageReader<DailyReportRow, string> } {
  const rowsPerDay = (q.store ? 1 : STORES.length) + 1;
  const days = nyDateRange(q.startDate, q.endDate);
  const readPage: PageReader<DailyReportRow, string> = async (cursor, limit) => {
    const from = cursor === null ? 0 : days.indexOf(cursor) + 1;
    const page = days.slice(from, from + Math.max(1, Math.floor(limit / rowsPerDay)));
    if (page.length === 0) return [];
    return dailyReportRows(meter, { startDate: page[0], endDate: page[page.length - 1], store: q.store });
  };
  return { pageSize: rowsPerDay * DAILY_REPORT_PAGE_DAYS, readPage };
}
