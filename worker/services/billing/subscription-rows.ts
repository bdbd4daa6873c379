// The rows a subscription writes: the subscription itself and the customer record that points at it,
// as batchable statements, so each caller writes them in one batch with whatever else it records.
import { and, eq, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Database } from "../../db/client";
import { customers, subscriptions } from "../../db/schema";
import type { Subscription } from "../../providers/billing/port";
import { planKey } from "../plans";
import { iso } from "./deps";

/** Subscription states that still run (and would bill or grant a plan). */
export const LIVE_STATUSES = ["trialing", "active", "past_due", "unpaid", "incomplete"];

export function subscriptionUpsert(db: Database, sub: Subscription, userId: string | null) {
  const values = {
    id: sub.id,
    // The owner: the one named, else the customer's account, else whoever owned it already.
    userId: sql`coalesce(${userId}, (select user_id from customers where stripe_customer_id = ${sub.customer} limit 1))`,
    customerId: sub.customer,
    priceId: sub.price.id,
    productName: sub.price.product.name,
    status: sub.status,
    interval: sub.price.interval,
    unitAmount: sub.price.unit_amount,
    currency: sub.price.currency,
    trialEnd: iso(sub.trial_end),
    currentPeriodEnd: iso(sub.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    updatedAt: new Date().toISOString(),
  };
  const { id: _id, userId: _u, ...rest } = values;
  return db
    .insert(subscriptions)
    .values(values as unknown as typeof subscriptions.$inferInsert)
    .onConflictDoUpdate({ target: subscriptions.id, set: { ...rest, userId: sql`coalesce(excluded.user_id, ${subscriptions.userId})` } });
}

/**
 * The customer record of a buyer (one per email), pointing at the subscription's current state: an
 * insert that yields to the email's unique index, then the update, both batchable builders.
 */
export function customerUpsert(db: Database, input: { email: string; userId: string | null; company?: string | null; customerId: string | null; sub: Subscription | null; plan?: string | null; status?: string | null; subscriptionId?: string | null }) {
  const email = input.email.toLowerCase();
  const plan = input.sub ? (planKey(input.sub.price.product.name) ?? input.sub.price.product.name) : (input.plan ?? null);
  const fields = {
    userId: input.userId,
    company: input.company ?? null,
    currentPlan: plan,
    stripeCustomerId: input.customerId,
    subscriptionId: input.sub?.id ?? input.subscriptionId ?? null,
    subscriptionStatus: input.sub?.status ?? input.status ?? null,
  };
  const keep = (value: unknown, column: SQLiteColumn) => sql`coalesce(${value}, ${column})`;
  return [
    db.insert(customers).values({ email, ...fields }).onConflictDoNothing(),
    db
      .update(customers)
      .set({
        userId: keep(fields.userId, customers.userId),
        company: keep(fields.company, customers.company),
        currentPlan: keep(fields.currentPlan, customers.currentPlan),
        stripeCustomerId: keep(fields.stripeCustomerId, customers.stripeCustomerId),
        subscriptionId: keep(fields.subscriptionId, customers.subscriptionId),
        subscriptionStatus: keep(fields.subscriptionStatus, customers.subscriptionStatus),
        updatedAt: new Date().toISOString(),
      })
      .where(sql`lower(${customers.email}) = ${email}`),
  ] as const;
}

/** A subscription's state on the customer record that points at it. */
export function customerStatusUpdate(db: Database, sub: Subscription) {
  return db
    .update(customers)
    .set({ subscriptionStatus: sub.status, currentPlan: planKey(sub.price.product.name) ?? sub.price.product.name, updatedAt: new Date().toISOString() })
    .where(and(eq(customers.stripeCustomerId, sub.customer), sql`coalesce(${customers.subscriptionId}, ${sub.id}) = ${sub.id}`));
}
