import { app } from "./app";
import { createDb } from "./db/client";
import { parseConfig, type Bindings } from "./env";
import { runJobs } from "./jobs";

export default {
  fetch: app.fetch,
  async scheduled(controller: ScheduledController, env: Bindings, ctx: ExecutionContext) {
    const config = parseConfig(env);
    const db = createDb(env.DB);
    // Each run gets its own id, carried by every log line of the run and stored in job_runs.
    ctx.waitUntil(runJobs(controller.cron, { db, config, now: new Date(controller.scheduledTime) }, crypto.randomUUID()));
  },
} satisfies ExportedHandler<Bindings>;
