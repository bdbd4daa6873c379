// Plans, checkout, trials, subscriptions and account activation (spec 2 §1-9, ADRs 020-022).
// Every billing event is reconciled against the provider's current object, so events arriving in
// any order, or more than once, leave the same final state; each is recorded once by its id in the
// same batch as the rows it writes.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { CheckoutSessionView, CreateCheckoutSessionBody, CustomerView, LeadBody, ProductView, SubscriptionView } from "@shared/schemas/billing";
import { TRIAL_DAYS } from "@shared/constants";
import { nyDayOf } from "@shared/ny-time";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Database } from "../db/client";
import { accountActivations, customers, leads, profiles, subscriptions, webhookEvents } from "../db/schema";
import { ApiError, conflict, forbidden, notFound } from "../lib/errors";
import { findActivePrice } from "../providers/billing/catalogue";
import type { BillingEvent, BillingPort, CheckoutSession, Subscription } from "../providers/billing/port";
import type { IdentityPort } from "../providers/identity/port";
import { markDaysDirty } from "./rollup-dirty";
import { recordEvent, wasDuplicate } from "./webhook-events";
import type { CurrentUser } from "./profiles";
import { planKey } from "./plans";

export type BillingDeps = { db: Database; billing: BillingPort; identity: IdentityPort; origin: string };

const iso = (unixSeconds: number | null | undefined) => (unixSeconds ? new Date(unixSeconds * 1000).toISOString() : null);

export const BILLING_TEXT = {
  productUnavailable: "Product not available",
  accountExists: "An account with this email already exists. Sign in instead.",
  proofRequired: "Setting a password needs the payment session or the activation link from your email.",
  sessionNotPaid: "This payment session is not complete.",
  sessionEmailMismatch: "This payment session belongs to another email address.",
  sessionNotCreator: "This payment session did not create this account. Use the activation link from your email to set its password.",
  passwordAlreadySet: "This account already has a password. Sign in instead.",
  noSubscription: "No active subscription to cancel",
  notYourCustomer: "This customer is not yours",
} as const;

// ---------------------------------------------------------------- catalogue and checkout

export async function listPlans(billing: BillingPort): Promise<ProductView[]> {
  return (await billing.listProducts()).map((p) => ({ ...p, prices: p.prices.filter((pr) => pr.active) }));
}

