// The nightly daily reports kept in D1 (docs/decisions/012-daily-reports.md): a day's report for
// all stores (store NULL) and one per store, replaced whole when the day is generated again.
import { STORES, type Store } from "@shared/constants";
import type { DailyReportListItem } from "@shared/daily-report";
import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { dailyReports } from "../db/schema";
import { csvDocument } from "../lib/csv";
import { DbMeter } from "./counts/meter";
import { DAILY_REPORT_CSV_COLUMNS, dailyReportRows } from "./daily-report";

export const DAILY_REPORT_LIST_LIMIT = 30;

/**
 * Generates the day's reports (all stores, then each store) exactly as GET /api/daily-report
 * answers them, and stores them in one transaction: each replaces the day's earlier one.
 */
export async function storeDailyReports(db: Database, day: string): Promise<{ day: string; reports: number }> {
  const d1 = db.$client;
  const meter = new DbMeter(d1);
  const reports: { store: Store | null; csv: string; rows: number }[] = [];
  for (const store of [null, ...STORES]) {
    const rows = await dailyReportRows(meter, { startDate: day, endDate: day, store: store ?? undefined });
    reports.push({ store, csv: csvDocument(DAILY_REPORT_CSV_COLUMNS, rows), rows: rows.length });
  }
  await d1.batch(
    reports.flatMap((r) => [
      // `IS` matches the NULL store of the all-stores report too.
      d1.prepare("DELETE FROM daily_reports WHERE day = ? AND store IS ?").bind(day, r.store),
      d1.prepare("INSERT INTO daily_reports (day, store, csv, rows) VALUES (?, ?, ?, ?)").bind(day, r.store, r.csv, r.rows),
    ]),
  );
  return { day, reports: reports.length };
}

/** The newest days first; on a day the all-stores report, then the stores by name. */
export async function listStoredDailyReports(db: Database): Promise<DailyReportListItem[]> {
  return db
    .select({ id: dailyReports.id, date: dailyReports.day, store: dailyReports.store, created_at: dailyReports.createdAt, rows: dailyReports.rows })
    .from(dailyReports)
    .orderBy(desc(dailyReports.day), sql`${dailyReports.store} IS NOT NULL`, dailyReports.store)
    .limit(DAILY_REPORT_LIST_LIMIT);
}

export async function getStoredDailyReport(db: Database, id: number) {
  const [row] = await db
    .select({ day: dailyReports.day, store: dailyReports.store, csv: dailyReports.csv })
    .from(dailyReports)
    .where(eq(dailyReports.id, id));
  return row ?? null;
}
