// Custom webhooks' scheduled work (decision 070): after the nightly report, daily_report.ready to the
// accounts that see it, and the 30-day log pruned; every 10 minutes, deliveries whose queue message
// was lost are queued again.
import { nyYesterday } from "@shared/ny-time";
import { announceDailyReport, pruneWebhookLog, requeueLostDeliveries } from "../webhooks/upkeep";
import type { Job } from "./context";

export const dailyReportWebhookJob: Job = {
  name: "daily-report-webhooks",
  run: async (ctx) => ({
    announced: await announceDailyReport(ctx.db, ctx.webhooks?.WEBHOOK_QUEUE, nyYesterday(ctx.now), ctx.now),
    pruned: await pruneWebhookLog(ctx.db, ctx.now),
  }),
};

export const webhookRequeueJob: Job = { name: "webhook-requeue", run: (ctx) => requeueLostDeliveries(ctx.db, ctx.webhooks?.WEBHOOK_QUEUE, ctx.now) };
