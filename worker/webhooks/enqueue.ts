// The producer side of custom webhooks (docs/webhooks.md, decision 070): an event of an account
// becomes one delivery row per enabled endpoint subscribed to its type, on the account's shard
// (decision 078), and one queue message per delivery, naming that shard. Callable from a request (the
// events' subscribers) and from a scheduled job alike: it needs only the Worker's bindings, never a
// request context.
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@shared/webhooks";
import { createDb, type Database } from "../db/client";
import { webhookDeliveries, webhookEndpoints } from "../db/schema";
import { primaryOf } from "../db/sessions";
import { SHARD_BINDING, shardDatabase, shardNameOfAccount, type Shard } from "../db/shards";
import { log } from "../lib/log";
import { hasWebhooksPlan } from "./plan";

export { WEBHOOK_EVENT_TYPES, type WebhookEventType };

/**
 * One queue message: attempt number `attempt` of the delivery `deliveryId` (its webhook-id), whose
 * rows are on the shard `shard` (its binding's name). The consumer parses every message with this
 * schema: the attempt number is what lets one claim per attempt be made and the shard is where the
 * claim and the attempt are written, so a message without either is dropped, never run.
 */
export const webhookMessage = z.strictObject({
  deliveryId: z.string().min(1).max(64),
  attempt: z.number().int().min(1),
  shard: z.string().regex(SHARD_BINDING),
});
export type WebhookMessage = z.infer<typeof webhookMessage>;

/** The bindings webhooks need: the directory database, the shards (SHARD_0 …) and the delivery queue (absent: nothing is sent). */
export type WebhookEnv = { DB: D1Database; WEBHOOK_QUEUE?: Queue } & Record<string, unknown>;

/** A shard on its primary, by its binding's name (work outside a request writes what others then read). */
export const shardPrimary = (env: Record<string, unknown>, name: string): Shard => ({ name, db: createDb(primaryOf(shardDatabase(env, name))) });

/** The body every attempt of a delivery sends (Standard Webhooks' payload shape). */
export type WebhookPayload = { type: WebhookEventType; timestamp: string; data: Record<string, unknown> };

type EndpointRef = { id: string; userId: string };

/** A new delivery id, sent as `webhook-id`. */
export const newDeliveryId = () => `msg_${crypto.randomUUID().replaceAll("-", "")}`;

/**
 * Writes one pending delivery per endpoint in one batch on the account's shard, then queues their
 * first attempts (each message naming the shard). A failed send leaves the deliveries pending: the
 * webhook sweep (worker/jobs) queues them again.
 */
export async function createDeliveries(
  shard: Shard,
  queue: Queue | undefined,
  endpoints: EndpointRef[],
  type: WebhookEventType,
  data: Record<string, unknown>,
  now = new Date(),
): Promise<string[]> {
  if (endpoints.length === 0) return [];
  const { db } = shard;
  const at = now.toISOString();
  const payload = JSON.stringify({ type, timestamp: at, data } satisfies WebhookPayload);
  const rows = endpoints.map((e) => ({ id: newDeliveryId(), endpointId: e.id, userId: e.userId, eventType: type, payload, nextAttemptAt: at, createdAt: at }));
  const [first, ...rest] = rows.map((row) => db.insert(webhookDeliveries).values(row));
  await db.batch([first, ...rest]);
  await queueAttempts(queue, rows.map((r) => ({ deliveryId: r.id, attempt: 1, shard: shard.name })));
  return rows.map((r) => r.id);
}

/** Sends attempt messages, each after its delay (seconds). */
export async function queueAttempts(queue: Queue | undefined, messages: (WebhookMessage & { delaySeconds?: number })[]) {
  if (messages.length === 0) return;
  if (!queue) {
    log(null, "warn", "no WEBHOOK_QUEUE bound: webhook deliveries stay pending", { deliveries: messages.length });
    return;
  }
  // sendBatch takes at most 100 messages.
  for (let i = 0; i < messages.length; i += 100) {
    await queue.sendBatch(
      messages.slice(i, i + 100).map(({ delaySeconds, ...body }) => ({ body: body satisfies WebhookMessage, contentType: "json" as const, ...(delaySeconds ? { delaySeconds } : {}) })),
    );
  }
}

/** The account's enabled endpoints that subscribe to `type` (`shard`: the account's). */
export async function subscribedEndpoints(shard: Database, userId: string, type: WebhookEventType): Promise<EndpointRef[]> {
  const rows = await shard
    .select({ id: webhookEndpoints.id, userId: webhookEndpoints.userId, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.enabled, true)));
  return rows.filter((r) => (JSON.parse(r.events) as string[]).includes(type)).map(({ id, userId }) => ({ id, userId }));
}

/**
 * Sends `type` with `data` to every enabled endpoint of the account that subscribes to it: the
 * delivery rows are written on its shard, then the queue messages sent. Resolves once both are
 * done. `account`: its id and shard, or its id alone (the shard is then read from the directory; an
 * account the directory does not place, e.g. deleted meanwhile, is sent nothing).
 */
export async function enqueueWebhookEvent(
  env: WebhookEnv,
  account: string | { id: string; shard: string },
  type: WebhookEventType,
  data: Record<string, unknown>,
  now = new Date(),
): Promise<void> {
  const directory = createDb(primaryOf(env.DB));
  const userId = typeof account === "string" ? account : account.id;
  const shard = typeof account === "string" ? await shardNameOfAccount(directory, account) : account.shard;
  if (!shard) return;
  await sendWebhookEvent({ directory, shard: shardPrimary(env, shard) }, env.WEBHOOK_QUEUE, userId, type, data, now);
}

/** enqueueWebhookEvent for a caller that holds the databases already (a scheduled job): the directory and the account's shard. */
export async function sendWebhookEvent(
  dbs: { directory: Database; shard: Shard },
  queue: Queue | undefined,
  userId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  now = new Date(),
) {
  const endpoints = await subscribedEndpoints(dbs.shard.db, userId, type);
  // Custom webhooks are a Pro feature: an account whose plan lapsed keeps its endpoints, but they hear nothing.
  if (endpoints.length === 0 || !(await hasWebhooksPlan(dbs.directory, userId))) return;
  await createDeliveries(dbs.shard, queue, endpoints, type, data, now);
}
