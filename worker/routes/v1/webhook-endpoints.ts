// /v1/webhook-endpoints: the operations of Settings → Webhooks for an API key with webhooks:write,
// through the same services (worker/webhooks/endpoints.ts). The key's authentication already
// required Pro (or an admin), the plan webhooks need.
import type { Context } from "hono";
import type { V1WebhookDeliveryList, V1WebhookEndpoint, WebhookDeliveryListResponse, WebhookEndpointView } from "@shared/schemas/webhooks";
import type { AppEnv } from "../../app-env";
import { adminActor } from "../../context/request-deps";
import { currentUser } from "../../middleware/auth";
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  resendDelivery,
  rotateSecret,
  sendTestEvent,
  updateEndpoint,
  type EndpointWriteDeps,
} from "../../webhooks/endpoints";
import { urlChecks } from "../../webhooks/url-safety";
import { accountShard, checksBeforeWrite, limitResends, limitTests, type OperationLimit } from "../webhook-endpoints";
import { V1DeclaredRoutes } from "./serve";

/**
 * What the operations need. The key's authentication already checked the plan; an operation with a
 * per-account limit has it started here, awaited beside its first read. The actor (the account and
 * its key) is what the audit log records of a change.
 */
const deps = (c: Context<AppEnv>, limit?: OperationLimit): EndpointWriteDeps => {
  const production = c.var.config.APP_ENV === "production";
  const actor = { ...adminActor(c), apiKeyId: c.var.apiKey?.id };
  const allowed = limit ? checksBeforeWrite(undefined, limit(c, actor.id)) : undefined;
  return { db: c.var.db, shard: accountShard(c), queue: c.env.WEBHOOK_QUEUE, production, allowed, ...urlChecks(c.var.config), actor };
};

const v1Endpoint = (e: WebhookEndpointView): V1WebhookEndpoint => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: e.events,
  enabled: e.enabled,
  disabled_reason: e.disabledReason,
  secret_prefix: e.secretPrefix,
  previous_secret_expires_at: e.previousSecretExpiresAt,
  created_at: e.createdAt,
  updated_at: e.updatedAt,
});

const v1Deliveries = (page: WebhookDeliveryListResponse): V1WebhookDeliveryList => ({
  data: page.deliveries.map((d) => ({
    id: d.id,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    created_at: d.createdAt,
    next_attempt_at: d.nextAttemptAt,
    attempt_log: d.attemptLog.map((a) => ({
      attempt: a.attempt,
      attempted_at: a.attemptedAt,
      response_status: a.responseStatus,
      duration_ms: a.durationMs,
      response_body: a.responseBody,
      error: a.error,
    })),
  })),
  next_cursor: page.nextCursor,
});

const queued = (q: { deliveryId: string; attempt: number }) => ({ delivery_id: q.deliveryId, attempt: q.attempt });

export const v1WebhookEndpointRoutes = new V1DeclaredRoutes()
  .serve("GET /v1/webhook-endpoints", async (c) => c.json({ data: (await listEndpoints(deps(c), currentUser(c).id)).map(v1Endpoint), next_cursor: null }))
  .serve("POST /v1/webhook-endpoints", async (c) => {
    const { endpoint, secret } = await createEndpoint(deps(c), currentUser(c).id, c.req.valid("json"));
    return c.json({ ...v1Endpoint(endpoint), secret }, 201);
  })
  .serve("GET /v1/webhook-endpoints/:id", async (c) => c.json(v1Endpoint(await getEndpoint(deps(c), currentUser(c).id, c.req.valid("param").id))))
  .serve("PATCH /v1/webhook-endpoints/:id", async (c) =>
    c.json(v1Endpoint(await updateEndpoint(deps(c), currentUser(c).id, c.req.valid("param").id, c.req.valid("json")))),
  )
  .serve("DELETE /v1/webhook-endpoints/:id", async (c) => {
    const { id } = c.req.valid("param");
    await deleteEndpoint(deps(c), currentUser(c).id, id);
    return c.json({ id, deleted: true as const });
  })
  .serve("POST /v1/webhook-endpoints/:id/rotate-secret", async (c) => {
    const { endpoint, secret } = await rotateSecret(deps(c), currentUser(c).id, c.req.valid("param").id);
    return c.json({ ...v1Endpoint(endpoint), secret });
  })
  .serve("POST /v1/webhook-endpoints/:id/test", async (c) => c.json(queued(await sendTestEvent(deps(c, limitTests), currentUser(c).id, c.req.valid("param").id)), 202))
  .serve("GET /v1/webhook-endpoints/:id/deliveries", async (c) =>
    c.json(v1Deliveries(await listDeliveries(deps(c), currentUser(c).id, c.req.valid("param").id, c.req.valid("query")))),
  )
  .serve("POST /v1/webhook-endpoints/:id/deliveries/:delivery_id/resend", async (c) => {
    const { id, delivery_id } = c.req.valid("param");
    return c.json(queued(await resendDelivery(deps(c, limitResends), currentUser(c).id, id, delivery_id)), 202);
  });
