// Billing port (docs/product/design.md#providers): the plan catalogue, checkout, customers and subscriptions, and the
// authenticity of billing events. Objects keep the names and units of Stripe's API (amounts in cents,
// times in Unix seconds), which the spec's screens read.
export type PlanType = "basic" | "pro";
export type BillingInterval = "month" | "year";

export type BillingPrice = {
  id: string;
  active: boolean;
  interval: BillingInterval;
  unit_amount: number;
  currency: string;
};

export type BillingProduct = {
  id: string;
  name: string;
  description: string | null;
  active: boolean;
  metadata: { product_type: PlanType };
  prices: BillingPrice[];
};

export type CheckoutSession = {
  id: string;
  url: string | null;
  /** open, complete or expired */
  status: string;
  mode: "subscription" | "payment";
  payment_status: string;
  amount_total: number | null;
  currency: string | null;
  customer_email: string | null;
  customer_details: { name: string | null; email: string | null } | null;
  customer: string | null;
  subscription: string | null;
  payment_intent: string | null;
  price_id: string | null;
  /** The account a signed-in buyer's session is for (its upgrade), else null. */
  client_reference_id: string | null;
  /** What the buyer typed at checkout that the provider keeps for us (company). */
  metadata: Record<string, string> | null;
  created: number;
};

export type Subscription = {
  id: string;
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  trial_end: number | null;
  current_period_end: number | null;
  price: { id: string; unit_amount: number; currency: string; interval: BillingInterval | null; product: { id: string; name: string } };
};

export type Customer = { id: string; email: string | null; name: string | null };

/** An authenticated billing event: its id and type, and the id of the object it is about. */
export type BillingEvent = { id: string; type: string; created: number; objectId: string; object: Record<string, unknown> };

export type CheckoutRequest = {
  priceId: string;
  quantity: number;
  successUrl: string;
  cancelUrl: string;
  customerEmail?: string;
  /** The account's existing provider customer, reused instead of a new one (an upgrade). */
  customerId?: string;
  /** The signed-in account this session is for. */
  clientReferenceId?: string;
  metadata?: Record<string, string>;
  /** Outgoing POSTs carry an idempotency key so a retried request creates nothing twice. */
  idempotencyKey: string;
};

export interface BillingPort {
  readonly kind: "local" | "stripe";
  /** Active plan products (metadata.product_type basic or pro) with their active prices. */
  listProducts(): Promise<BillingProduct[]>;
  createCheckoutSession(req: CheckoutRequest): Promise<{ id: string; url: string }>;
  /** The session as the provider holds it now; null when unknown. */
  getCheckoutSession(id: string): Promise<CheckoutSession | null>;
  createCustomer(input: { email: string; name?: string; idempotencyKey: string }): Promise<Customer>;
  /** A subscription; with trialDays it starts trialing with no card. */
  createSubscription(input: { customerId: string; priceId: string; trialDays?: number; idempotencyKey: string }): Promise<Subscription>;
  getSubscription(id: string): Promise<Subscription | null>;
  listCustomerSubscriptions(customerId: string): Promise<Subscription[]>;
  /** Cancels at the end of the current period. */
  cancelSubscription(id: string, idempotencyKey: string): Promise<Subscription>;
  /** Ends a subscription now (a trial or plan replaced by the account's new one); ended already is not an error. */
  endSubscriptionNow(id: string, idempotencyKey: string): Promise<Subscription>;
  /** The subscription an invoice belongs to (read from the provider). */
  invoiceSubscription(invoiceId: string): Promise<string | null>;
  /** Checks a webhook's signature over the raw body; throws ApiError 400 when it does not hold. */
  verifyEvent(rawBody: string, signature: string | undefined): Promise<BillingEvent>;
  /** A link to the provider's customer portal, or null where there is none (local). */
  portalUrl(customerId: string, returnUrl: string): Promise<string | null>;
}
