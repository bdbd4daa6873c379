import { app } from "./app";
import { createDb } from "./db/client";
import { primaryOf } from "./db/sessions";
import { shardPrimaries } from "./db/shards";
import { parseConfig, type Bindings } from "./env";
import { runJobs } from "./jobs";
import { consumeWebhooks } from "./webhooks/consumer";

// The live feed's Durable Object class (decision 058), bound as LIVE_FEED in wrangler.toml.
export { LiveFeed } from "./live/feed";

export default {
  fetch: app.fetch,
  async scheduled(controller: ScheduledController, env: Bindings, ctx: ExecutionContext) {
    const config = parseConfig(env);
    // Jobs write what requests then read, and read what webhooks just wrote: always the primary.
    const db = createDb(primaryOf(env.DB));
    // Each run gets its own id, carried by every log line of the run and stored in job_runs.
    const shards = shardPrimaries(env);
    ctx.waitUntil(runJobs(controller.cron, { db, config, now: new Date(controller.scheduledTime), shards, webhooks: env, callText: env.CALL_TEXT }, crypto.randomUUID()));
  },
  // Custom webhooks' attempts (decision 070). The local receiver is reached through the app itself.
  // Bodies are unknown until the consumer parses each one with its schema.
  async queue(batch: MessageBatch<unknown>, env: Bindings, ctx: ExecutionContext) {
    await consumeWebhooks(batch, env, (request) => Promise.resolve(app.fetch(request, env, ctx)));
  },
} satisfies ExportedHandler<Bindings, unknown>;
