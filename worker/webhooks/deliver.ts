// The consumer side of custom webhooks (docs/webhooks.md, decision 070): one queue message is one
// attempt of one delivery. The attempt checks the URL again, signs the stored body with the
// endpoint's secrets (Standard Webhooks), posts it with a 10 s timeout and no redirects followed,
// reads at most 64 KB of the answer and logs the first 1 KB. A failed attempt queues the next one
// after the schedule's delay (a new message, so the queue's own retries only cover a crash); after
// the last one the delivery is failed. An endpoint whose deliveries have all failed for 5 days is
// disabled and its owner mailed. A delivery's rows are on its account's shard, which its message
// names (decision 078); the owner's address is the directory's.
import { and, eq, isNull, sql } from "drizzle-orm";
import {
  WEBHOOK_DISABLE_AFTER_DAYS,
  WEBHOOK_LOGGED_BODY_BYTES,
  WEBHOOK_MAX_READ_BYTES,
  WEBHOOK_RETRY_DELAYS_SECONDS,
  WEBHOOK_TIMEOUT_MS,
} from "@shared/webhooks";
import type { Database } from "../db/client";
import { profiles, webhookAttempts, webhookDeliveries, webhookEndpoints } from "../db/schema";
import { log } from "../lib/log";
import type { MailPort } from "../providers";
import { SHARD_ROW_ID } from "../db/shards";
import { queueAttempts, webhookMessage, type WebhookMessage } from "./enqueue";
import { signedHeaders, signingSecrets } from "./signing";
import { checkWebhookUrl, type Resolver } from "./url-safety";

export type DeliveryDeps = {
  /** The directory (the owner's address when an endpoint is disabled). */
  db: Database;
  /** A shard's database by its binding's name (a message names its delivery's); throws for a name not bound. */
  shard: (name: string) => Database;
  queue: Queue | undefined;
  production: boolean;
  /** The clock: the attempt's time, its signature's timestamp and the next attempt's due time. */
  now: () => Date;
  /** The network. */
  fetch: typeof fetch;
  /** Delivers to the local receiver in-process (outside production). */
  localDeliver?: (request: Request) => Promise<Response>;
  /** Resolves host names before an attempt (every deployment: DNS over HTTPS, url-safety.ts urlChecks). */
  resolve?: Resolver;
  /** Origins besides the loopback ones whose local-receiver path is the app's own (outside production). */
  localOrigins?: readonly string[];
  /** The owner's mail when an endpoint is disabled. */
  mail?: MailPort;
  /** The retry delays (seconds before attempt n+1 is index n); the schedule unless a bench compresses it. */
  delays?: readonly number[];
  /** Milliseconds an attempt waits for an answer. */
  timeoutMs?: number;
};

export type AttemptOutcome = { status: "succeeded" | "retrying" | "failed" | "skipped"; responseStatus?: number | null; nextDelaySeconds?: number; error?: string };

/** Reads at most `max` bytes of a body, then cancels the rest. */
async function readCapped(res: Response, max: number): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const out = new Uint8Array(Math.min(size, max));
  let offset = 0;
  for (const c of chunks) {
    if (offset >= out.length) break;
    out.set(c.subarray(0, out.length - offset), offset);
    offset += c.byteLength;
  }
  return out;
}

/** The first `bytes` of an answer as text (a cut multi-byte character becomes U+FFFD). */
const firstBytesText = (bytes: Uint8Array, max: number) => new TextDecoder().decode(bytes.subarray(0, max));

/**
 * Runs one attempt of a delivery (the message's), records it and queues the next one if due.
 *
 * The attempt is claimed before anything is sent, by one conditional write: the delivery's attempt
 * count goes from n-1 to n only while it is pending and still at n-1. Of any number of messages for
 * attempt n (the queue's redelivery, a resend, the upkeep's requeue of a late message) exactly one
 * claims it; the others are skipped. The claimer alone sends, records and queues attempt n+1, so a
 * delivery has at most one attempt in flight and one next attempt queued. A claim whose run dies
 * before recording leaves the delivery pending with `next_attempt_at` at the claim's time: the
 * upkeep queues the following attempt once that is 15 minutes overdue.
 */