async function activePrice(billing: BillingPort, priceId: string) {
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

const isPaid = (s: CheckoutSession) => s.status === "complete" && ["paid", "no_payment_required"].includes(s.payment_status);
const sessionEmailOf = (s: CheckoutSession) => (s.customer_details?.email ?? s.customer_email ?? "").toLowerCase();

/** The proof rule of setPasswordWithProof, read without changing anything (the success page's choice). */
async function sessionMaySetPassword(deps: BillingDeps, s: CheckoutSession) {
  const email = sessionEmailOf(s);
  if (!isPaid(s) || !email) return false;
  const row = await deps.db.select().from(accountActivations).where(sql`lower(${accountActivations.email}) = ${email}`).get();
  // No row yet: the session's event has not arrived, and it will create the account if there is none.
  if (!row) return !(await deps.identity.userExists(email));
  return row.checkoutSessionId === s.id && !row.passwordSetAt && !(await deps.identity.hasPassword(row.userId));
}

// ---------------------------------------------------------------- the rows a subscription writes

function subscriptionUpsert(db: Database, sub: Subscription, userId: string | null) {
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
function customerUpsert(db: Database, input: { email: string; userId: string | null; company?: string | null; customerId: string | null; sub: Subscription | null; plan?: string | null; status?: string | null; subscriptionId?: string | null }) {
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
function customerStatusUpdate(db: Database, sub: Subscription) {
  return db
    .update(customers)
    .set({ subscriptionStatus: sub.status, currentPlan: planKey(sub.price.product.name) ?? sub.price.product.name, updatedAt: new Date().toISOString() })
    .where(and(eq(customers.stripeCustomerId, sub.customer), sql`coalesce(${customers.subscriptionId}, ${sub.id}) = ${sub.id}`));
}

type Buyer = { email: string; name?: string | null; company?: string | null; customerId: string | null; sub: Subscription | null; checkoutSessionId: string | null };

/** The company the buyer typed at checkout, carried in the session's metadata. */
const companyOf = (session: CheckoutSession) => session.metadata?.company?.trim() || null;

/**
 * The account, customer and subscription of a buyer, with the event record in the same batch. The
 * account is created first (an identity provider call cannot join a D1 batch); creating it is
 * idempotent by email. The activation mail goes only when this call recorded the event (or there is
 * no event, a trial), so ten deliveries of one event send one mail.
 *
 * The activation row records the checkout session that created the account, and only when this
 * call created it: that session alone may later set the first password (setPasswordWithProof). An
 * account that existed already (a trial, a registration, an earlier purchase) never gets a session
 * recorded by a later one, so a stranger paying with its email proves nothing.
 */
async function provisionBuyer(deps: BillingDeps, buyer: Buyer, event: BillingEvent | null, opts: { mail: boolean }) {
  const { db, identity } = deps;
  const { userId, created } = await identity.inviteAccount({ email: buyer.email, name: buyer.name ?? undefined, company: buyer.company ?? undefined });
  const pending = created || !(await identity.hasPassword(userId));
  const statements = [
    // The account's mirror row, which the customer and subscription rows point at. The local identity
    // service writes it with the account; a remote one (Supabase) has none until the first sign-in.
    // No flags: a buyer's account starts as a plain user.
    db
      .insert(profiles)
      .values({ id: userId, email: buyer.email.toLowerCase(), username: buyer.name ?? null, company: buyer.company ?? null, isAdmin: false })
      .onConflictDoNothing(),
    ...customerUpsert(db, { email: buyer.email, userId, company: buyer.company, customerId: buyer.customerId, sub: buyer.sub }),
    ...(buyer.sub ? [subscriptionUpsert(db, buyer.sub, userId)] : []),
    ...(pending
      ? [
          db
            .insert(accountActivations)
            .values({ userId, email: buyer.email.toLowerCase(), checkoutSessionId: created ? buyer.checkoutSessionId : null })
            .onConflictDoUpdate({
              target: accountActivations.userId,
              // Only the call that created the account passes a session, so a stored one is kept and
              // a missing one can only be filled by the creator (whose row a concurrent call beat).
              set: { checkoutSessionId: sql`coalesce(${accountActivations.checkoutSessionId}, excluded.checkout_session_id)`, updatedAt: new Date().toISOString() },
            }),
        ]
      : []),
  ];
  const results = event
    ? await db.batch([...statements, recordEvent(db, { id: event.id, provider: "stripe", eventType: event.type })] as never)
    : await db.batch(statements as never);
  const duplicate = event ? wasDuplicate((results as unknown[]).at(-1)) : false;
  if (!duplicate && pending && opts.mail) await identity.sendActivation({ userId, email: buyer.email, origin: deps.origin });
  return { userId, duplicate };
}

// ---------------------------------------------------------------- webhook events

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
  if (await isEventRecorded(db, event.id)) return { duplicate: true, handled: false };
  const recordOnly = async () => {
    const [recorded] = await db.batch([recordEvent(db, { id: event.id, provider: "stripe", eventType: event.type })]);
    return { duplicate: wasDuplicate(recorded), handled: false };
  };
  if (event.type === "checkout.session.completed") {
    const session = await billing.getCheckoutSession(event.objectId);
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
  const sub = await billing.getSubscription(subscriptionId);
  if (!sub) return recordOnly();
  const results = await db.batch([
    subscriptionUpsert(db, sub, null),
    customerStatusUpdate(db, sub),
    recordEvent(db, { id: event.id, provider: "stripe", eventType: event.type }),
  ]);
  return { duplicate: wasDuplicate(results[2]), handled: true };
}

/** Subscription states that still run (and would bill or grant a plan). */
const LIVE_STATUSES = ["trialing", "active", "past_due", "unpaid", "incomplete"];

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

// ---------------------------------------------------------------- trial

export async function startTrial(deps: BillingDeps, input: { email: string; priceId: string; first_name: string; last_name: string; company?: string }) {
  const email = input.email.toLowerCase();
  await activePrice(deps.billing, input.priceId);
  const existing = await deps.db
    .select({ userId: accountActivations.userId, set: accountActivations.passwordSetAt, session: accountActivations.checkoutSessionId })
    .from(accountActivations)
    .where(sql`lower(${accountActivations.email}) = ${email}`)
    .get();
  // A trial is for a new account; a trial's buyer still activating may ask again (the same trial
  // comes back). An account a paid checkout made is not a trial's to repeat.
  if (!existing && (await deps.identity.userExists(email))) throw conflict(BILLING_TEXT.accountExists, "email");
  if (existing?.set || existing?.session) throw conflict(BILLING_TEXT.accountExists, "email");
  // A repeat for a pending trial brings back the trial it already has, whatever plan it names, so
  // the account never holds two live subscriptions.
  const live = existing
    ? await deps.db
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, existing.userId), inArray(subscriptions.status, LIVE_STATUSES)))
        .get()
    : undefined;
  const current = live ? await deps.billing.getSubscription(live.id) : null;
  if (current) return { success: true as const, subscription: subscriptionView(current) };
  const name = `${input.first_name} ${input.last_name}`.trim();
  // Keys by email and price: asking twice gives the same customer and the same trial, never two.
  const customer = await deps.billing.createCustomer({ email, name, idempotencyKey: `trial-customer:${email}` });
  const sub = await deps.billing.createSubscription({
    customerId: customer.id,
    priceId: input.priceId,
    trialDays: TRIAL_DAYS,
    idempotencyKey: `trial-subscription:${email}:${input.priceId}`,
  });
  // A repeat (anyone may send one for a pending email) brings the same trial back and changes nothing
  // the first request stored: no name or company of its own, no second mail.
  await provisionBuyer(
    deps,
    { email, name: existing ? null : name, company: existing ? null : input.company, customerId: customer.id, sub, checkoutSessionId: null },
    null,
    { mail: !existing },
  );
  return { success: true as const, subscription: subscriptionView(sub) };
}

