// The alert rules, evaluated every minute (decision 071); their history pruned nightly.
import { createMail } from "../providers";
import { webhookChannel } from "../services/alerts/channels";
import { evaluateAlerts } from "../services/alerts/evaluate";
import { pruneAlertHistory } from "../services/alerts/rules";
import type { Job } from "./context";

/** A run whose mails or webhooks failed fails, so the job's last error is shown to admins (decision 025). */
export const alertJob: Job = {
  name: "alerts",
  run: async (ctx) => {
    const run = await evaluateAlerts({ db: ctx.db, mail: createMail(ctx.config, ctx.db), webhook: webhookChannel(ctx.webhooks), publicUrl: ctx.config.PUBLIC_URL }, ctx.now);
    if (run.mailsFailed + run.webhooksFailed > 0) throw new Error(`${run.mailsFailed} alert mails and ${run.webhooksFailed} alert webhooks failed (see the log)`);
    return run;
  },
};

/** Alerts are kept 90 days. */
export const alertPruneJob: Job = { name: "alert-history-prune", run: (ctx) => pruneAlertHistory(ctx.db, ctx.now) };
