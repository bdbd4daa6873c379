// The operations on an account's webhook endpoints (docs/product/webhooks.md), as plain functions of
// the account: the dashboard's routes call them, and so can the public API's. Every function takes
// the caller's account id and answers 404 for another account's endpoint or delivery. The endpoints,
// deliveries and attempts are on the account's shard; the plan and the audit log are the directory's
// (decision 078). The two cannot share a batch: an add writes the endpoint on the shard first and its
// audit row after (createEndpoint); a change of an endpoint already read (update, delete, rotation)
// writes its audit row beside the change (withAudit), one round trip for both, as before.
import { and, desc, eq, getTableColumns, lt, ne, or, sql } from "drizzle-orm";
import type { WebhookAttemptView, WebhookDeliveryListResponse, WebhookDeliveryView, WebhookEndpointView } from "@shared/schemas/webhooks";
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_MAX_SIGNING_SECRETS, WEBHOOK_ROTATION_OVERLAP_HOURS, type WebhookEventType } from "@shared/webhooks";
import type { Database } from "../db/client";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../db/schema";
import type { Shard } from "../db/shards";
import { log } from "../lib/log";
import { WEBHOOKS_API_TEXT } from "@shared/messages";
import { ApiError, badRequest, conflict, notFound } from "../lib/errors";
import { auditStatement, type AdminActor } from "../services/admin/audit-log";
import { createDeliveries, queueAttempts } from "./enqueue";
import { generateWebhookSecret } from "./signing";
import { checkWebhookUrl, type Resolver } from "./url-safety";

/**
 * What the operations need: the directory database (the audit log), the account's shard (its
 * endpoints, deliveries and attempts; its name goes in the queue's messages), the delivery queue,
 * whether this is production, and `allowed`, the caller's plan check already under way: each
 * operation awaits it beside its first read (one round trip for both) and always before it writes.
 */
export type EndpointDeps = {
  db: Database;
  shard: Shard;
  queue: Queue | undefined;
  production: boolean;
  now?: Date;
  allowed?: Promise<unknown>;
  resolve?: Resolver;
  localOrigins?: readonly string[];
};

/** Who changes an endpoint, for the audit log: the account, from where, and on /v1 the API key used. */
export type EndpointActor = AdminActor & { apiKeyId?: string };
/** What the operations that change an endpoint need: the above and the actor they record. */
export type EndpointWriteDeps = EndpointDeps & { actor: EndpointActor };

type AuditAction = "create_webhook_endpoint" | "update_webhook_endpoint" | "delete_webhook_endpoint" | "rotate_webhook_secret";

/** The audit row of an endpoint change, with the /v1 key that made it. */
function auditRow(deps: EndpointWriteDeps, action: AuditAction, detail: Record<string, unknown>) {
  const { apiKeyId, ...actor } = deps.actor;
  return auditStatement(deps.db, actor, action, { id: actor.id, email: actor.email }, apiKeyId ? { ...detail, api_key_id: apiKeyId } : detail);
}

/**
 * A change of an endpoint the request has just read (so it exists and is the caller's) on the shard,
 * and its audit row in the directory, sent together (one round trip). The audit log is append-only
 * and the two databases share no transaction, so: where the change then did not take (`took` false:
 * a concurrent change of the same endpoint won the race and this request answers 404 or 409), its
 * row stays and is logged as such; where the change took but the audit row failed, the request fails
 * (500) and the change is logged with the row's detail. `audit` null: nothing to record.
 */
async function withAudit<T>(
  deps: EndpointWriteDeps,
  change: Promise<T>,
  audit: { action: AuditAction; detail: Record<string, unknown> } | null,
  took: (result: T) => boolean,
): Promise<T> {
  const [changed, recorded] = await Promise.allSettled([change, audit ? auditRow(deps, audit.action, audit.detail) : Promise.resolve(null)]);
  if (changed.status === "rejected") throw changed.reason;
  if (!took(changed.value)) {
    if (audit && recorded.status === "fulfilled") log(null, "warn", "an audited webhook endpoint change lost a race and did not take", { actor: deps.actor.id, action: audit.action, detail: audit.detail });
    return changed.value;
  }
  if (recorded.status === "rejected") {
    log(null, "error", "a webhook endpoint change took but its audit row failed", { actor: deps.actor.id, action: audit?.action, detail: audit?.detail, error: String(recorded.reason) });
    throw recorded.reason;
  }
  return changed.value;
}

