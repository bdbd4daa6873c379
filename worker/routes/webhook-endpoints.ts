// Settings → Webhooks (docs/product/webhooks.md): the signed-in account's endpoints, their secrets,
// test events and delivery logs. Pro accounts and admins only (402 otherwise); the operations are the
// services of worker/webhooks/endpoints.ts, which the public API calls too.
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { accountDb } from "../context/account-db";
import { adminActor } from "../context/request-deps";
import { currentUser } from "../middleware/auth";
import {
  checkEndpointUrl,
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
} from "../webhooks/endpoints";
import { hasWebhooksPlan, requireWebhooksPlan } from "../webhooks/plan";
import { urlChecks } from "../webhooks/url-safety";
import { WEBHOOKS_API_TEXT } from "@shared/messages";
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_RESEND_RATE, WEBHOOK_TEST_RATE } from "@shared/webhooks";
import { enforceWithRetryAfter } from "../db/rate-limit";
import { DeclaredRoutes } from "./serve";

/** A per-account limit of an operation: resolves within it, throws 429 (with Retry-After) past it. */
export type OperationLimit = (c: Context<AppEnv>, userId: string) => Promise<void>;

/** Test events per account, the dashboard's and /v1's together (429 with Retry-After past the limit). */
export const limitTests: OperationLimit = (c, userId) =>
  enforceWithRetryAfter(c, { name: "webhook:test", ...WEBHOOK_TEST_RATE }, userId, (s) => WEBHOOKS_API_TEXT.testLimited(WEBHOOK_TEST_RATE.limit, s));
/** Resends per account, the dashboard's and /v1's together (429 with Retry-After past the limit). */
export const limitResends: OperationLimit = (c, userId) =>
  enforceWithRetryAfter(c, { name: "webhook:resend", ...WEBHOOK_RESEND_RATE }, userId, (s) => WEBHOOKS_API_TEXT.resendLimited(WEBHOOK_RESEND_RATE.limit, s));

/**
 * Both checks at once (one round trip for both), reported in order: the plan's refusal before the
 * limit's. Handled here too, so an operation that fails first (a 404) leaves no unhandled rejection.
 */
export function checksBeforeWrite(plan: Promise<unknown> | undefined, limit: Promise<void> | undefined): Promise<unknown> {
  const settled = (p: Promise<unknown> | undefined) => (p ?? Promise.resolve()).then(() => null, (e: unknown) => ({ e }));
  const both = Promise.all([settled(plan), settled(limit)]).then(([p, l]) => {
    if (p) throw p.e;
    if (l) throw l.e;
  });
  both.catch(() => undefined);
  return both;
}

/** The signed-in account's shard (its endpoints, deliveries and attempts), as the operations take it. */
export const accountShard = (c: Context<AppEnv>) => ({ name: currentUser(c).shard, db: accountDb(c) });

/**
 * The caller and what the operations need, the plan check (a 402 without Pro) and the operation's
 * limit, if any, already started: each operation awaits them beside its first read and before any
 * write. The actor is what the audit log records of a change.
 */
function caller(c: Context<AppEnv>, limit?: OperationLimit): { userId: string; deps: EndpointWriteDeps } {
  const user = currentUser(c);
  const allowed = checksBeforeWrite(requireWebhooksPlan(c.var.db, user.id, user.isAdmin), limit?.(c, user.id));
  const production = c.var.config.APP_ENV === "production";
  return {
    userId: user.id,
    deps: { db: c.var.db, shard: accountShard(c), queue: c.env.WEBHOOK_QUEUE, production, allowed, ...urlChecks(c.var.config), actor: adminActor(c) },
  };
}

export const webhookEndpointRoutes = new DeclaredRoutes()
  // The screen's read: an account without the plan is told so (allowed: false) rather than refused,
  // so Settings shows what Pro gives; every operation answers it 402.
  .serve("GET /api/webhook-endpoints", async (c) => {
    const user = currentUser(c);
    const [allowed, endpoints] = await Promise.all([hasWebhooksPlan(c.var.db, user.id, { isAdmin: user.isAdmin }), listEndpoints({ db: c.var.db, shard: accountShard(c), queue: undefined, production: false }, user.id)]);
    return c.json({ allowed, endpoints: allowed ? endpoints : [], limit: MAX_WEBHOOK_ENDPOINTS });
  })
  .serve("POST /api/webhook-endpoints", async (c) => {
    // The URL is checked first (no database), so the plan check and the insert share a round trip.
    const body = c.req.valid("json");
    const checked = await checkEndpointUrl(body.url, { production: c.var.config.APP_ENV === "production", ...urlChecks(c.var.config) });
    const { userId, deps } = caller(c);
    return c.json(await createEndpoint(deps, userId, body, checked), 201);
  })
  .serve("GET /api/webhook-endpoints/:endpointId", async (c) => {
    const { userId, deps } = caller(c);
    return c.json({ endpoint: await getEndpoint(deps, userId, c.req.valid("param").endpointId) });
  })
  .serve("PATCH /api/webhook-endpoints/:endpointId", async (c) => {
    const { userId, deps } = caller(c);
    return c.json({ endpoint: await updateEndpoint(deps, userId, c.req.valid("param").endpointId, c.req.valid("json")) });
  })
  .serve("DELETE /api/webhook-endpoints/:endpointId", async (c) => {
    const { userId, deps } = caller(c);
    const { endpointId } = c.req.valid("param");
    await deleteEndpoint(deps, userId, endpointId);
    return c.json({ deleted: true as const, id: endpointId });
  })
  .serve("POST /api/webhook-endpoints/:endpointId/rotate-secret", async (c) => {
    const { userId, deps } = caller(c);
    return c.json(await rotateSecret(deps, userId, c.req.valid("param").endpointId));
  })
  .serve("POST /api/webhook-endpoints/:endpointId/test", async (c) => {
    const { userId, deps } = caller(c, limitTests);
    return c.json(await sendTestEvent(deps, userId, c.req.valid("param").endpointId), 202);
  })
  .serve("GET /api/webhook-endpoints/:endpointId/deliveries", async (c) => {
    const { userId, deps } = caller(c);
    return c.json(await listDeliveries(deps, userId, c.req.valid("param").endpointId, c.req.valid("query")));
  })
  .serve("POST /api/webhook-endpoints/:endpointId/deliveries/:deliveryId/resend", async (c) => {
    const { userId, deps } = caller(c, limitResends);
    const { endpointId, deliveryId } = c.req.valid("param");
    return c.json(await resendDelivery(deps, userId, endpointId, deliveryId), 202);
  });
