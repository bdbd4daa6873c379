// Local billing adapter (the default): the catalogue of catalogue.ts, Stripe-shaped records in D1,
// and a local checkout page (routes/local-checkout.ts) that completes or declines a session and delivers
// Stripe-signed events through the same webhook route as Stripe's.
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { billingLocalObjects } from "../../db/schema";
import { sha256 } from "../../lib/crypto";
import { ApiError, badRequest } from "../../lib/errors";
import { findActivePrice, LOCAL_CATALOGUE } from "./catalogue";
import { signStripePayload, verifyStripeEvent } from "./stripe-events";
import type { BillingPort, CheckoutRequest, CheckoutSession, Customer, Subscription } from "./port";

export const LOCAL_CHECKOUT_PATH = "/_local/checkout/c/pay";
export const STRIPE_WEBHOOK_PATH = "/api/webhooks/stripe";
/** Stripe's test cards: this one pays, the other is declined with Stripe's message. */
export const TEST_CARD_OK = "4242424242424242";
export const TEST_CARD_DECLINED = "4000000000000002";
export const CARD_DECLINED_MESSAGE = "Your card was declined.";

type LocalSession = CheckoutSession & { success_url: string; cancel_url: string; quantity: number; trial_days: number | null };

export type LocalBillingOptions = {
  origin: string;
  webhookSecret: string | null;
  /** Posts a request to the app's own webhook route, in-process. */
  deliver?: (request: Request) => Promise<Response>;
};

const seconds = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;
const periodSeconds = (interval: string | null) => (interval === "year" ? 365 * DAY : 30 * DAY);

export class LocalBilling implements BillingPort {
  readonly kind = "local" as const;
  constructor(
    private db: Database,
    private options: LocalBillingOptions,
  ) {}

  async listProducts() {
    return LOCAL_CATALOGUE;
  }

  /** Ids derived from the idempotency key: a retried request finds the object it created. */
  private async idFor(prefix: string, idempotencyKey: string) {
    return `${prefix}_local_${(await sha256(idempotencyKey)).slice(0, 24)}`;
  }

  private async read<T>(kind: (typeof billingLocalObjects.$inferSelect)["kind"], id: string): Promise<T | null> {
    const row = await this.db
      .select({ data: billingLocalObjects.data })
      .from(billingLocalObjects)
      .where(and(eq(billingLocalObjects.id, id), eq(billingLocalObjects.kind, kind)))
      .get();
    return (row?.data as T) ?? null;
  }

  private async put(kind: (typeof billingLocalObjects.$inferSelect)["kind"], id: string, data: object, replace = true) {
    const now = new Date().toISOString();
    const insert = this.db.insert(billingLocalObjects).values({ id, kind, data: data as Record<string, unknown>, updatedAt: now });
    await (replace
      ? insert.onConflictDoUpdate({ target: billingLocalObjects.id, set: { data: data as Record<string, unknown>, updatedAt: now } })
      : insert.onConflictDoNothing());
  }

  async createCheckoutSession(req: CheckoutRequest) {
    const found = findActivePrice(LOCAL_CATALOGUE, req.priceId);
    if (!found) throw new ApiError(400, "Product not available", "product_unavailable", "priceId");
    const id = await this.idFor("cs", req.idempotencyKey);
    const url = `${this.options.origin}${LOCAL_CHECKOUT_PATH}/${id}`;
    const session: LocalSession = {
      id,
      url,
      status: "open",
      mode: "subscription",
      payment_status: "unpaid",
      amount_total: found.price.unit_amount * req.quantity,
      currency: found.price.currency,
      customer_email: req.customerEmail ?? null,
      customer_details: null,
      customer: req.customerId ?? null,
      subscription: null,
      payment_intent: null,
      price_id: found.price.id,
      client_reference_id: req.clientReferenceId ?? null,
      metadata: req.metadata ?? null,
      created: seconds(),
      success_url: req.successUrl,
      cancel_url: req.cancelUrl,
      quantity: req.quantity,
      trial_days: null,
    };
    await this.put("checkout_session", id, session, false);
    return { id, url };
  }

  async getCheckoutSession(id: string): Promise<CheckoutSession | null> {
    return this.read<LocalSession>("checkout_session", id);
  }

  /** The session with its return URLs, for the local checkout page. */
  localSession(id: string) {
    return this.read<LocalSession>("checkout_session", id);
  }

  async createCustomer(input: { email: string; name?: string; idempotencyKey: string }): Promise<Customer> {
    const id = await this.idFor("cus", input.idempotencyKey);
    const customer: Customer = { id, email: input.email.toLowerCase(), name: input.name ?? null };
    await this.put("customer", id, customer, false);
    return (await this.read<Customer>("customer", id))!;
  }

  async createSubscription(input: { customerId: string; priceId: string; trialDays?: number; idempotencyKey: string }) {
    const found = findActivePrice(LOCAL_CATALOGUE, input.priceId);
    if (!found) throw new ApiError(400, "Product not available", "product_unavailable", "priceId");
    if (!(await this.read<Customer>("customer", input.customerId))) throw badRequest("No such customer", "customerId");
    const id = await this.idFor("sub", input.idempotencyKey);
    const now = seconds();
    const trialEnd = input.trialDays ? now + input.trialDays * DAY : null;
    const sub: Subscription = {
      id,
      customer: input.customerId,
      status: trialEnd ? "trialing" : "active",
      cancel_at_period_end: false,
      trial_end: trialEnd,
      current_period_end: trialEnd ?? now + periodSeconds(found.price.interval),
      price: {
        id: found.price.id,
        unit_amount: found.price.unit_amount,
        currency: found.price.currency,
        interval: found.price.interval,
        product: { id: found.product.id, name: found.product.name },
      },
    };
    await this.put("subscription", id, sub, false);
    return (await this.read<Subscription>("subscription", id))!;
  }

