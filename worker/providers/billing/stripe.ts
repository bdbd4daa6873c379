// Stripe adapter: the official SDK with its fetch HTTP client (no Node http inside workerd).
// host/port/protocol point it at a stand-in in tests. Products come from Stripe (active ones whose
// metadata.product_type is basic or pro), cached briefly per isolate.
import Stripe from "stripe";
import { ApiError, providerError } from "../../lib/errors";
import { DEFAULT_PROVIDER_TIMEOUT_MS } from "../timeout";
import { verifyStripeEvent } from "./stripe-events";
import type { BillingPort, BillingProduct, CheckoutRequest, CheckoutSession, Customer, PlanType, Subscription } from "./port";

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string | null;
  /** API base, e.g. http://127.0.0.1:4010 for a stand-in; default Stripe's own. */
  apiBase?: string;
  /** Milliseconds one request may take (default DEFAULT_PROVIDER_TIMEOUT_MS). */
  timeoutMs?: number;
};

export const PRODUCT_CACHE_MS = 60_000;
const productCache = new Map<string, { at: number; products: BillingProduct[] }>();

type StripeSub = {
  id: string;
  customer: string | { id: string };
  status: string;
  cancel_at_period_end: boolean;
  trial_end: number | null;
  items: {
    data: {
      current_period_end?: number;
      price: { id: string; unit_amount: number | null; currency: string; recurring: { interval: string } | null; product: string | { id: string; name?: string } };
    }[];
  };
};

const idOf = (v: string | { id: string } | null | undefined) => (v == null ? null : typeof v === "string" ? v : v.id);

export class StripeBilling implements BillingPort {
  readonly kind = "stripe" as const;
  private readonly stripe: Stripe;

  constructor(private settings: StripeSettings) {
    const base = settings.apiBase ? new URL(settings.apiBase) : null;
    this.stripe = new Stripe(settings.secretKey, {
      httpClient: Stripe.createFetchHttpClient(),
      maxNetworkRetries: 1,
      timeout: settings.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
      telemetry: false,
      ...(base
        ? {
            host: base.hostname,
            port: base.port || (base.protocol === "https:" ? 443 : 80),
            protocol: base.protocol.replace(":", "") as "http" | "https",
          }
        : {}),
    });
  }

