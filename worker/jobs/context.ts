// What every scheduled job is handed, and the shape of a job: the runner (index.ts) and each job
// import these, so no job imports the runner.
import type { Database } from "../db/client";
import type { AppConfig } from "../env";
import type { WebhookEnv } from "../webhooks/enqueue";
import type { Shard } from "../db/shards";

/** `webhooks`: the bindings custom webhooks send through (decision 070); absent, the alert job sends none. */
/** `shards`: every shard's primary (decision 076), in the shards' order; `db` is the directory's. */
/** `callText`: the call text bucket (decision 077), whence the search healing pass and the shard moves read transcripts; absent, those jobs skip. */
export type JobContext = { db: Database; config: AppConfig; now: Date; shards: Shard[]; webhooks?: WebhookEnv; callText?: R2Bucket };
export type Job = { name: string; run: (ctx: JobContext) => Promise<unknown> };
