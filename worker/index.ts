import { app } from "./app";
import { createDb } from "./db/client";
import { parseConfig, type Bindings } from "./env";
import { runJobs } from "./jobs";

export default {
  fetch: app.fetch,
  async scheduled(controller: ScheduledController, env: Bindings, ctx: ExecutionContext) {
    const config = parseConfig(env);
    const db = createDb(env.DB);
    ctx.waitUntil(runJobs(controller.cron, { db, config, now: new Date(controller.scheduledTime) }));
  },
} satisfies ExportedHandler<Bindings>;