  /** Runs one Stripe call; Stripe's own failures become the provider error (invalid requests a 400). */
  private async call<T>(step: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof ApiError) throw e;
      const err = e as { type?: string; message?: string; statusCode?: number; param?: string; code?: string };
      if (err.type === "StripeCardError") throw new ApiError(402, err.message ?? "Your card was declined.", "card_declined");
      if (err.type === "StripeInvalidRequestError" && err.statusCode === 400) {
        throw new ApiError(400, `Stripe: ${err.message}`, "validation_error", err.param);
      }
      throw providerError("Stripe", `${step} failed: ${err.message ?? String(e)}`);
    }
  }

  /** A retrieve whose "No such …" (404, resource_missing) is an unknown id, answered as null. */
  private async retrieveOrNull<T>(step: string, fn: () => Promise<T>): Promise<T | null> {
    return this.call(step, async () => {
      try {
        return await fn();
      } catch (e) {
        const err = e as { statusCode?: number; code?: string };
        if (err.statusCode === 404 || err.code === "resource_missing") return null;
        throw e;
      }
    });
  }

  async listProducts(): Promise<BillingProduct[]> {
    const key = `${this.settings.apiBase ?? "stripe"}:${this.settings.secretKey}`;
    const hit = productCache.get(key);
    if (hit && Date.now() - hit.at < PRODUCT_CACHE_MS) return hit.products;
    const [products, prices] = await Promise.all([
      this.call("Listing products", () => this.stripe.products.list({ active: true, limit: 100 })),
      this.call("Listing prices", () => this.stripe.prices.list({ active: true, limit: 100 })),
    ]);
    const out: BillingProduct[] = [];
    for (const p of products.data) {
      const type = p.metadata?.product_type;
      if (!p.active || (type !== "basic" && type !== "pro")) continue;
      out.push({
        id: p.id,
        name: p.name,
        description: p.description ?? null,
        active: p.active,
        metadata: { product_type: type as PlanType },
        prices: prices.data
          .filter((pr) => idOf(pr.product as string | { id: string }) === p.id && pr.active && pr.recurring && pr.unit_amount != null)
          .map((pr) => ({
            id: pr.id,
            active: pr.active,
            interval: pr.recurring!.interval === "year" ? "year" : "month",
            unit_amount: pr.unit_amount!,
            currency: pr.currency,
          })),
      });
    }
    productCache.set(key, { at: Date.now(), products: out });
    return out;
  }

  async createCheckoutSession(req: CheckoutRequest) {
    const session = await this.call("Creating the checkout session", () =>
      this.stripe.checkout.sessions.create(
        {
          mode: "subscription",
          line_items: [{ price: req.priceId, quantity: req.quantity }],
          success_url: req.successUrl,
          cancel_url: req.cancelUrl,
          // Stripe takes either the existing customer or an email for a new one.
          ...(req.customerId ? { customer: req.customerId } : req.customerEmail ? { customer_email: req.customerEmail } : {}),
          ...(req.clientReferenceId ? { client_reference_id: req.clientReferenceId } : {}),
          ...(req.metadata ? { metadata: req.metadata } : {}),
        },
        { idempotencyKey: req.idempotencyKey },
      ),
    );
    if (!session.url) throw providerError("Stripe", "the checkout session has no URL");
    return { id: session.id, url: session.url };
  }

  async getCheckoutSession(id: string): Promise<CheckoutSession | null> {
    const s = await this.retrieveOrNull("Reading the checkout session", () =>
      this.stripe.checkout.sessions.retrieve(id, { expand: ["line_items"] }),
    );
    if (!s) return null;
    const lineItems = (s as unknown as { line_items?: { data?: { price?: { id: string } }[] } }).line_items;
    return {
      id: s.id,
      url: s.url ?? null,
      status: s.status ?? "open",
      mode: s.mode === "payment" ? "payment" : "subscription",
      payment_status: s.payment_status,
      amount_total: s.amount_total ?? null,
      currency: s.currency ?? null,
      customer_email: s.customer_email ?? null,
      customer_details: s.customer_details ? { name: s.customer_details.name ?? null, email: s.customer_details.email ?? null } : null,
      customer: idOf(s.customer as string | { id: string } | null),
      subscription: idOf(s.subscription as string | { id: string } | null),
      payment_intent: idOf(s.payment_intent as string | { id: string } | null),
      price_id: lineItems?.data?.[0]?.price?.id ?? null,
      client_reference_id: s.client_reference_id ?? null,
      metadata: (s.metadata as Record<string, string> | null) ?? null,
      created: s.created,
    };
  }

  async createCustomer(input: { email: string; name?: string; idempotencyKey: string }): Promise<Customer> {
    const c = await this.call("Creating the customer", () =>
      this.stripe.customers.create({ email: input.email, ...(input.name ? { name: input.name } : {}) }, { idempotencyKey: input.idempotencyKey }),
    );
    return { id: c.id, email: c.email ?? null, name: c.name ?? null };
  }

  async createSubscription(input: { customerId: string; priceId: string; trialDays?: number; idempotencyKey: string }) {
    const sub = await this.call("Creating the subscription", () =>
      this.stripe.subscriptions.create(
        {
          customer: input.customerId,
          items: [{ price: input.priceId }],
          expand: ["items.data.price.product"],
          ...(input.trialDays
            ? {
                trial_period_days: input.trialDays,
                // No card during the trial: without one the subscription ends with the trial.
                trial_settings: { end_behavior: { missing_payment_method: "cancel" as const } },
              }
            : { payment_behavior: "default_incomplete" as const }),
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    return this.toSubscription(sub as unknown as StripeSub);
  }

  async getSubscription(id: string) {
    const sub = await this.retrieveOrNull("Reading the subscription", () =>
      this.stripe.subscriptions.retrieve(id, { expand: ["items.data.price.product"] }),
    );
    return sub ? this.toSubscription(sub as unknown as StripeSub) : null;
  }

  async listCustomerSubscriptions(customerId: string) {
    const list = await this.call("Listing subscriptions", () =>
      this.stripe.subscriptions.list({ customer: customerId, status: "all", limit: 20, expand: ["data.items.data.price.product"] }),
    );
    return Promise.all(list.data.map((s) => this.toSubscription(s as unknown as StripeSub)));
  }

  async cancelSubscription(id: string, idempotencyKey: string) {
    const sub = await this.call("Cancelling the subscription", () =>
      this.stripe.subscriptions.update(id, { cancel_at_period_end: true, expand: ["items.data.price.product"] }, { idempotencyKey }),
    );
    return this.toSubscription(sub as unknown as StripeSub);
  }

  async endSubscriptionNow(id: string, idempotencyKey: string) {
    const current = await this.getSubscription(id);
    if (!current) throw new ApiError(404, "No such subscription", "not_found", "subscriptionId");
    if (current.status === "canceled" || current.status === "incomplete_expired") return current;
    const sub = await this.call("Ending the subscription", () =>
      this.stripe.subscriptions.cancel(id, { expand: ["items.data.price.product"] }, { idempotencyKey }),
    );
    return this.toSubscription(sub as unknown as StripeSub);
  }

  async invoiceSubscription(invoiceId: string) {
    const invoice = await this.retrieveOrNull("Reading the invoice", () => this.stripe.invoices.retrieve(invoiceId));
    if (!invoice) return null;
    // Current API versions name the subscription under parent.subscription_details.
    const parent = (invoice as unknown as { parent?: { subscription_details?: { subscription?: string | { id: string } } } }).parent;
    return idOf(parent?.subscription_details?.subscription ?? null);
  }

  verifyEvent(rawBody: string, signature: string | undefined) {
    return verifyStripeEvent(rawBody, signature, this.settings.webhookSecret);
  }

  async portalUrl(customerId: string, returnUrl: string) {
    const portal = await this.call("Opening the customer portal", () =>
      this.stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }),
    );
    return portal.url;
  }

  /** Stripe's subscription in the port's shape; the period lives on the item, the product may be an id. */
  private async toSubscription(sub: StripeSub): Promise<Subscription> {
    const item = sub.items.data[0];
    let product = item?.price.product;
    if (typeof product === "string" || (product && !product.name)) {
      const productId = idOf(product)!;
      const found = (await this.listProducts()).find((p) => p.id === productId);
      product = { id: productId, name: found?.name ?? productId };
    }
    return {
      id: sub.id,
      customer: idOf(sub.customer)!,
      status: sub.status,
      cancel_at_period_end: sub.cancel_at_period_end,
      trial_end: sub.trial_end ?? null,
      current_period_end: item?.current_period_end ?? null,
      price: {
        id: item?.price.id ?? "",
        unit_amount: item?.price.unit_amount ?? 0,
        currency: item?.price.currency ?? "usd",
        interval: item?.price.recurring?.interval === "year" ? "year" : item?.price.recurring ? "month" : null,
        product: { id: (product as { id: string })?.id ?? "", name: (product as { name?: string })?.name ?? "" },
      },
    };
  }
}
