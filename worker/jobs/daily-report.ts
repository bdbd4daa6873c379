// The nightly daily report job (docs/decisions/012-daily-reports.md): after the roll-ups, keeps
// yesterday's (New York) report for all stores and for each store in D1.
import { nyYesterday } from "@shared/ny-time";
import { storeDailyReports } from "../services/daily-report-store";
import type { Job, JobContext } from "./index";

export const runDailyReportJob = (ctx: Pick<JobContext, "db" | "now">) => storeDailyReports(ctx.db, nyYesterday(ctx.now));

export const dailyReportJob: Job = { name: "daily-report", run: runDailyReportJob };
