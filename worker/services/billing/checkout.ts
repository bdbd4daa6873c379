// The catalogue and checkout (docs/product/api.md#api): the plans on sale, a checkout session on our own origin,
// and what the success page may read of a session, including whether it may set the first password.
import { eq, sql } from "drizzle-orm";
import { BILLING_TEXT } from "@shared/messages";
import type { CheckoutSessionView, CreateCheckoutSessionBody, ProductView } from "@shared/schemas/billing";
import { accountActivations, customers } from "../../db/schema";
import { ApiError, notFound } from "../../lib/errors";
import { findActivePrice } from "../../providers/billing/catalogue";
import type { BillingPort, CheckoutSession } from "../../providers/billing/port";
import type { CurrentUser } from "../profiles";
import type { BillingDeps } from "./deps";

export async function listPlans(billing: BillingPort): Promise<ProductView[]> {
  return (await billing.listProducts()).map((p) => ({ ...p, prices: p.prices.filter((pr) => pr.active) }));
}

export async function activePrice(billing: BillingPort, priceId: string) {
  const found = findActivePrice(await billing.listProducts(), priceId);
  if (!found) throw new ApiError(400, BILLING_TEXT.productUnavailable, "product_unavailable", "priceId");
  return found;
}

/** Return URLs must be on our own origin, so a checkout cannot send the buyer elsewhere. */
function ownUrl(origin: string, value: string, field: string) {
  const url = new URL(value, origin);
  if (url.origin !== origin) throw new ApiError(400, `${field} must be on this site`, "validation_error", field);
  return url.toString();
}

/**
 * A checkout session. A signed-in buyer paying for their own email buys for their account: the
 * session names the account (client_reference_id) and its existing provider customer, so paying
 * replaces the account's live subscription instead of adding a second customer and subscription.
 */
export async function createCheckout(deps: BillingDeps, body: CreateCheckoutSessionBody, user: CurrentUser | null = null) {
  await activePrice(deps.billing, body.priceId);
  // Stripe replaces this placeholder with the session id on the way back.
  const successUrl = ownUrl(deps.origin, body.successUrl, "successUrl");
  const cancelUrl = ownUrl(deps.origin, body.cancelUrl, "cancelUrl");
  const email = body.customerEmail?.toLowerCase();
  const owner = user && (!email || email === user.email.toLowerCase()) ? user : null;
  const customerId = owner
    ? ((await deps.db.select({ id: customers.stripeCustomerId }).from(customers).where(eq(customers.userId, owner.id)).get())?.id ?? undefined)
    : undefined;
  return deps.billing.createCheckoutSession({
    priceId: body.priceId,
    quantity: body.quantity,
    successUrl,
    cancelUrl,
    customerEmail: owner ? owner.email.toLowerCase() : email,
    customerId,
    clientReferenceId: owner?.id,
    metadata: body.company ? { company: body.company } : undefined,
    idempotencyKey: `checkout:${crypto.randomUUID()}`,
  });
}

export async function checkoutSessionView(deps: BillingDeps, sessionId: string): Promise<CheckoutSessionView> {
  const s = await deps.billing.getCheckoutSession(sessionId);
  if (!s) throw notFound("Checkout session not found");
  const price = s.price_id ? findActivePrice(await deps.billing.listProducts(), s.price_id) : null;
  return {
    id: s.id,
    status: s.status,
    amount_total: s.amount_total,
    currency: s.currency,
    customer_email: s.customer_details?.email ?? s.customer_email,
    payment_status: s.payment_status,
    payment_intent: s.payment_intent,
    customer_details: s.customer_details ? { name: s.customer_details.name } : null,
    plan_name: price?.product.name ?? null,
    interval: price?.price.interval ?? null,
    needs_password: await sessionMaySetPassword(deps, s),
  };
}

export const isPaid = (s: CheckoutSession) => s.status === "complete" && ["paid", "no_payment_required"].includes(s.payment_status);
export const sessionEmailOf = (s: CheckoutSession) => (s.customer_details?.email ?? s.customer_email ?? "").toLowerCase();

/** The proof rule of setPasswordWithProof, read without changing anything (the success page's choice). */
async function sessionMaySetPassword(deps: BillingDeps, s: CheckoutSession) {
  const email = sessionEmailOf(s);
  if (!isPaid(s) || !email) return false;
  const row = await deps.db.select().from(accountActivations).where(sql`lower(${accountActivations.email}) = ${email}`).get();
  // No row yet: the session's event has not arrived, and it will create the account if there is none.
  if (!row) return !(await deps.identity.userExists(email));
  return row.checkoutSessionId === s.id && !row.passwordSetAt && !(await deps.identity.hasPassword(row.userId));
}
