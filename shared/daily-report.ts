// The daily report's columns (docs/product/dashboard-and-counts.md#the-daily-report-generator Daily Report Generator, §7 Daily report call), written once
// for the worker's CSV and the SPA's list of the report's contents, so the two always agree.
import type { z } from "zod";
import { APPOINTMENT_CATEGORY_KEYS, APPOINTMENT_STATUSES } from "./constants.ts";
import type { dailyReportListItem, dailyReportListResponse } from "./schemas/answer-shapes";

export const DAILY_REPORT_GROUPS = ["Shopwindow Appointments", "Virtual Interactions", "Leads & Aircall"] as const;
export type DailyReportGroup = (typeof DAILY_REPORT_GROUPS)[number];

export const DAILY_REPORT_LEAD_AIRCALL_KEYS = [
  "Lead submissions",
  "Aircall inbound calls",
  "Aircall outbound calls",
  "Aircall outbound answered",
  "Aircall store transfers",
] as const;

const isVirtual = (k: string) => k.startsWith("Virtual");

/** The figure columns in CSV order; the CSV header of each is its key. Date and Store come first. */
export const DAILY_REPORT_COLUMNS: readonly { key: string; group: DailyReportGroup }[] = [
  ...APPOINTMENT_CATEGORY_KEYS.filter((k) => !isVirtual(k)).map((key) => ({ key, group: "Shopwindow Appointments" as const })),
  ...APPOINTMENT_STATUSES.map((key) => ({ key, group: "Shopwindow Appointments" as const })),
  ...APPOINTMENT_CATEGORY_KEYS.filter(isVirtual).map((key) => ({ key, group: "Virtual Interactions" as const })),
  ...DAILY_REPORT_LEAD_AIRCALL_KEYS.map((key) => ({ key, group: "Leads & Aircall" as const })),
];

/** The row of every day that sums the stores. */
export const DAILY_REPORT_ALL_STORES = "ALL";

/** A one-store report's day total (that store's rows added up), named after its store, never ALL. */
export const dailyReportStoreTotal = (store: string) => `${store} total`;

/** One row of the report: a New York day, a store (or ALL) and every figure column by key. */
export type DailyReportRow = { date: string; store: string; figures: Record<string, number> };

/** A stored nightly report, as GET /api/daily-reports lists it. */
export type DailyReportListItem = z.infer<typeof dailyReportListItem>;
/** A page of stored reports, newest first; `nextCursor` asks for the next (older) page, null at the end. */
export type DailyReportListResponse = z.infer<typeof dailyReportListResponse>;

/** The file name of a report: one day (the generator's `date`) or a range, maybe one store. */
export function dailyReportFileName(q: { startDate: string; endDate: string; single?: boolean; store?: string | null }): string {
  if (q.single) return `daily-report-${q.startDate}${q.store ? `-${q.store}` : ""}.csv`;
  return `daily-report-${q.startDate}-to-${q.endDate}${q.store ? `-${q.store}` : ""}.csv`;
}
