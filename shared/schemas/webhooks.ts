// Custom webhooks' endpoints, deliveries and the local receiver (docs/webhooks.md): the bodies the
// routes take and the answers they give, for the dashboard and the public API alike.
import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "../webhooks";

const eventType = z.enum(WEBHOOK_EVENT_TYPES);
/** The events an endpoint subscribes to: at least one, each once (`test` is always received). */
const events = z
  .array(eventType)
  .min(1, "Choose at least one event")
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((list) => [...new Set(list)]);
const url = z.string().trim().min(1, "Enter the endpoint's URL").max(2048, "The URL is too long");
const description = z.string().trim().max(200, "The description is too long");

export const webhookEndpointCreateBody = z.strictObject({ url, description: description.default(""), events });
export type WebhookEndpointCreateBody = z.input<typeof webhookEndpointCreateBody>;

/** Any of the fields (none changes nothing); `enabled: true` turns a disabled endpoint back on. */
export const webhookEndpointUpdateBody = z.strictObject({ url: url.optional(), description: description.optional(), events: events.optional(), enabled: z.boolean().optional() });
export type WebhookEndpointUpdateBody = z.input<typeof webhookEndpointUpdateBody>;

/** Ids are checked by lookup (an unknown one is 404), not by shape. */
export const webhookEndpointParams = z.object({ endpointId: z.string().min(1).max(64) });
export const webhookDeliveryParams = z.object({ endpointId: z.string().min(1).max(64), deliveryId: z.string().min(1).max(64) });
export const webhookDeliveriesQuery = z.object({
  /** The `nextCursor` of the previous page. */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

export const webhookEndpointView = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(eventType),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  /** The secret's first characters, to tell secrets apart; the whole secret is answered only once. */
  secretPrefix: z.string(),
  /** Until when the previous secret still signs (after a rotation), else null. */
  previousSecretExpiresAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpointView = z.infer<typeof webhookEndpointView>;

/** `allowed` false: the account's plan has no webhooks (the screen shows what Pro gives); every other route answers it 402. */
export const webhookEndpointListResponse = z.object({ allowed: z.boolean(), endpoints: z.array(webhookEndpointView), limit: z.number() });
export type WebhookEndpointListResponse = z.infer<typeof webhookEndpointListResponse>;
export const webhookEndpointResponse = z.object({ endpoint: webhookEndpointView });
/** A created endpoint or a rotated secret: the only answers that carry the whole secret. */
export const webhookEndpointSecretResponse = z.object({ endpoint: webhookEndpointView, secret: z.string() });
export type WebhookEndpointSecretResponse = z.infer<typeof webhookEndpointSecretResponse>;
export const webhookEndpointDeletedResponse = z.object({ deleted: z.literal(true), id: z.string() });

export const webhookAttemptView = z.object({
  attempt: z.number(),
  attemptedAt: z.string(),
  /** The receiver's status; null without an answer (timeout, refused URL, network). */
  responseStatus: z.number().nullable(),
  durationMs: z.number(),
  /** The first 1 KB of the answer. */
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
});
export type WebhookAttemptView = z.infer<typeof webhookAttemptView>;

export const webhookDeliveryView = z.object({
  /** Also the `webhook-id` of every attempt. */
  id: z.string(),
  eventType: eventType,
  status: z.enum(["pending", "succeeded", "failed"]),
  attempts: z.number(),
  createdAt: z.string(),
  nextAttemptAt: z.string().nullable(),
  /** Newest first. */
  attemptLog: z.array(webhookAttemptView),
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliveryView>;

export const webhookDeliveryListResponse = z.object({ deliveries: z.array(webhookDeliveryView), nextCursor: z.string().nullable() });
export type WebhookDeliveryListResponse = z.infer<typeof webhookDeliveryListResponse>;
/** A queued test event or resend: the delivery (its webhook-id) and the attempt queued. */
export const webhookQueuedResponse = z.object({ deliveryId: z.string(), attempt: z.number() });
export type WebhookQueuedResponse = z.infer<typeof webhookQueuedResponse>;

/** The local receiver (outside production): its inbox name picks where the page reads. */
export const webhookInboxParams = z.object({ inbox: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Letters, digits, - and _ only") });
export const webhookInboxQuery = z.object({ inbox: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Letters, digits, - and _ only").default("default") });
export const webhookInboxEntry = z.object({
  id: z.number(),
  receivedAt: z.string(),
  webhookId: z.string().nullable(),
  eventType: z.string().nullable(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  verified: z.boolean(),
  verifyError: z.string().nullable(),
  /** The status the receiver answered. */
  answered: z.number(),
});
export type WebhookInboxEntry = z.infer<typeof webhookInboxEntry>;
export const webhookInboxResponse = z.object({ inbox: z.string(), path: z.string(), deliveries: z.array(webhookInboxEntry) });
export type WebhookInboxResponse = z.infer<typeof webhookInboxResponse>;
export const webhookInboxReceived = z.object({ received: z.literal(true), verified: z.boolean() });
/** Faults asked for in the endpoint's URL (see worker/webhooks/inbox.ts). */
export const webhookInboxFaults = z.object({
  fail: z.coerce.number().int().min(0).max(100).optional(),
  down_until: z.coerce.number().int().min(0).optional(),
});

// ---------------------------------------------------------------- the public API (/v1; docs/api.md)

/** One webhook endpoint as /v1 answers it (snake_case, as every /v1 object). */
export const v1WebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(eventType),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  secret_prefix: z.string(),
  previous_secret_expires_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type V1WebhookEndpoint = z.infer<typeof v1WebhookEndpoint>;
export const v1WebhookEndpointList = z.object({ data: z.array(v1WebhookEndpoint), next_cursor: z.string().nullable() });
/** A created endpoint or a rotated secret: the only answers carrying the whole secret. */
export const v1WebhookEndpointWithSecret = v1WebhookEndpoint.extend({ secret: z.string() });
export const v1WebhookEndpointDeleted = z.object({ id: z.string(), deleted: z.literal(true) });
export const v1WebhookEndpointIdParam = z.object({ id: z.string().min(1).max(64) });
export const v1WebhookDeliveryParams = z.object({ id: z.string().min(1).max(64), delivery_id: z.string().min(1).max(64) });
export const v1WebhookDelivery = z.object({
  id: z.string(),
  event_type: eventType,
  status: z.enum(["pending", "succeeded", "failed"]),
  attempts: z.number(),
  created_at: z.string(),
  next_attempt_at: z.string().nullable(),
  attempt_log: z.array(
    z.object({
      attempt: z.number(),
      attempted_at: z.string(),
      response_status: z.number().nullable(),
      duration_ms: z.number(),
      response_body: z.string().nullable(),
      error: z.string().nullable(),
    }),
  ),
});
export const v1WebhookDeliveryList = z.object({ data: z.array(v1WebhookDelivery), next_cursor: z.string().nullable() });
export type V1WebhookDeliveryList = z.infer<typeof v1WebhookDeliveryList>;
export const v1WebhookQueued = z.object({ delivery_id: z.string(), attempt: z.number() });