type EndpointRow = typeof webhookEndpoints.$inferSelect;

export const ENDPOINT_LIMIT_TEXT = `An account has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints. Delete one to add another.`;

/** The secret's first characters, to tell secrets apart in the list and the audit log. */
const secretPrefix = (secret: string) => `${secret.slice(0, 10)}…`;

export function endpointView(row: EndpointRow, now = new Date()): WebhookEndpointView {
  const overlap = row.previousSecret && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now.toISOString() ? row.previousSecretExpiresAt : null;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as WebhookEventType[],
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    secretPrefix: secretPrefix(row.secret),
    previousSecretExpiresAt: overlap,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * The URL as it may be stored, or a 400 naming the field `url` and the rule it broke. With a resolver
 * (every deployment: DNS over HTTPS, url-safety.ts urlChecks) the name's addresses are checked too.
 */
async function safeUrl(raw: string, deps: Pick<EndpointDeps, "production" | "resolve" | "localOrigins">): Promise<string> {
  const verdict = await checkWebhookUrl(raw, { production: deps.production, resolve: deps.resolve, localOrigins: deps.localOrigins });
  if (!verdict.ok) throw badRequest(`The URL ${verdict.reason}`, "url");
  return verdict.url.toString();
}

/** An endpoint URL's check, settled: the URL as stored, or the refusal (a 400 naming `url`). */
export type CheckedUrl = { url: string } | { error: unknown };

/**
 * Checks a new endpoint's URL (no database; DNS where a resolver is given). A route that checks it
 * before starting the plan check lets the add's insert go beside the plan check (createEndpoint).
 */
export const checkEndpointUrl = (raw: string, deps: Pick<EndpointDeps, "production" | "resolve" | "localOrigins">): Promise<CheckedUrl> =>
  safeUrl(raw, deps).then(
    (url) => ({ url }),
    (error: unknown) => ({ error }),
  );

/** The account's endpoint (404 for any other), read beside the caller's plan check. */
async function ownedEndpoint(deps: EndpointDeps, userId: string, endpointId: string): Promise<EndpointRow> {
  const [row] = await Promise.all([
    deps.shard.db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.userId, userId)))
      .get(),
    deps.allowed,
  ]);
  if (!row) throw notFound("Webhook endpoint not found");
  return row;
}

export async function listEndpoints(deps: EndpointDeps, userId: string): Promise<WebhookEndpointView[]> {
  const [rows] = await Promise.all([
    deps.shard.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId)).orderBy(webhookEndpoints.createdAt, webhookEndpoints.id),
    deps.allowed,
  ]);
  return rows.map((r) => endpointView(r, deps.now));
}

export async function getEndpoint(deps: EndpointDeps, userId: string, endpointId: string): Promise<WebhookEndpointView> {
  return endpointView(await ownedEndpoint(deps, userId, endpointId), deps.now);
}

/**
 * Adds an endpoint with a new secret (answered once). The limit is kept by the insert itself (it
 * inserts only while the account has fewer than the limit), so two concurrent adds cannot pass it.
 * The endpoint is written on the shard beside the plan check (one round trip), then its audit row in
 * the directory: written only where the insert took, so a refused add is never recorded. Where the
 * plan refuses, or the audit row fails, the endpoint is deleted again before the answer; between the
 * two round trips it hears no event unless the plan allows (every event checks the plan). `checked`:
 * the URL's check, when the caller made it before starting the plan check (so the insert overlaps it).
 */
