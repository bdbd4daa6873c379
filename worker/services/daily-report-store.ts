// The nightly daily reports kept in D1 (docs/decisions/012-daily-reports.md): a day's report for
// all stores (store NULL) and one per store, replaced whole when the day is generated again.
import { STORES, type Store } from "@shared/constants";
import { DAILY_REPORT_ALL_STORES, dailyReportStoreTotal, type DailyReportListItem, type DailyReportListResponse } from "@shared/daily-report";
import { dailyReportListCursor, type DailyReportListQuery } from "@shared/schemas/counts";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { dailyReports } from "../db/schema";
import { csvDocument } from "../lib/csv";
import { DbMeter } from "./counts/meter";
import { DAILY_REPORT_CSV_COLUMNS, dailyReportRows, sumRow } from "./daily-report";
import { STORED_REPORTS_MARK } from "./rollup-dirty";

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
    // One store's report: its row and its day total, as ?store= answers.
    const mine = storeRows.filter((r) => r.store === store);
    const doc = [...mine, sumRow(day, mine, dailyReportStoreTotal(store))];
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

/** The unique index's expression: a report's store, '' for the all-stores report. */
const STORE_KEY = "(CASE WHEN store IS NULL THEN '' ELSE store END)";

/**
 * One page of stored reports: newest day first; on a day the all-stores report, then the stores by
 * name; only the days of [startDate, endDate] and the one store when the query names them.
 */
export async function listStoredDailyReports(db: Database, q: DailyReportListQuery): Promise<DailyReportListResponse> {
  // Keyset on (day DESC, store key ASC), the store key being the unique index's own expression ('' for
  // the all-stores report), so a page reads daily_reports_day_store_idx from its cursor on.
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.cursor) {
    where.push(`(day < ? OR (day = ? AND ${STORE_KEY} > ?))`);
    params.push(q.cursor.day, q.cursor.day, q.cursor.store);
  }
  if (q.startDate && q.endDate) {
    where.push("day >= ? AND day <= ?");
    params.push(q.startDate, q.endDate);
  }
  if (q.store) {
    where.push("store = ?");
    params.push(q.store);
  }
  const stmt = db.$client.prepare(
    `SELECT id, day AS date, store, created_at, rows FROM daily_reports ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY day DESC, ${STORE_KEY} LIMIT ?`,
  );
  const { results } = await stmt.bind(...params, q.limit + 1).all<DailyReportListItem>();
  const reports = results.slice(0, q.limit);
  const nextCursor = results.length > q.limit ? dailyReportListCursor(reports[reports.length - 1]) : null;
  return { reports, nextCursor };
}

/**
 * How long stored reports are kept: the nightly job deletes the reports of New York days more than
 * this many days before yesterday (at least 90 days must stay listed; a year of ten small reports a
 * night is a few megabytes). A range older than that is still generated on request from the counts.
 */
export const DAILY_REPORT_RETENTION_DAYS = 365;

/** Deletes the stored reports (and their refresh marks) of days before `oldestKept`, in one batch. */
export async function pruneStoredDailyReports(db: Database, oldestKept: string): Promise<number> {
  const d1 = db.$client;
  const [reports] = await d1.batch([
    d1.prepare("DELETE FROM daily_reports WHERE day < ?").bind(oldestKept),
    d1.prepare("DELETE FROM rollup_dirty_days WHERE source = ? AND day < ?").bind(STORED_REPORTS_MARK, oldestKept),
  ]);
  return reports.meta.changes ?? 0;
}

export async function getStoredDailyReport(db: Database, id: number) {
  const [row] = await db
    .select({ day: dailyReports.day, store: dailyReports.store, csv: dailyReports.csv })
    .from(dailyReports)
    .where(eq(dailyReports.id, id));
  return row ?? null;
}
