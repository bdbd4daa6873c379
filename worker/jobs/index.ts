// scheduled() only dispatches: each cron expression maps to plain job functions.
import type { Database } from "../db/client";
import type { AppConfig } from "../env";
import { createCallCentre, usesAircall } from "../providers";
import { runAircallBackfill } from "./aircall-backfill";
import { dailyReportJob } from "./daily-report";
import { rollupJob } from "./rollups";
import { pruneRateLimits } from "../lib/rate-limit";
import { pruneSignInFailures } from "../services/sign-in-guard";

/** Rate-limit counters and sign-in failure counts older than a day are deleted ([013](../../docs/decisions/013-brute-force-limits.md)). */
export const pruneCountersJob: Job = {
  name: "prune-counters",
  run: async (ctx) => ({
    rateLimits: await pruneRateLimits(ctx.db, ctx.now.getTime()),
    signInFailures: await pruneSignInFailures(ctx.db, ctx.now.getTime()),
  }),
};

export type JobContext = { db: Database; config: AppConfig; now: Date };
export type Job = { name: string; run: (ctx: JobContext) => Promise<unknown> };

export const DAILY_CRON = "15 5 * * *";
export const FREQUENT_CRON = "*/10 * * * *";

/** Jobs per cron expression; later features register their roll-up, report and sync jobs here. */
export const jobsByCron: Record<string, Job[]> = {
  // The report after the roll-ups, so it reads the freshly rolled-up days.
  [DAILY_CRON]: [rollupJob, dailyReportJob, pruneCountersJob],
  [FREQUENT_CRON]: [
    // Only with the real adapter: locally the seed holds the calls and there is nothing to read.
    { name: "aircall-backfill", run: async (ctx) => (usesAircall(ctx.config) ? runAircallBackfill(ctx, createCallCentre(ctx.config)) : { skipped: true }) },
  ],
};

export async function runJobs(cron: string, ctx: JobContext) {
  const jobs = jobsByCron[cron] ?? [];
  const results: { name: string; ok: boolean; error?: string }[] = [];
  for (const job of jobs) {
    try {
      await job.run(ctx);
      results.push({ name: job.name, ok: true });
    } catch (e) {
      results.push({ name: job.name, ok: false, error: (e as Error).message });
      console.error(JSON.stringify({ level: "error", message: "job failed", job: job.name, error: (e as Error).message }));
    }
  }
  return results;
}
