// The daily report by email (decision 060): after the daily-report job has stored yesterday's
// reports, each subscriber gets one mail for the day, however often the cron runs.
import { createMail } from "../providers";
import type { MailPort } from "../providers";
import { sendReportMails } from "../services/report-mail";
import type { Job, JobContext } from "./context";

export async function runReportMailJob(ctx: JobContext, mail: MailPort = createMail(ctx.config, ctx.db)) {
  return sendReportMails({ db: ctx.db, mail, publicUrl: ctx.config.PUBLIC_URL }, ctx.now);
}

/** A run with failed sends fails, so the job's last error is shown to admins (decision 025); a rerun retries them. */
export const reportMailJob: Job = {
  name: "daily-report-mail",
  run: async (ctx) => {
    const run = await runReportMailJob(ctx);
    if (run.failed > 0) throw new Error(`${run.failed} of ${run.subscribers} daily report mails for ${run.day} failed (see the log); a rerun retries them`);
    return run;
  },
};
