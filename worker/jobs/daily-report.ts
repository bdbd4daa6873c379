// The nightly daily report job (docs/decisions/012-daily-reports.md): after the roll-ups, keeps
// yesterday's (New York) report for all stores and for each store in D1, and regenerates the stored
// reports of earlier days that late events changed (decision 017: the roll-up job marks them), and
// deletes the reports older than the retention (DAILY_REPORT_RETENTION_DAYS before yesterday).
import { addDays, nyYesterday } from "@shared/ny-time";
import { DAILY_REPORT_RETENTION_DAYS, pruneStoredDailyReports, staleReportDays, storeDailyReports } from "../services/daily-report-store";
import type { Job, JobContext } from "./context";

export async function runDailyReportJob(ctx: Pick<JobContext, "db" | "now">) {
  const day = nyYesterday(ctx.now);
  const oldestKept = addDays(day, -DAILY_REPORT_RETENTION_DAYS);
  // Pruned first, so a refresh mark of a day past the retention does not bring its reports back.
  const pruned = await pruneStoredDailyReports(ctx.db, oldestKept);
  const { reports } = await storeDailyReports(ctx.db, day);
  const refreshed: string[] = [];
  for (const stale of await staleReportDays(ctx.db)) {
    if (stale === day) continue;
    await storeDailyReports(ctx.db, stale);
    refreshed.push(stale);
  }
  return { day, reports, refreshed, pruned };
}

export const dailyReportJob: Job = { name: "daily-report", run: runDailyReportJob };