// ---------------------------------------------------------------- first password and activation

const proofRequired = () => new ApiError(400, BILLING_TEXT.proofRequired, "proof_required", "sessionId");
const alreadySet = () => conflict(BILLING_TEXT.passwordAlreadySet, "email");
const notCreator = () => new ApiError(403, BILLING_TEXT.sessionNotCreator, "proof_required", "sessionId");

/**
 * update-user-password with proof (DESIGN §4): the paid checkout session that created this email's
 * account, looked up at the provider, while the account's first password is not set yet; the
 * password is set once. Any other account (a trial's, a registration's, one a different session
 * made) sets its first password only from the emailed activation link.
 */
export async function setPasswordWithProof(deps: BillingDeps, input: { email: string; password: string; sessionId?: string }) {
  if (!input.sessionId) throw proofRequired();
  const email = input.email.toLowerCase();
  const session = await deps.billing.getCheckoutSession(input.sessionId);
  if (!session) throw new ApiError(403, BILLING_TEXT.proofRequired, "proof_required", "sessionId");
  if (!isPaid(session)) throw new ApiError(403, BILLING_TEXT.sessionNotPaid, "proof_required", "sessionId");
  const sessionEmail = sessionEmailOf(session);
  if (sessionEmail !== email) throw new ApiError(403, BILLING_TEXT.sessionEmailMismatch, "proof_required", "email");

  const activation = () => deps.db.select().from(accountActivations).where(sql`lower(${accountActivations.email}) = ${email}`).get();
  let row = await activation();
  if (!row) {
    // The provider's event may not have arrived yet: provision from the session itself (no mail; the
    // buyer is setting the password right now).
    const sub = session.subscription ? await deps.billing.getSubscription(session.subscription) : null;
    await provisionBuyer(
      deps,
      { email, name: session.customer_details?.name, company: companyOf(session), customerId: session.customer, sub, checkoutSessionId: session.id },
      null,
      { mail: false },
    );
    row = await activation();
  }
  if (!row || row.passwordSetAt || (await deps.identity.hasPassword(row.userId))) throw alreadySet();
  if (row.checkoutSessionId !== session.id) throw notCreator();
  const now = new Date().toISOString();
  const claimed = await deps.db
    .update(accountActivations)
    .set({ passwordSetAt: now, updatedAt: now })
    .where(and(eq(accountActivations.userId, row.userId), eq(accountActivations.checkoutSessionId, session.id), isNull(accountActivations.passwordSetAt)))
    .returning({ userId: accountActivations.userId });
  if (!claimed.length) throw alreadySet();
  try {
    await deps.identity.setFirstPassword(row.userId, input.password);
  } catch (e) {
    await deps.db.update(accountActivations).set({ passwordSetAt: null }).where(eq(accountActivations.userId, row.userId));
    throw e;
  }
  return { success: true as const };
}

