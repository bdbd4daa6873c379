// The nightly daily report job (docs/decisions/012-daily-reports.md): after the roll-ups, keeps
// yesterday's (New York) report for all stores and for each store in D1, and regenerates the stored
// reports of earlier days that late events changed (decision 017: the roll-up job marks them).
import { nyYesterday } from "@shared/ny-time";
import { staleReportDays, storeDailyReports } from "../services/daily-report-store";
import type { Job, JobContext } from "./index";

export async function runDailyReportJob(ctx: Pick<JobContext, "db" | "now">) {
  const day = nyYesterday(ctx.now);
  const { reports } = await storeDailyReports(ctx.db, day);
  const refreshed: string[] = [];
  for (const stale of await staleReportDays(ctx.db)) {
    if (stale === day) continue;
    await storeDailyReports(ctx.db, stale);
    refreshed.push(stale);
  }
  return { day, reports, refreshed };
}

export const dailyReportJob: Job = { name: "daily-report", run: runDailyReportJob };
