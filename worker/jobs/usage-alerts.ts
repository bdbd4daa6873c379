// The owner's mails at 80 % and 100 % of the plan's call minutes, checked every ten minutes.
import { createMail } from "../providers";
import type { MailPort } from "../providers";
import { sendUsageAlerts } from "../services/usage-alerts";
import type { Job, JobContext } from "./context";

export async function runUsageAlertJob(ctx: JobContext, mail: MailPort = createMail(ctx.config, ctx.db)) {
  return sendUsageAlerts({ db: ctx.db, shards: ctx.shards, mail, publicUrl: ctx.config.PUBLIC_URL }, ctx.now);
}

/** A run with failed sends fails, so the job's last error is shown to admins (decision 025); the next run retries them. */
export const usageAlertJob: Job = {
  name: "usage-alert-mail",
  run: async (ctx) => {
    const run = await runUsageAlertJob(ctx);
    if (run.failed > 0) throw new Error(`${run.failed} usage alert mails for ${run.month} failed (see the log); the next run retries them`);
    return run;
  },
};
