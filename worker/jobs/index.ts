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
import { shardMovesJob } from "./shard-moves";
import { pruneRateLimits } from "../db/rate-limit";
import { recordJobRun } from "../services/job-runs";
import { pruneLiveChanges } from "../live/changes";
import { healSearchIndex, healTextReadsPerShard } from "../services/call-search";
import { eachShard } from "../db/shards";
import { log, withLogScope } from "../lib/log";
import { shardSizeJob } from "./shard-sizes";

/**
 * Rate-limit counters and sign-in failure counts older than a day are deleted ([013](../../docs/decisions/013-brute-force-limits.md)),
 * and the live feed's changes older than its kept days, on every shard at once (a failing shard is
 * named in the job's error after the others are pruned).
 */
export const pruneCountersJob: Job = {
  name: "prune-counters",
  run: async (ctx) => {
    const [rateLimits, signInFailures, liveChanges] = await Promise.allSettled([
      pruneRateLimits(ctx.db, ctx.now.getTime()),
      pruneSignInFailures(ctx.db, ctx.now.getTime()),
      // The live feed's change log keeps its last days (decision 058); it lives on each shard.
      eachShard(ctx.shards, (s) => pruneLiveChanges(s.db, ctx.now)),
    ]);
    for (const r of [rateLimits, signInFailures, liveChanges]) if (r.status === "rejected") throw r.reason;
    const value = <T>(r: PromiseSettledResult<T>) => (r as PromiseFulfilledResult<T>).value;
    return { rateLimits: value(rateLimits), signInFailures: value(signInFailures), liveChanges: value(liveChanges) };
  },
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
    // First, so new accounts are placed by sizes at most ten minutes old (decision 076).
    shardSizeJob,
    hourlyRollupJob,
    // After the roll-ups, so the month's minutes read the freshly rolled-up days.
    usageAlertJob,
    // Only with the real adapter: locally the seed holds the calls and there is nothing to read.
    { name: "aircall-backfill", run: async (ctx) => (usesAircall(ctx.config) ? runAircallBackfill(ctx, createCallCentre(ctx.config)) : { skipped: true }) },
    // Indexes the call logs whose index step was lost since the last run (decision 059), on every
    // shard at once: each shard holds its accounts' calls and their index; the transcripts are R2's
    // (decision 077), so without the bucket the job skips.
    { name: "search-heal", run: async ({ db, shards, callText }) => (callText ? eachShard(shards, (shard) => healSearchIndex(db, shard.db, callText, { maxRows: healTextReadsPerShard(shards.length) })) : { skipped: true }) },
    // Webhook deliveries whose queue message was lost (decision 070).
    webhookRequeueJob,
  ],
  // Each account move between shards goes one step further (decision 080).
  [MINUTE_CRON]: [alertJob, shardMovesJob],
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