export async function createEndpoint(
  deps: EndpointWriteDeps,
  userId: string,
  input: { url: string; description: string; events: WebhookEventType[] },
  checked?: CheckedUrl,
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  // A refused URL writes nothing, and the plan's refusal comes first.
  checked ??= await checkEndpointUrl(input.url, deps);
  if ("error" in checked) {
    await deps.allowed;
    throw checked.error;
  }
  const { url } = checked;
  const now = (deps.now ?? new Date()).toISOString();
  const id = `we_${crypto.randomUUID().replaceAll("-", "")}`;
  const secret = generateWebhookSecret();
  const e = webhookEndpoints;
  const row: EndpointRow = {
    id,
    userId,
    url,
    description: input.description,
    events: JSON.stringify(input.events),
    secret,
    previousSecret: null,
    previousSecretExpiresAt: null,
    olderSecret: null,
    olderSecretExpiresAt: null,
    enabled: true,
    disabledReason: null,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  // INSERT … SELECT over every column in table order, so it can be conditional.
  const values = sql.join(
    Object.entries(getTableColumns(e)).map(([key, column]) => {
      const value = row[key as keyof EndpointRow];
      return value === null || value === undefined ? sql`null` : sql`${column.mapToDriverValue(value)}`;
    }),
    sql`, `,
  );
  const db = deps.shard.db;
  const removeAgain = () => db.delete(e).where(and(eq(e.id, id), eq(e.userId, userId)));
  const [plan, insert] = await Promise.allSettled([
    Promise.resolve(deps.allowed),
    db
      .insert(e)
      .select(sql`select ${values} where (select count(*) from ${e} where ${e.userId} = ${userId}) < ${MAX_WEBHOOK_ENDPOINTS}`)
      .returning({ id: e.id }),
  ]);
  if (plan.status === "rejected") {
    if (insert.status === "fulfilled" && insert.value.length > 0) await removeAgain();
    throw plan.reason;
  }
  if (insert.status === "rejected") throw insert.reason;
  if (insert.value.length === 0) throw new ApiError(409, ENDPOINT_LIMIT_TEXT, "conflict");
  try {
    await auditRow(deps, "create_webhook_endpoint", { endpoint_id: id, url, events: input.events, description: input.description, secret_prefix: secretPrefix(secret) });
  } catch (error) {
    await removeAgain();
    throw error;
  }
  return { endpoint: endpointView(row), secret };
}

/**
 * Changes the endpoint's URL, description, events or enabled state. The audit row names each field
 * that changed with its value before and after (read beside the plan check, so no round trip is
 * added); a request that changes nothing is not recorded.
 */
export async function updateEndpoint(
  deps: EndpointWriteDeps,
  userId: string,
  endpointId: string,
  input: { url?: string; description?: string; events?: WebhookEventType[]; enabled?: boolean },
): Promise<WebhookEndpointView> {
  const before = await ownedEndpoint(deps, userId, endpointId);
  const now = deps.now ?? new Date();
  const set: Partial<EndpointRow> = { updatedAt: now.toISOString() };
  if (input.url !== undefined) set.url = await safeUrl(input.url, deps);
  if (input.description !== undefined) set.description = input.description;
  if (input.events !== undefined) set.events = JSON.stringify(input.events);
  if (input.enabled !== undefined) {
    set.enabled = input.enabled;
    // Turned back on: the 5 days of failures count from the next failure again.
    if (input.enabled) Object.assign(set, { disabledReason: null, failingSince: null });
    else set.disabledReason = "Disabled by its owner";
  }
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  if (set.url !== undefined && set.url !== before.url) changes.url = { before: before.url, after: set.url };
  if (set.description !== undefined && set.description !== before.description) changes.description = { before: before.description, after: set.description };
  if (set.events !== undefined && set.events !== before.events) changes.events = { before: JSON.parse(before.events) as unknown, after: input.events };
  if (set.enabled !== undefined && set.enabled !== before.enabled) changes.enabled = { before: before.enabled, after: set.enabled };
  const e = webhookEndpoints;
  const rows = await withAudit(
    deps,
    deps.shard.db
      .update(e)
      .set(set)
      .where(and(eq(e.id, endpointId), eq(e.userId, userId)))
      .returning(),
    // Recorded when the update took effect and changed something.
    Object.keys(changes).length > 0 ? { action: "update_webhook_endpoint", detail: { endpoint_id: endpointId, url: set.url ?? before.url, changes } } : null,
    (updated) => updated.length > 0,
  );
  const [row] = rows;
  if (!row) throw notFound("Webhook endpoint not found");
  return endpointView(row, now);
}

/** Deletes the endpoint with its delivery log in one batch, and records it. */
export async function deleteEndpoint(deps: EndpointWriteDeps, userId: string, endpointId: string): Promise<void> {
  const { db } = deps.shard;
  const endpoint = await ownedEndpoint(deps, userId, endpointId);
  await withAudit(
    deps,
    db.batch([
      db.delete(webhookAttempts).where(eq(webhookAttempts.endpointId, endpointId)),
      db.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)),
      db
        .delete(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.userId, userId)))
        .returning({ id: webhookEndpoints.id }),
    ]),
    { action: "delete_webhook_endpoint", detail: { endpoint_id: endpointId, url: endpoint.url, events: JSON.parse(endpoint.events) as unknown } },
    // A concurrent delete records once: the one whose delete removed the row.
    ([, , deleted]) => deleted.length > 0,
  );
}