  getSubscription(id: string) {
    return this.read<Subscription>("subscription", id);
  }

  async listCustomerSubscriptions(customerId: string) {
    const rows = await this.db
      .select({ data: billingLocalObjects.data })
      .from(billingLocalObjects)
      .where(and(eq(billingLocalObjects.kind, "subscription"), sql`json_extract(${billingLocalObjects.data}, '$.customer') = ${customerId}`))
      .orderBy(sql`${billingLocalObjects.createdAt} desc`);
    return rows.map((r) => r.data as Subscription);
  }

  async cancelSubscription(id: string, _idempotencyKey: string) {
    const sub = await this.getSubscription(id);
    if (!sub) throw new ApiError(404, "No such subscription", "not_found", "subscriptionId");
    const updated = { ...sub, cancel_at_period_end: true };
    await this.put("subscription", id, updated);
    await this.sendEvent("customer.subscription.updated", updated);
    return updated;
  }

  async endSubscriptionNow(id: string, _idempotencyKey: string) {
    const sub = await this.getSubscription(id);
    if (!sub) throw new ApiError(404, "No such subscription", "not_found", "subscriptionId");
    if (sub.status === "canceled") return sub;
    const ended: Subscription = { ...sub, status: "canceled", cancel_at_period_end: false, current_period_end: seconds() };
    await this.put("subscription", id, ended);
    await this.sendEvent("customer.subscription.deleted", ended);
    return ended;
  }

  async invoiceSubscription(invoiceId: string) {
    const invoice = await this.read<{ parent?: { subscription_details?: { subscription?: string } } }>("invoice", invoiceId);
    return invoice?.parent?.subscription_details?.subscription ?? null;
  }

  verifyEvent(rawBody: string, signature: string | undefined) {
    return verifyStripeEvent(rawBody, signature, this.options.webhookSecret);
  }

  async portalUrl() {
    return null;
  }

  /**
   * Pays a session with a test card: the declined card is refused with Stripe's message, any other
   * number with the Luhn check of a card form; the test card completes it and its events are sent.
   */
  async completeCheckout(sessionId: string, input: { card: string; name: string | null }) {
    const session = await this.localSession(sessionId);
    if (!session) throw new ApiError(404, "No such checkout session", "not_found");
    if (session.status !== "open") return session;
    const card = input.card.replace(/\D/g, "");
    if (card === TEST_CARD_DECLINED) throw new ApiError(402, CARD_DECLINED_MESSAGE, "card_declined", "card");
    if (card !== TEST_CARD_OK) throw new ApiError(402, "Your card number is incorrect.", "card_declined", "card");
    const email = session.customer_email ?? "";
    // A session for an existing customer (an upgrade) pays under it, as Stripe does.
    const customer =
      (session.customer ? await this.read<Customer>("customer", session.customer) : null) ??
      (await this.createCustomer({ email, name: input.name ?? undefined, idempotencyKey: `customer:${session.id}` }));
    const sub = await this.createSubscription({ customerId: customer.id, priceId: session.price_id!, idempotencyKey: `subscription:${session.id}` });
    const invoiceId = await this.idFor("in", `invoice:${session.id}`);
    await this.put("invoice", invoiceId, {
      id: invoiceId,
      object: "invoice",
      status: "paid",
      amount_paid: session.amount_total,
      customer: customer.id,
      parent: { type: "subscription_details", subscription_details: { subscription: sub.id } },
    });
    const completed: LocalSession = {
      ...session,
      status: "complete",
      payment_status: "paid",
      customer: customer.id,
      subscription: sub.id,
      payment_intent: await this.idFor("pi", `payment:${session.id}`),
      customer_details: { name: input.name, email: email || null },
    };
    await this.put("checkout_session", session.id, completed);
    await this.sendEvent("checkout.session.completed", completed);
    await this.sendEvent("invoice.paid", { id: invoiceId, object: "invoice" });
    return completed;
  }

  /** Cancels an open session (the page's cancel link); nothing is charged. */
  async expireCheckout(sessionId: string) {
    const session = await this.localSession(sessionId);
    if (session?.status === "open") await this.put("checkout_session", sessionId, { ...session, status: "expired" });
    return session;
  }

  /** Signs an event with Stripe's scheme and posts it to the webhook route, as Stripe would. */
  async sendEvent(type: string, object: object) {
    const secret = this.options.webhookSecret;
    if (!secret || !this.options.deliver) return;
    const payload = JSON.stringify({ id: `evt_local_${crypto.randomUUID().replace(/-/g, "")}`, object: "event", type, created: seconds(), data: { object } });
    const signature = await signStripePayload(payload, secret);
    const res = await this.options.deliver(
      new Request(`${this.options.origin}${STRIPE_WEBHOOK_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": signature },
        body: payload,
      }),
    );
    if (!res.ok) throw new ApiError(502, `Local billing: the ${type} event was refused (${res.status})`, "provider_error");
  }
}
