// The last run of each scheduled job (job_runs), written after every job and read by /api/health.
import { asc } from "drizzle-orm";
import type { Database } from "../db/client";
import { jobRuns } from "../db/schema";

/** Longest error text kept; a stack-sized message would bloat the health answer. */
export const JOB_ERROR_MAX_CHARS = 1000;

export type JobRunRecord = { job: string; cron: string; runId: string; startedAt: Date; finishedAt: Date; error?: string };

/** One upsert per job: the last run always, the last error only when this run failed. */
export async function recordJobRun(db: Database, run: JobRunRecord) {
  const finishedAt = run.finishedAt.toISOString();
  const failed = run.error !== undefined;
  const error = failed ? run.error!.slice(0, JOB_ERROR_MAX_CHARS) : null;
  const values = {
    job: run.job,
    cron: run.cron,
    lastRunId: run.runId,
    lastStartedAt: run.startedAt.toISOString(),
    lastFinishedAt: finishedAt,
    lastDurationMs: Math.max(0, run.finishedAt.getTime() - run.startedAt.getTime()),
    lastOk: !failed,
  };
  await db
    .insert(jobRuns)
    .values({ ...values, lastError: error, lastErrorAt: failed ? finishedAt : null, lastErrorRunId: failed ? run.runId : null })
    .onConflictDoUpdate({
      target: jobRuns.job,
      set: failed
        ? { ...values, lastError: error, lastErrorAt: finishedAt, lastErrorRunId: run.runId }
        : values, // a success leaves the last error (and its time) as it was
    });
}

export type JobRunView = {
  job: string;
  cron: string;
  lastRunId: string;
  lastRunAt: string;
  lastDurationMs: number;
  lastOk: boolean;
  lastError: string | null;
  lastErrorAt: string | null;
  lastErrorRunId: string | null;
};

export async function listJobRuns(db: Database): Promise<JobRunView[]> {
  const rows = await db.select().from(jobRuns).orderBy(asc(jobRuns.job));
  return rows.map((r) => ({
    job: r.job,
    cron: r.cron,
    lastRunId: r.lastRunId,
    lastRunAt: r.lastStartedAt,
    lastDurationMs: r.lastDurationMs,
    lastOk: r.lastOk,
    lastError: r.lastError,
    lastErrorAt: r.lastErrorAt,
    lastErrorRunId: r.lastErrorRunId,
  }));
}
