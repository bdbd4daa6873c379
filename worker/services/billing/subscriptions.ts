// Customers and subscriptions at the provider (docs/product/api.md#billing "Card payments"): their view, the owner's or an admin's reads and
// cancellation, the admin tools that create them, and the provider's billing portal.
import { and, eq } from "drizzle-orm";
import { BILLING_TEXT } from "@shared/messages";
import type { SubscriptionView } from "@shared/schemas/billing";
import type { Database } from "../../db/client";
import { customers, subscriptions } from "../../db/schema";
import { ApiError, forbidden } from "../../lib/errors";
import type { Subscription } from "../../providers/billing/port";
import { inOrder } from "../in-order";
import type { CurrentUser } from "../profiles";
import { activePrice } from "./checkout";
import { iso, type BillingDeps } from "./deps";
import { customerStatusUpdate, subscriptionUpsert } from "./subscription-rows";

export function subscriptionView(sub: Subscription): SubscriptionView {
  return {
    id: sub.id,
    status: sub.status,
    cancel_at_period_end: sub.cancel_at_period_end,
    current_period_end: iso(sub.current_period_end),
    trial_end: iso(sub.trial_end),
    items: {
      data: [
        {
          price: {
            id: sub.price.id,
            unit_amount: sub.price.unit_amount,
            currency: sub.price.currency,
            interval: sub.price.interval,
            product: { name: sub.price.product.name },
          },
        },
      ],
    },
  };
}

/** Whether the caller may see or change this provider customer's subscriptions. */
async function assertOwnsCustomer(db: Database, user: CurrentUser, customerId: string) {
  if (user.isAdmin) return;
  // The account's customer record, or else a subscription of that customer held by the account: both read together.
  const [customer, subscription] = await Promise.all([
    db.select({ id: customers.id }).from(customers).where(and(eq(customers.stripeCustomerId, customerId), eq(customers.userId, user.id))).get(),
    db.select({ id: subscriptions.id }).from(subscriptions).where(and(eq(subscriptions.customerId, customerId), eq(subscriptions.userId, user.id))).get(),
  ]);
  if (!(customer ?? subscription)) throw forbidden(BILLING_TEXT.notYourCustomer);
}

export async function customerSubscriptions(deps: BillingDeps, user: CurrentUser, customerId: string) {
  // The provider's list is asked for with the ownership check, whose refusal answers first (and
  // then nothing of the list leaves).
  const list = await inOrder(assertOwnsCustomer(deps.db, user, customerId), deps.billing.listCustomerSubscriptions(customerId));
  return list.map(subscriptionView);
}

export async function cancelSubscription(deps: BillingDeps, user: CurrentUser, subscriptionId: string) {
  const row = await deps.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).get();
  if (!row || (!user.isAdmin && row.userId !== user.id)) throw new ApiError(404, BILLING_TEXT.noSubscription, "not_found", "subscriptionId");
  const sub = await deps.billing.cancelSubscription(subscriptionId, `cancel:${subscriptionId}`);
  // The answer is the current state; the provider's event writes the same again.
  await deps.db.batch([subscriptionUpsert(deps.db, sub, null), customerStatusUpdate(deps.db, sub)]);
  return subscriptionView(sub);
}

export async function createCustomerAtProvider(deps: BillingDeps, input: { email: string; name?: string }) {
  return deps.billing.createCustomer({ email: input.email.toLowerCase(), name: input.name, idempotencyKey: `customer:${crypto.randomUUID()}` });
}

export async function createSubscriptionAtProvider(deps: BillingDeps, input: { customerId: string; priceId: string }) {
  await activePrice(deps.billing, input.priceId);
  const sub = await deps.billing.createSubscription({ ...input, idempotencyKey: `subscription:${crypto.randomUUID()}` });
  await deps.db.batch([subscriptionUpsert(deps.db, sub, null)]);
  return subscriptionView(sub);
}

export async function portalUrl(deps: BillingDeps, user: CurrentUser, returnUrl: string) {
  const row = await deps.db.select({ customerId: customers.stripeCustomerId }).from(customers).where(eq(customers.userId, user.id)).get();
  if (!row?.customerId) return null;
  return deps.billing.portalUrl(row.customerId, returnUrl);
}
