// The daily report (spec 1 §2, §7): per New York day, a row per store and an ALL row summing them,
// every figure from the count services (decision 009 is written there once, never here).
import { APPOINTMENT_CATEGORY_KEYS, STORE_NUMBER_NAMES, STORES, type Store } from "@shared/constants";
import {
  DAILY_REPORT_ALL_STORES,
  DAILY_REPORT_COLUMNS,
  type DailyReportRow,
} from "@shared/daily-report";
import { emptyCategoryCounts } from "@shared/schemas/counts";
import type { CsvColumn, PageReader } from "../lib/csv";
import { aircallCountsByNumber } from "./counts/aircall";
import { appointmentCountsByStore } from "./counts/appointments";
import { leadSummary } from "./counts/leads";
import type { DbMeter } from "./counts/meter";
import { nyDateRange } from "@shared/ny-time";

/** Days counted at once: each is a few D1 round trips, so a long range never floods D1. */
export const DAILY_REPORT_PARALLEL_DAYS = 4;

export const DAILY_REPORT_CSV_COLUMNS: readonly CsvColumn<DailyReportRow>[] = [
  { header: "Date", value: (r) => r.date },
  { header: "Store", value: (r) => r.store },
  ...DAILY_REPORT_COLUMNS.map((c) => ({ header: c.key, value: (r: DailyReportRow) => r.figures[c.key] ?? 0 })),
];

const STATUS_ZERO = { Scheduled: 0, Visited: 0, Sold: 0, "No Show": 0, Cancelled: 0 };

/** One day's rows: the stores asked for, then ALL (their sum). Three count services, one batch each. */
async function dayRows(meter: DbMeter, day: string, stores: readonly Store[]): Promise<DailyReportRow[]> {
  const range = { dateFilterType: "range" as const, startDate: day, endDate: day, bookedBy: undefined, appointmentType: undefined };
  const [appointments, leads, aircall] = await Promise.all([
    appointmentCountsByStore(meter, range),
    leadSummary(meter, range),
    aircallCountsByNumber(meter, range),
  ]);
  const rows = stores.map((store): DailyReportRow => {
    const a = appointments.get(store) ?? { categories: emptyCategoryCounts(), status: STATUS_ZERO };
    const line = aircall.get(STORE_NUMBER_NAMES[store]);
    const figures: Record<string, number> = {
      ...Object.fromEntries(APPOINTMENT_CATEGORY_KEYS.map((k) => [k, a.categories[k]])),
      ...a.status,
      "Lead submissions": leads.byStore[store] ?? 0,
      "Aircall inbound calls": line?.inbound ?? 0,
      "Aircall outbound calls": line?.outbound ?? 0,
      "Aircall outbound answered": line?.outboundAnswered ?? 0,
      "Aircall store transfers": line?.storeTransfers ?? 0,
    };
    return { date: day, store, figures };
  });
  const all: Record<string, number> = {};
  for (const c of DAILY_REPORT_COLUMNS) all[c.key] = rows.reduce((n, r) => n + (r.figures[c.key] ?? 0), 0);
  return [...rows, { date: day, store: DAILY_REPORT_ALL_STORES, figures: all }];
}

/** Every day of [startDate, endDate] × the stores (all nine, or one), in day order. */
export async function dailyReportRows(meter: DbMeter, q: { startDate: string; endDate: string; store?: Store }): Promise<DailyReportRow[]> {
  const days = nyDateRange(q.startDate, q.endDate);
  const stores = q.store ? [q.store] : STORES;
  const out: DailyReportRow[][] = new Array(days.length);
  let next = 0;
  const worker = async () => {
    while (next < days.length) {
      const i = next++;
      out[i] = await dayRows(meter, days[i], stores);
    }
  };
  await Promise.all(Array.from({ length: Math.min(DAILY_REPORT_PARALLEL_DAYS, days.length) }, worker));
  return out.flat();
}

/** Days per streamed page: the ones counted together (DAILY_REPORT_PARALLEL_DAYS at a time). */
export const DAILY_REPORT_PAGE_DAYS = 8;

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