/**
 * A new secret (answered once). The current one keeps signing beside it for 24 hours, and so does a
 * secret rotated out less than 24 hours ago, until its own expiry: a receiver that took any secret
 * in the last day still verifies. At most three secrets sign at once (decision 074), so a rotation
 * while two rotated-out secrets still sign is refused (409) until the older one expires, and the
 * refusal says when.
 */
export async function rotateSecret(deps: EndpointWriteDeps, userId: string, endpointId: string): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  const { db } = deps.shard;
  const now = deps.now ?? new Date();
  const at = now.toISOString();
  const current = await ownedEndpoint(deps, userId, endpointId);
  const previousSigns = current.previousSecret !== null && current.previousSecretExpiresAt !== null && current.previousSecretExpiresAt > at;
  const olderSigns = current.olderSecret !== null && current.olderSecretExpiresAt !== null && current.olderSecretExpiresAt > at;
  if (previousSigns && olderSigns) throw conflict(WEBHOOKS_API_TEXT.rotationLimit(WEBHOOK_MAX_SIGNING_SECRETS, current.olderSecretExpiresAt!));
  const secret = generateWebhookSecret();
  const expires = new Date(now.getTime() + WEBHOOK_ROTATION_OVERLAP_HOURS * 3_600_000).toISOString();
  const e = webhookEndpoints;
  const [row] = await withAudit(
    deps,
    db
      .update(e)
      .set({
        secret,
        previousSecret: current.secret,
        previousSecretExpiresAt: expires,
        // The secret rotated out last time keeps signing until its own expiry, if that is still ahead.
        olderSecret: previousSigns ? current.previousSecret : null,
        olderSecretExpiresAt: previousSigns ? current.previousSecretExpiresAt : null,
        updatedAt: at,
      })
      .where(and(eq(e.id, endpointId), eq(e.secret, current.secret)))
      .returning(),
    {
      action: "rotate_webhook_secret",
      detail: { endpoint_id: endpointId, url: current.url, secret_prefix: secretPrefix(secret), previous_secret_prefix: secretPrefix(current.secret), previous_signs_until: expires },
    },
    (rows) => rows.length > 0,
  );
  // Another rotation won the race: this one changed nothing.
  if (!row) throw conflict(WEBHOOKS_API_TEXT.rotatedMeanwhile);
  return { endpoint: endpointView(row, now), secret };
}

/** Queues a `test` event to this endpoint (whatever events it subscribes to). */
export async function sendTestEvent(deps: EndpointDeps, userId: string, endpointId: string): Promise<{ deliveryId: string; attempt: number }> {
  const endpoint = await ownedEndpoint(deps, userId, endpointId);
  const now = deps.now ?? new Date();
  const [deliveryId] = await createDeliveries(
    deps.shard,
    deps.queue,
    [endpoint],
    "test",
    { message: "A test event sent from Settings → Webhooks.", endpoint_id: endpoint.id, sent_at: now.toISOString() },
    now,
  );
  return { deliveryId, attempt: 1 };
}

