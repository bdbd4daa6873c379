// The webhooks' upkeep, run by the scheduled jobs: the delivery log is kept 30 days; a pending
// delivery whose next attempt is long overdue lost its queue message (a send that failed after the
// rows were written) and is queued again; the nightly daily report is announced to the accounts that
// see it. Each runs per shard (decision 078): the jobs run them on every shard at once.
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { WEBHOOK_LOG_DAYS } from "@shared/webhooks";
import type { Database } from "../db/client";
import { profiles, webhookAttempts, webhookDeliveries, webhookEndpoints } from "../db/schema";
import type { Shard } from "../db/shards";
import { queueAttempts, sendWebhookEvent } from "./enqueue";

/** An attempt this late (past its due time) lost its message. */
const OVERDUE_MS = 15 * 60_000;
/** At most this many lost deliveries are queued again per run. */
const REQUEUE_BATCH = 500;

/** Deletes a shard's deliveries and attempts older than the log's 30 days (pending ones are kept until decided). */
export async function pruneWebhookLog(db: Database, now: Date) {
  const cutoff = new Date(now.getTime() - WEBHOOK_LOG_DAYS * 86_400_000).toISOString();
  const [attempts, deliveries] = await db.batch([
    db.delete(webhookAttempts).where(lt(webhookAttempts.attemptedAt, cutoff)),
    db.delete(webhookDeliveries).where(and(lt(webhookDeliveries.createdAt, cutoff), sql`${webhookDeliveries.status} <> 'pending'`)),
  ]);
  return { attempts: attempts.meta.changes, deliveries: deliveries.meta.changes };
}

/** Queues again the shard's pending deliveries whose next attempt is more than 15 minutes overdue (their messages name the shard). */
export async function requeueLostDeliveries(shard: Shard, queue: Queue | undefined, now: Date) {
  if (!queue) return { requeued: 0 };
  const { db } = shard;
  const overdue = new Date(now.getTime() - OVERDUE_MS).toISOString();
  const lost = await db
    .select({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, "pending"), lt(webhookDeliveries.nextAttemptAt, overdue)))
    .limit(REQUEUE_BATCH);
  if (lost.length === 0) return { requeued: 0 };
  // Due now: the next run queues them again only if this message is lost too. The write is
  // conditional on the row being as read (still pending, still overdue), so two runs at once queue
  // each delivery once, with the attempt number after the count the write returns. A message that
  // was only late and this one carry the same attempt number: whichever comes first claims the
  // attempt (worker/webhooks/deliver.ts), the other is skipped.
  const requeued: { id: string; attempts: number }[] = [];
  for (let i = 0; i < lost.length; i += 90) {
    const ids = lost.slice(i, i + 90).map((d) => d.id);
    requeued.push(
      ...(await db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: now.toISOString() })
        .where(and(inArray(webhookDeliveries.id, ids), eq(webhookDeliveries.status, "pending"), lt(webhookDeliveries.nextAttemptAt, overdue)))
        .returning({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts })),
    );
  }
  await queueAttempts(queue, requeued.map((d) => ({ deliveryId: d.id, attempt: d.attempts + 1, shard: shard.name })));
  return { requeued: requeued.length };
}

/**
 * `daily_report.ready` for each account of the shard that sees the daily reports (the
 * shopwindows_info flag, or an admin: the directory's profile) and has an enabled endpoint
 * subscribed to it; the plan is checked per account as for every event.
 */
export async function announceDailyReport(directory: Database, shard: Shard, queue: Queue | undefined, day: string, now: Date) {
  const subscribed = await shard.db
    .selectDistinct({ userId: webhookEndpoints.userId })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.enabled, true), sql`${webhookEndpoints.events} like '%"daily_report.ready"%'`));
  if (subscribed.length === 0) return { accounts: 0 };
  // The ids go as one JSON parameter: a parameter each would pass D1's 100 bound parameters.
  const accounts = await directory
    .select({ userId: profiles.id })
    .from(profiles)
    .where(
      and(
        sql`${profiles.id} in (select value from json_each(${JSON.stringify(subscribed.map((a) => a.userId))}))`,
        sql`(${profiles.shopwindowsInfo} = 1 or ${profiles.isAdmin} = 1)`,
      ),
    );
  for (const { userId } of accounts) {
    await sendWebhookEvent({ directory, shard }, queue, userId, "daily_report.ready", { day, list_url: `/api/daily-reports?startDate=${day}&endDate=${day}` }, now);
  }
  return { accounts: accounts.length };
}
