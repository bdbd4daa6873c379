// What every scheduled job is handed, and the shape of a job: the runner (index.ts) and each job
// import these, so no job imports the runner.
import type { Database } from "../db/client";
import type { AppConfig } from "../env";
import type { WebhookEnv } from "../webhooks/enqueue";

/** `search`: the search database's primary (decision 059); absent where a caller has none, and its job then skips. */
/** `webhooks`: the bindings custom webhooks send through (decision 070); absent, the alert job sends none. */
/** `callText`: the call text bucket (decision 077), which the search index's healing pass reads transcripts from; absent, that job skips. */
export type JobContext = { db: Database; config: AppConfig; now: Date; search?: D1Database; webhooks?: WebhookEnv; callText?: R2Bucket };
export type Job = { name: string; run: (ctx: JobContext) => Promise<unknown> };