/** Cursor of a delivery page: the last delivery's creation time and id. */
const cursorOf = (d: { createdAt: string; id: string }) => btoa(JSON.stringify([d.createdAt, d.id]));
function readCursor(cursor: string): [string, string] {
  try {
    const parsed = JSON.parse(atob(cursor)) as unknown;
    if (Array.isArray(parsed) && parsed.length === 2 && parsed.every((p) => typeof p === "string")) return parsed as [string, string];
  } catch {
    // Falls through to the refusal.
  }
  throw badRequest("Invalid cursor", "cursor");
}

/** The endpoint's deliveries, newest first, each with its attempts (newest first), in one query. */
export async function listDeliveries(deps: EndpointDeps, userId: string, endpointId: string, page: { cursor?: string; limit: number }): Promise<WebhookDeliveryListResponse> {
  const d = webhookDeliveries;
  const after = page.cursor ? readCursor(page.cursor) : null;
  const attemptLog = sql<string>`(select json_group_array(json_object('attempt', a.attempt, 'attemptedAt', a.attempted_at, 'responseStatus', a.response_status,
    'durationMs', a.duration_ms, 'responseBody', a.response_body, 'error', a.error))
    from (select * from webhook_attempts a where a.delivery_id = webhook_deliveries.id order by a.attempt desc) a)`;
  const [, rows] = await Promise.all([
    ownedEndpoint(deps, userId, endpointId),
    deps.shard.db
      .select({ delivery: d, attemptLog })
      .from(d)
      .where(
        and(
          eq(d.endpointId, endpointId),
          eq(d.userId, userId),
          after ? or(lt(d.createdAt, after[0]), and(eq(d.createdAt, after[0]), lt(d.id, after[1]))) : undefined,
        ),
      )
      .orderBy(desc(d.createdAt), desc(d.id))
      .limit(page.limit + 1),
  ]);
  const pageRows = rows.slice(0, page.limit);
  const deliveries: WebhookDeliveryView[] = pageRows.map(({ delivery: r, attemptLog: log }) => ({
    id: r.id,
    eventType: r.eventType as WebhookEventType,
    status: r.status as WebhookDeliveryView["status"],
    attempts: r.attempts,
    createdAt: r.createdAt,
    nextAttemptAt: r.nextAttemptAt,
    attemptLog: JSON.parse(log) as WebhookAttemptView[],
  }));
  return { deliveries, nextCursor: rows.length > page.limit ? cursorOf(pageRows[pageRows.length - 1].delivery) : null };
}

/**
 * Queues one more attempt of a decided (succeeded or failed) delivery, with the same webhook-id: it
 * is pending again. The write that makes it pending is conditional on its not being pending, so of
 * any number of concurrent resends one queues an attempt and the others answer 409, as does a
 * resend of a delivery whose next attempt is queued or in flight.
 */
export async function resendDelivery(deps: EndpointDeps, userId: string, endpointId: string, deliveryId: string): Promise<{ deliveryId: string; attempt: number }> {
  await ownedEndpoint(deps, userId, endpointId);
  const now = (deps.now ?? new Date()).toISOString();
  const d = webhookDeliveries;
  const [row] = await deps.shard.db
    .update(d)
    .set({ status: "pending", nextAttemptAt: now })
    .where(and(eq(d.id, deliveryId), eq(d.endpointId, endpointId), ne(d.status, "pending")))
    .returning({ attempts: d.attempts });
  if (!row) {
    const pending = await deps.shard.db.select({ id: d.id }).from(d).where(and(eq(d.id, deliveryId), eq(d.endpointId, endpointId))).get();
    if (pending) throw conflict(WEBHOOKS_API_TEXT.alreadyQueued);
    throw notFound("Delivery not found");
  }
  const attempt = row.attempts + 1;
  await queueAttempts(deps.queue, [{ deliveryId, attempt, shard: deps.shard.name }]);
  return { deliveryId, attempt };
}
