// Custom webhooks' scheduled work (decision 070), on every shard at once (decision 078; a failing
// shard is reported after the others have done their part): after the nightly report,
// daily_report.ready to the accounts that see it, and the 30-day log pruned; every 10 minutes,
// deliveries whose queue message was lost are queued again.
import { nyYesterday } from "@shared/ny-time";
import { eachShard } from "../db/shards";
import { announceDailyReport, pruneWebhookLog, requeueLostDeliveries } from "../webhooks/upkeep";
import type { Job } from "./context";

export const dailyReportWebhookJob: Job = {
  name: "daily-report-webhooks",
  run: (ctx) =>
    eachShard(ctx.shards, async (shard) => ({
      announced: await announceDailyReport(ctx.db, shard, ctx.webhooks?.WEBHOOK_QUEUE, nyYesterday(ctx.now), ctx.now),
      pruned: await pruneWebhookLog(shard.db, ctx.now),
    })),
};

export const webhookRequeueJob: Job = { name: "webhook-requeue", run: (ctx) => eachShard(ctx.shards, (shard) => requeueLostDeliveries(shard, ctx.webhooks?.WEBHOOK_QUEUE, ctx.now)) };
