// The nightly daily reports kept in D1 (docs/decisions/012-daily-reports.md): a day's report for
// all stores (store NULL) and one per store, replaced whole when the day is generated again.
import { STORES, type Store } from "@shared/constants";
import { DAILY_REPORT_ALL_STORES, type DailyReportListItem } from "@shared/daily-report";
import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { dailyReports } from "../db/schema";
import { csvDocument } from "../lib/csv";
import { DbMeter } from "./counts/meter";
import { DAILY_REPORT_CSV_COLUMNS, dailyReportRows, sumRow } from "./daily-report";
import { STORED_REPORTS_MARK } from "./rollup-dirty";

export const DAILY_REPORT_LIST_LIMIT = 30;

/**
 * Generates the day's reports (all stores, then each store) exactly as GET /api/daily-report
 * answers them, from one reading of the day, and stores them in one transaction: each replaces the
 * day's earlier one, and the day's refresh mark (decision 017) is cleared with them.
 */
export async function storeDailyReports(db: Database, day: string): Promise<{ day: string; reports: number }> {
  const d1 = db.$client;
  const rows = await dailyReportRows(new DbMeter(d1), { startDate: day, endDate: day });
  const storeRows = rows.filter((r) => r.store !== DAILY_REPORT_ALL_STORES);
  const reports: { store: Store | null; csv: string; rows: number }[] = [{ store: null, csv: csvDocument(DAILY_REPORT_CSV_COLUMNS, rows), rows: rows.length }];
  for (const store of STORES) {
    // One store's report: its row and an ALL row summing it alone, as ?store= answers.
    const mine = storeRows.filter((r) => r.store === store);
    const doc = [...mine, sumRow(day, mine)];
    reports.push({ store, csv: csvDocument(DAILY_REPORT_CSV_COLUMNS, doc), rows: doc.length });
  }
  await d1.batch([
    d1.prepare("DELETE FROM rollup_dirty_days WHERE source = ? AND day = ?").bind(STORED_REPORTS_MARK, day),
    ...reports.flatMap((r) => [
      // `IS` matches the NULL store of the all-stores report too.
      d1.prepare("DELETE FROM daily_reports WHERE day = ? AND store IS ?").bind(day, r.store),
      d1.prepare("INSERT INTO daily_reports (day, store, csv, rows) VALUES (?, ?, ?, ?)").bind(day, r.store, r.csv, r.rows),
    ]),
  ]);
  return { day, reports: reports.length };
}

/** Days of stored reports at most refreshed per run; older marks wait for the next run. */
export const REFRESH_DAYS_PER_RUN = 31;

/** Days whose stored reports late events made stale (marked by the roll-up job), oldest first. */
export async function staleReportDays(db: Database): Promise<string[]> {
  const { results } = await db.$client
    .prepare("SELECT day FROM rollup_dirty_days WHERE source = ? ORDER BY day LIMIT ?")
    .bind(STORED_REPORTS_MARK, REFRESH_DAYS_PER_RUN)
    .all<{ day: string }>();
  return results.map((r) => r.day);
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
