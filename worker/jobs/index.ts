// scheduled() only dispatches: each cron expression maps to plain job functions.
import type { Job, JobContext } from "./context";
import { createCallCentre, usesAircall } from "../providers";
import { pruneSignInFailures } from "../providers/identity/local/sign-in-guard";
import { runAircallBackfill } from "./aircall-backfill";
import { dailyReportJob } from "./daily-report";
import { reportMailJob } from "./report-mail";
import { usageAlertJob } from "./usage-alerts";
import { dailyReportWebhookJob, webhookRequeueJob } from "./webhooks";
import { alertJob, alertPruneJob } from "./alerts";
import { identitySyncJob } from "./identity-sync";
import { hourlyRollupJob, rollupJob } from "./rollups";
import { pruneRateLimits } from "../db/rate-limit";
import { recordJobRun } from "../services/job-runs";
import { pruneLiveChanges } from "../live/changes";
import { healSearchIndex } from "../services/call-search";
import { log, withLogScope } from "../lib/log";

/**
 * Rate-limit counters and sign-in failure counts older than a day are deleted ([013](../../docs/decisions/013-brute-force-limits.md)),
 * and the live feed's changes older than its kept days.
 */
export const pruneCountersJob: Job = {
  name: "prune-counters",
  run: async (ctx) => ({
    rateLimits: await pruneRateLimits(ctx.db, ctx.now.getTime()),
    signInFailures: await pruneSignInFailures(ctx.db, ctx.now.getTime()),
    // The live feed's change log keeps its last days (decision 058).
    liveChanges: await pruneLiveChanges(ctx.db, ctx.now),
  }),
};

export type { Job, JobContext } from "./context";

export const DAILY_CRON = "15 5 * * *";
export const FREQUENT_CRON = "*/10 * * * *";
/** Every minute: the alert rules (decision 071). */
export const MINUTE_CRON = "* * * * *";

/** Jobs per cron expression; later features register their roll-up, report and sync jobs here. */
export const jobsByCron: Record<string, Job[]> = {
  // The report after the roll-ups, so it reads the freshly rolled-up days; its mail after the report.
  [DAILY_CRON]: [rollupJob, dailyReportJob, reportMailJob, dailyReportWebhookJob, pruneCountersJob, alertPruneJob, identitySyncJob],
  [FREQUENT_CRON]: [
    hourlyRollupJob,
    // After the roll-ups, so the month's minutes read the freshly rolled-up days.
    usageAlertJob,
    // Only with the real adapter: locally the seed holds the calls and there is nothing to read.
    { name: "aircall-backfill", run: async (ctx) => (usesAircall(ctx.config) ? runAircallBackfill(ctx, createCallCentre(ctx.config)) : { skipped: true }) },
    // Indexes the call logs whose index step was lost since the last run (decision 059).
    { name: "search-heal", run: async (ctx) => (ctx.search && ctx.callText ? healSearchIndex(ctx.db, ctx.search, ctx.callText) : { skipped: true }) },
    // Webhook deliveries whose queue message was lost (decision 070).
    webhookRequeueJob,
  ],
  [MINUTE_CRON]: [alertJob],
};

/**
 * Runs the cron's jobs one after another, each in its own log scope (every line carries the run id,
 * the cron and the job), and records each job's outcome in job_runs. A failed job does not stop the
 * next one; a failure to record is logged and does not fail the run.
 */
export async function runJobs(cron: string, ctx: JobContext, runId: string = crypto.randomUUID()) {
  return withLogScope({ requestId: runId, cron }, async () => {
    const jobs = jobsByCron[cron] ?? [];
    const results: { name: string; ok: boolean; error?: string }[] = [];
    log(null, "info", "scheduled run started", { jobs: jobs.map((j) => j.name) });
    for (const job of jobs) {
      await withLogScope({ job: job.name }, async () => {
        const started = Date.now();
        let error: string | undefined;
        try {
          await job.run(ctx);
          log(null, "info", "job finished", { ms: Date.now() - started });
        } catch (e) {
          error = e instanceof Error ? e.message : String(e);
          log(null, "error", "job failed", { error, ms: Date.now() - started });
        }
        results.push(error === undefined ? { name: job.name, ok: true } : { name: job.name, ok: false, error });
        try {
          await recordJobRun(ctx.db, { job: job.name, cron, runId, startedAt: new Date(started), finishedAt: new Date(), error });
        } catch (e) {
          log(null, "error", "recording the job run failed", { error: e instanceof Error ? e.message : String(e) });
        }
      });
    }
    return results;
  });
}