/** Sends a new activation link to an account still waiting for its first password; silent otherwise. */
export async function resendActivation(deps: BillingDeps, email: string) {
  const row = await deps.db
    .select()
    .from(accountActivations)
    .where(and(sql`lower(${accountActivations.email}) = ${email.toLowerCase()}`, isNull(accountActivations.passwordSetAt)))
    .get();
  if (row && !(await deps.identity.hasPassword(row.userId))) {
    await deps.identity.sendActivation({ userId: row.userId, email: row.email, origin: deps.origin });
  }
  return { success: true as const };
}

// ---------------------------------------------------------------- customers and subscriptions

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
  const own =
    (await db.select({ id: customers.id }).from(customers).where(and(eq(customers.stripeCustomerId, customerId), eq(customers.userId, user.id))).get()) ??
    (await db.select({ id: subscriptions.id }).from(subscriptions).where(and(eq(subscriptions.customerId, customerId), eq(subscriptions.userId, user.id))).get());
  if (!own) throw forbidden(BILLING_TEXT.notYourCustomer);
}

export async function customerSubscriptions(deps: BillingDeps, user: CurrentUser, customerId: string) {
  await assertOwnsCustomer(deps.db, user, customerId);
  return (await deps.billing.listCustomerSubscriptions(customerId)).map(subscriptionView);
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

// ---------------------------------------------------------------- leads and customer records

export async function createLead(db: Database, body: LeadBody) {
  const now = new Date().toISOString();
  const results: unknown[] = await db.batch([
    db
      .insert(leads)
      .values({
        externalId: `web-${crypto.randomUUID()}`,
        store: null,
        email: body.email.toLowerCase(),
        phone: body.phone,
        firstName: body.first_name,
        lastName: body.last_name,
        company: body.company || null,
        leadSource: body.lead_source,
        leadStatus: "new",
        interestLevel: body.interest_level,
        metadata: body.metadata,
        submittedAt: now,
      })
      .returning({ id: leads.id }),
    ...markDaysDirty(db, "leads", [nyDayOf(now)]),
  ] as never);
  return { success: true as const, lead: { id: (results[0] as { id: number }[])[0].id } };
}

const customerViewOf = (c: typeof customers.$inferSelect): CustomerView => ({
  email: c.email,
  company: c.company,
  current_plan: c.currentPlan,
  stripe_customer_id: c.stripeCustomerId,
  subscription_id: c.subscriptionId,
  subscription_status: c.subscriptionStatus,
});

export async function customerByEmail(db: Database, user: CurrentUser, email: string) {
  if (!user.isAdmin && email.toLowerCase() !== user.email.toLowerCase()) throw forbidden("You can only read your own customer record");
  const row = await db.select().from(customers).where(sql`lower(${customers.email}) = ${email.toLowerCase()}`).get();
  return { success: true as const, customer: row ? customerViewOf(row) : null };
}

/**
 * POST /api/leads/customers. Billing fields are written by the billing events; only an admin may set
 * them by hand. An account holder may keep the company of its own record.
 */
export async function upsertCustomerRecord(
  db: Database,
  user: CurrentUser,
  body: { email: string; company?: string; current_plan?: string; stripe_customer_id?: string; subscription_id?: string; subscription_status?: string },
) {
  const own = body.email.toLowerCase() === user.email.toLowerCase();
  if (!user.isAdmin && !own) throw forbidden("You can only change your own customer record");
  await db.batch(
    customerUpsert(db, {
      email: body.email,
      userId: own ? user.id : null,
      company: body.company ?? null,
      customerId: user.isAdmin ? (body.stripe_customer_id ?? null) : null,
      sub: null,
      plan: user.isAdmin ? body.current_plan : null,
      status: user.isAdmin ? body.subscription_status : null,
      subscriptionId: user.isAdmin ? body.subscription_id : null,
    }),
  );
  const row = await db.select().from(customers).where(sql`lower(${customers.email}) = ${body.email.toLowerCase()}`).get();
  return { success: true as const, customer: customerViewOf(row!) };
}
