// Every route of the public API (/v1; docs/api.md), declared once: "METHOD /path" (":name" a path
// parameter), the scope a key needs (null: no key, the document and its reference page), what it
// takes and what it answers. The worker serves each from here (worker/routes/v1/serve.ts installs
// key authentication, the scope check and the validators); the OpenAPI document at /v1/openapi.json,
// the proofs' route inventory and the answer checks of the tests are derived from this table.
//
// Adding a /v1 route: its line here (scope, input schemas, answer schema in shared/schemas/), and its
// handler in a file of worker/routes/v1/ with `.serve(key, handler)`, listed in worker/routes/v1/index.ts.
import { z } from "zod";
import type { ApiKeyScope } from "../schemas/api-keys";
import { v1Agent, v1AgentIdParam, v1AgentList, v1CallDetail, v1CallIdParam, v1CallList, v1CallsQuery, v1Counts, v1CountsQuery } from "../schemas/v1";
import {
  v1WebhookDeliveryList,
  v1WebhookDeliveryParams,
  v1WebhookEndpoint,
  v1WebhookEndpointDeleted,
  v1WebhookEndpointIdParam,
  v1WebhookEndpointList,
  v1WebhookEndpointWithSecret,
  v1WebhookQueued,
  webhookDeliveriesQuery,
  webhookEndpointCreateBody,
  webhookEndpointUpdateBody,
} from "../schemas/webhooks";
import { html, json, type Answer, type RouteKey } from "./declare";

export type V1RouteDeclaration = {
  /** The scope the key must carry (403 insufficient_scope without it); null: served without a key. */
  scope: ApiKeyScope | null;
  summary: string;
  params?: z.ZodType;
  query?: z.ZodType;
  /** A JSON body. */
  body?: z.ZodType;
  answer: Answer;
};

export const V1_ROUTES = {
  "GET /v1/openapi.json": { scope: null, summary: "This API's OpenAPI 3.1 document", answer: json(z.unknown()) },
  "GET /v1/docs": { scope: null, summary: "The interactive reference of this API", answer: html },

  "GET /v1/calls": { scope: "calls:read", summary: "The account's calls, newest first, a page at a time", query: v1CallsQuery, answer: json(v1CallList) },
  "GET /v1/calls/:id": { scope: "calls:read", summary: "One call with its summary, transcript and recording URL", params: v1CallIdParam, answer: json(v1CallDetail) },
  "GET /v1/counts": {
    scope: "counts:read",
    summary: "The dashboard's call counts over New York days (the same figures as the dashboard)",
    query: v1CountsQuery,
    answer: json(v1Counts),
  },
  "GET /v1/agents": { scope: "agents:read", summary: "The account's agents", answer: json(v1AgentList) },
  "GET /v1/agents/:id": { scope: "agents:read", summary: "One agent", params: v1AgentIdParam, answer: json(v1Agent) },
  "POST /v1/agents/:id/activate": {
    scope: "agents:write",
    summary: "Activates the agent on the voice platform (needs a plan, as in the app)",
    params: v1AgentIdParam,
    answer: json(v1Agent),
  },
  "POST /v1/agents/:id/deactivate": { scope: "agents:write", summary: "Deactivates the agent", params: v1AgentIdParam, answer: json(v1Agent) },

  // Custom webhooks (docs/webhooks.md): the same operations as Settings → Webhooks
  "GET /v1/webhook-endpoints": { scope: "webhooks:write", summary: "The account's webhook endpoints", answer: json(v1WebhookEndpointList) },
  "POST /v1/webhook-endpoints": {
    scope: "webhooks:write",
    summary: "Adds an endpoint (at most 10); its signing secret is answered this once",
    body: webhookEndpointCreateBody,
    answer: json(v1WebhookEndpointWithSecret, 201),
  },
  "GET /v1/webhook-endpoints/:id": { scope: "webhooks:write", summary: "One endpoint", params: v1WebhookEndpointIdParam, answer: json(v1WebhookEndpoint) },
  "PATCH /v1/webhook-endpoints/:id": {
    scope: "webhooks:write",
    summary: "Changes its URL, description, events or enabled",
    params: v1WebhookEndpointIdParam,
    body: webhookEndpointUpdateBody,
    answer: json(v1WebhookEndpoint),
  },
  "POST /v1/webhook-endpoints/:id/rotate-secret": {
    scope: "webhooks:write",
    summary: "A new secret, answered this once; the old one keeps signing for 24 hours",
    params: v1WebhookEndpointIdParam,
    answer: json(v1WebhookEndpointWithSecret),
  },
  "POST /v1/webhook-endpoints/:id/test": {
    scope: "webhooks:write",
    summary: "Queues a test event to it (at most 10 a minute per account, 429 past it)",
    params: v1WebhookEndpointIdParam,
    answer: json(v1WebhookQueued, 202),
  },
  "GET /v1/webhook-endpoints/:id/deliveries": {
    scope: "webhooks:write",
    summary: "Its delivery log (30 days), newest first",
    params: v1WebhookEndpointIdParam,
    query: webhookDeliveriesQuery,
    answer: json(v1WebhookDeliveryList),
  },
  "POST /v1/webhook-endpoints/:id/deliveries/:delivery_id/resend": {
    scope: "webhooks:write",
    summary: "One more attempt of a decided delivery, with the same webhook-id (409 while one is queued; at most 30 a minute per account)",
    params: v1WebhookDeliveryParams,
    answer: json(v1WebhookQueued, 202),
  },
  "DELETE /v1/webhook-endpoints/:id": { scope: "webhooks:write", summary: "Deletes it with its delivery log", params: v1WebhookEndpointIdParam, answer: json(v1WebhookEndpointDeleted) },
} as const satisfies Record<RouteKey, V1RouteDeclaration>;

export type V1Routes = typeof V1_ROUTES;
export type V1Route = keyof V1Routes;
