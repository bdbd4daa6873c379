// The billing provider's events (ADR 020). Every event is reconciled against the
// provider's current object, so events arriving in any order, or more than once, leave the same final
// state; each is recorded once by its id in the same batch as the rows it writes.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { subscriptions, webhookEvents } from "../../db/schema";
import type { BillingEvent } from "../../providers/billing/port";
import { recordEvent, wasDuplicate } from "../webhook-events";
import type { BillingDeps } from "./deps";
import { companyOf, provisionBuyer } from "./provision";
import { customerStatusUpdate, LIVE_STATUSES, subscriptionUpsert } from "./subscription-rows";

export const HANDLED_EVENTS = [
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
] as const;

export async function isEventRecorded(db: Database, id: string) {
  return Boolean(await db.select({ id: webhookEvents.id }).from(webhookEvents).where(eq(webhookEvents.id, id)).get());
}

/** One verified event: re-reads the object it is about and writes its current state, once. */
export async function handleBillingEvent(deps: BillingDeps, event: BillingEvent): Promise<{ duplicate: boolean; handled: boolean }> {
  const { db, billing } = deps;
  // The object the event is about is fetched while the event's record is looked up (one round trip):
  // a read at the provider, used only when the event is new.
  const object =
    event.type === "checkout.session.completed"
      ? { session: billing.getCheckoutSession(event.objectId) }
      : event.type.startsWith("customer.subscription.")
        ? { sub: billing.getSubscription(event.objectId) }
        : {};
  for (const read of Object.values(object)) read.catch(() => undefined);
  if (await isEventRecorded(db, event.id)) return { duplicate: true, handled: false };
  const recordOnly = async () => {
    const [recorded] = await db.batch([recordEvent(db, { id: event.id, provider: "stripe", eventType: event.type })]);
    return { duplicate: wasDuplicate(recorded), handled: false };
  };
  if (event.type === "checkout.session.completed") {
    const session = await object.session!;
    const email = session ? (session.customer_details?.email ?? session.customer_email) : null;
    if (!session || session.status !== "complete" || session.mode !== "subscription" || !email) return recordOnly();
    const sub = session.subscription ? await billing.getSubscription(session.subscription) : null;
    // The account's own upgrade (only our server names an account on a session, for its signed-in
    // owner): the new subscription replaces whatever else was live. Done before the event is
    // recorded, so a failure here is retried with the event.
    if (sub && session.client_reference_id) await replaceOtherSubscriptions(deps, session.client_reference_id, sub.id);
    const { duplicate } = await provisionBuyer(
      deps,
      { email, name: session.customer_details?.name, company: companyOf(session), customerId: session.customer, sub, checkoutSessionId: session.id },
      event,
      { mail: true },
    );
    return { duplicate, handled: true };
  }
  let subscriptionId: string | null = null;
  if (event.type.startsWith("customer.subscription.")) subscriptionId = event.objectId;
  else if (event.type === "invoice.paid" || event.type === "invoice.payment_failed") subscriptionId = await billing.invoiceSubscription(event.objectId);
  if (!subscriptionId) return recordOnly();
  const sub = await (object.sub ?? billing.getSubscription(subscriptionId));
  if (!sub) return recordOnly();
  const results = await db.batch([
    subscriptionUpsert(db, sub, null),
    customerStatusUpdate(db, sub),
    recordEvent(db, { id: event.id, provider: "stripe", eventType: event.type }),
  ]);
  return { duplicate: wasDuplicate(results[2]), handled: true };
}

/**
 * An account has at most one live subscription: every other live one of the account (a trial being
 * upgraded, the plan being changed) ends now at the provider, and its state is written back.
 * Idempotent: a redelivered event finds them ended already. The provisioning that follows points
 * the customer record at the subscription that stays.
 */
async function replaceOtherSubscriptions(deps: BillingDeps, userId: string, keepId: string) {
  const others = await deps.db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), sql`${subscriptions.id} <> ${keepId}`, inArray(subscriptions.status, LIVE_STATUSES)));
  for (const { id } of others) {
    const ended = await deps.billing.endSubscriptionNow(id, `replace:${id}:${keepId}`);
    await deps.db.batch([subscriptionUpsert(deps.db, ended, null), customerStatusUpdate(deps.db, ended)]);
  }
}
