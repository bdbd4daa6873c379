// What every scheduled job is handed, and the shape of a job: the runner (index.ts) and each job
// import these, so no job imports the runner.
import type { Database } from "../db/client";
import type { AppConfig } from "../env";

/**
 * `search`: the search database's primary (decision 059); absent where a caller has none, and its job
 * then skips. `webhookQueue`: custom webhooks' delivery queue (decision 070), absent likewise.
 */
export type JobContext = { db: Database; config: AppConfig; now: Date; search?: D1Database; webhookQueue?: Queue };
export type Job = { name: string; run: (ctx: JobContext) => Promise<unknown> };