export async function attemptDelivery(deps: DeliveryDeps, message: WebhookMessage): Promise<AttemptOutcome> {
  const db = deps.shard(message.shard);
  const now = deps.now();
  const at = now.toISOString();
  const attempt = message.attempt;
  const d = webhookDeliveries;
  // The claim and the endpoint's read, in one round trip.
  const [claimed, endpoints] = await db.batch([
    db
      .update(d)
      .set({ attempts: attempt, lastAttemptAt: at, nextAttemptAt: at })
      .where(and(eq(d.id, message.deliveryId), eq(d.status, "pending"), eq(d.attempts, attempt - 1)))
      .returning(),
    db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, sql`(select ${d.endpointId} from ${d} where ${d.id} = ${message.deliveryId})`)),
  ]);
  const delivery = claimed[0];
  const endpoint = endpoints[0];
  // Deleted with its endpoint, already decided, or an attempt another message has claimed.
  if (!delivery || !endpoint) return { status: "skipped" };
  const delays = deps.delays ?? WEBHOOK_RETRY_DELAYS_SECONDS;

  let responseStatus: number | null = null;
  let responseBody: string | null = null;
  let error: string | null = null;
  const started = Date.now();
  if (!endpoint.enabled) {
    error = "endpoint disabled";
  } else {
    const verdict = await checkWebhookUrl(endpoint.url, { production: deps.production, resolve: deps.resolve, localOrigins: deps.localOrigins });
    if (!verdict.ok) {
      error = `URL refused: ${verdict.reason}`;
    } else {
      const secrets = signingSecrets(endpoint, at);
      const headers = await signedHeaders(secrets, delivery.id, Math.floor(now.getTime() / 1000), delivery.payload);
      const request = new Request(verdict.url, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", "user-agent": "voice-agent-ops-webhooks/1" },
        body: delivery.payload,
        redirect: "manual",
      });
      try {
        const send = verdict.localInbox && deps.localDeliver ? deps.localDeliver : (r: Request) => deps.fetch(r, { signal: AbortSignal.timeout(deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS) });
        const res = await send(request);
        responseStatus = res.status;
        responseBody = firstBytesText(await readCapped(res, WEBHOOK_MAX_READ_BYTES), WEBHOOK_LOGGED_BODY_BYTES);
        if (res.status >= 300 && res.status < 400) error = "redirects are not followed";
      } catch (e) {
        error = e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError") ? `no answer within ${(deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS) / 1000} s` : `request failed: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
  }
  const durationMs = Date.now() - started;
  const succeeded = responseStatus !== null && responseStatus >= 200 && responseStatus < 300;
  // A disabled endpoint's deliveries fail at once; otherwise the schedule's next delay, if any is left.
  const nextDelay = !succeeded && endpoint.enabled && attempt < delays.length ? delays[attempt] : undefined;
  const status = succeeded ? "succeeded" : nextDelay === undefined ? "failed" : "pending";
  const nextAt = nextDelay === undefined ? null : new Date(now.getTime() + nextDelay * 1000).toISOString();

  await db.batch([
    db.insert(webhookAttempts).values({ id: sql.raw(SHARD_ROW_ID), deliveryId: delivery.id, endpointId: endpoint.id, attempt, attemptedAt: at, responseStatus, durationMs, responseBody, error }),
    // Only the claim's own row: the attempt count is still this attempt's.
    db
      .update(d)
      .set({ status, nextAttemptAt: nextAt })
      .where(and(eq(d.id, delivery.id), eq(d.attempts, attempt))),
    succeeded
      ? db.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id))
      : db.update(webhookEndpoints).set({ failingSince: at }).where(and(eq(webhookEndpoints.id, endpoint.id), isNull(webhookEndpoints.failingSince))),
  ]);
  if (nextDelay !== undefined) await queueAttempts(deps.queue, [{ deliveryId: delivery.id, attempt: attempt + 1, shard: message.shard, delaySeconds: nextDelay }]);
  if (!succeeded && endpoint.enabled) await disableIfFailingTooLong(deps, db, endpoint.id, now);
  const outcome: AttemptOutcome = { status: succeeded ? "succeeded" : nextDelay === undefined ? "failed" : "retrying", responseStatus };
  if (nextDelay !== undefined) outcome.nextDelaySeconds = nextDelay;
  if (error) outcome.error = error;
  return outcome;
}

/**
 * Disables the endpoint when nothing has succeeded since its first failure 5 days ago or more, and
 * mails its owner once (the update that disables it is the one that sends the mail).
 */
async function disableIfFailingTooLong(deps: DeliveryDeps, db: Database, endpointId: string, now: Date) {
  const cutoff = new Date(now.getTime() - WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000).toISOString();
  const reason = `Every delivery failed for ${WEBHOOK_DISABLE_AFTER_DAYS} days`;
  const disabled = await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, updatedAt: now.toISOString() })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true), sql`${webhookEndpoints.failingSince} <= ${cutoff}`))
    .returning({ url: webhookEndpoints.url, userId: webhookEndpoints.userId });
  const [endpoint] = disabled;
  if (!endpoint) return;
  const owner = await deps.db.select({ email: profiles.email }).from(profiles).where(eq(profiles.id, endpoint.userId)).get();
  if (!owner || !deps.mail) return;
  try {
    await deps.mail.send({
      to: owner.email,
      kind: "webhook_disabled",
      subject: "A webhook endpoint was disabled",
      text:
        `Every delivery to your webhook endpoint ${endpoint.url} has failed for ${WEBHOOK_DISABLE_AFTER_DAYS} days, so it was disabled ` +
        `and receives no more events.\n\nFix the receiver, then enable the endpoint again in Settings → Webhooks; ` +
        `you can resend any delivery from its log.`,
      idempotencyKey: `webhook-disabled:${endpointId}:${now.toISOString().slice(0, 10)}`,
    });
  } catch (e) {
    log(null, "warn", "mailing a disabled webhook endpoint's owner failed", { endpointId, error: e instanceof Error ? e.message : String(e) });
  }
}

/**
 * The queue handler's work: each message is one attempt. A message that does not parse as a
 * WebhookMessage is acknowledged, logged and dropped (retrying it would not make it valid). A
 * message whose attempt threw (the database unreachable) is retried by the queue; every other one
 * is acknowledged, its outcome recorded.
 */
export async function handleWebhookBatch(batch: MessageBatch<unknown>, deps: DeliveryDeps) {
  // The batch's attempts go to different endpoints (or the same one): none waits for another's answer.
  await Promise.all(
    batch.messages.map(async (message) => {
      const parsed = webhookMessage.safeParse(message.body);
      if (!parsed.success) {
        log(null, "warn", "a malformed webhook queue message was dropped", {
          messageId: message.id,
          issues: parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`),
        });
        message.ack();
        return;
      }
      try {
        await attemptDelivery(deps, parsed.data);
        message.ack();
      } catch (e) {
        log(null, "error", "a webhook attempt could not run", { deliveryId: parsed.data.deliveryId, error: e instanceof Error ? e.message : String(e) });
        message.retry({ delaySeconds: 30 });
      }
    }),
  );
}
