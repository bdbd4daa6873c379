// The Stripe adapter (official SDK, fetch client) against the Stripe stand-in over real HTTP: form
// bodies, idempotency keys, Stripe's answer shapes, and the signature check of its events.
import { describe, expect, inject, it } from "vitest";
import { ApiError } from "../../lib/errors";
import { eq } from "drizzle-orm";
import { authUsers, customers, subscriptions } from "../../db/schema";
import { hashPassword } from "../../lib/crypto";
import { call, db, uniqueEmail } from "../../test/helpers";
import { STRIPE_STANDIN } from "../../test/standins/stripe";
import { signStripePayload } from "./stripe-events";
import { StripeBilling } from "./stripe";

const base = () => inject("standins").stripe;
const newKey = () => `${STRIPE_STANDIN.keyPrefix}${crypto.randomUUID().replace(/-/g, "")}`;
const adapter = (key = newKey(), webhookSecret: string | null = "whsec_standin") => new StripeBilling({ secretKey: key, webhookSecret, apiBase: base() });

async function requests(key: string) {
  return (await (await fetch(`${base()}/test/requests?key=${key}`)).json()) as { method: string; path: string; idempotencyKey: string | null; form: Record<string, string> }[];
}
async function put(key: string, obj: object) {
  await fetch(`${base()}/v1/test-objects`, { method: "PUT", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(obj) });
}

describe("StripeBilling", () => {
  it("reads active basic and pro products with their active recurring prices, once within the cache time", async () => {
    const key = newKey();
    const billing = adapter(key);
    const products = await billing.listProducts();
    expect(products.map((p) => [p.id, p.metadata.product_type, p.prices.map((x) => x.id)])).toEqual([
      ["prod_basic", "basic", ["price_basic_m", "price_basic_y"]],
      ["prod_pro", "pro", ["price_pro_m"]],
    ]);
    expect(products[0].prices[1]).toEqual({ id: "price_basic_y", active: true, interval: "year", unit_amount: 31320, currency: "usd" });
    await billing.listProducts();
    expect((await requests(key)).filter((r) => r.path === "/v1/products")).toHaveLength(1);
  });

  it("creates a subscription-mode checkout session with an idempotency key; a retry with the key creates nothing new", async () => {
    const key = newKey();
    const billing = adapter(key);
    const req = { priceId: "price_pro_m", quantity: 2, successUrl: "http://app/payments/success?session_id={CHECKOUT_SESSION_ID}", cancelUrl: "http://app/payments/cancel", customerEmail: "a@example.com", idempotencyKey: `k-${crypto.randomUUID()}` };
    const first = await billing.createCheckoutSession(req);
    const again = await billing.createCheckoutSession(req);
    expect(again.id).toBe(first.id);
    expect(first.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const [post] = (await requests(key)).filter((r) => r.path === "/v1/checkout/sessions");
    expect(post.idempotencyKey).toBe(req.idempotencyKey);
    expect(post.form).toMatchObject({
      mode: "subscription",
      "line_items[0][price]": "price_pro_m",
      "line_items[0][quantity]": "2",
      success_url: req.successUrl,
      cancel_url: req.cancelUrl,
      customer_email: "a@example.com",
    });
    const session = await billing.getCheckoutSession(first.id);
    expect(session).toMatchObject({ id: first.id, status: "open", amount_total: 19800, currency: "usd", price_id: "price_pro_m", customer: null });
    expect(await billing.getCheckoutSession("cs_test_missing")).toBeNull();
  });

  it("answers Stripe's invalid request as a 400 naming Stripe's parameter, a wrong key as a provider error", async () => {
    const bad = await adapter().createCheckoutSession({ priceId: "price_nope", quantity: 1, successUrl: "http://a/s", cancelUrl: "http://a/c", idempotencyKey: "x" }).catch((e) => e);
    expect(bad).toBeInstanceOf(ApiError);
    expect(bad).toMatchObject({ status: 400, field: "line_items[0][price]" });
    const wrong = await new StripeBilling({ secretKey: "sk_wrong", webhookSecret: null, apiBase: base() }).listProducts().catch((e) => e);
    expect(wrong).toMatchObject({ status: 502, code: "provider_error" });
  });

  it("starts a 7-day trial with no card, reads the period from the item and the product name for its id", async () => {
    const key = newKey();
    const billing = adapter(key);
    const customer = await billing.createCustomer({ email: "t@example.com", name: "T", idempotencyKey: `c-${crypto.randomUUID()}` });
    const sub = await billing.createSubscription({ customerId: customer.id, priceId: "price_basic_m", trialDays: 7, idempotencyKey: `s-${crypto.randomUUID()}` });
    expect(sub).toMatchObject({ customer: customer.id, status: "trialing", cancel_at_period_end: false, price: { id: "price_basic_m", unit_amount: 2900, interval: "month", product: { id: "prod_basic", name: "Basic" } } });
    expect(sub.current_period_end).toBe(sub.trial_end);
    const post = (await requests(key)).find((r) => r.path === "/v1/subscriptions")!;
    expect(post.form).toMatchObject({ trial_period_days: "7", "trial_settings[end_behavior][missing_payment_method]": "cancel" });
    expect(post.idempotencyKey).toMatch(/^s-/);
    const cancelled = await billing.cancelSubscription(sub.id, `cancel:${sub.id}`);
    expect(cancelled.cancel_at_period_end).toBe(true);
    expect((await billing.listCustomerSubscriptions(customer.id)).map((s) => s.id)).toEqual([sub.id]);
    expect(await billing.getSubscription("sub_missing")).toBeNull();
  });

  it("reads an invoice's subscription under parent.subscription_details", async () => {
    const key = newKey();
    await put(key, { id: "in_1", object: "invoice", parent: { type: "subscription_details", subscription_details: { subscription: "sub_42" } } });
    expect(await adapter(key).invoiceSubscription("in_1")).toBe("sub_42");
    expect(await adapter(key).invoiceSubscription("in_missing")).toBeNull();
  });

  it("verifies events with the webhook secret and refuses other signatures", async () => {
    const billing = adapter(newKey(), "whsec_standin");
    const body = JSON.stringify({ id: "evt_1", type: "invoice.paid", created: 1, data: { object: { id: "in_1" } } });
    expect(await billing.verifyEvent(body, await signStripePayload(body, "whsec_standin"))).toMatchObject({ id: "evt_1", type: "invoice.paid", objectId: "in_1" });
    await expect(billing.verifyEvent(body, await signStripePayload(body, "whsec_other"))).rejects.toMatchObject({ status: 400, code: "invalid_signature" });
    await expect(adapter(newKey(), null).verifyEvent(body, "t=1,v1=x")).rejects.toMatchObject({ status: 503 });
  });

  it("refuses a signature header with two timestamps, even when the last one signs the body", async () => {
    const billing = adapter(newKey(), "whsec_standin");
    const body = JSON.stringify({ id: "evt_2t", type: "invoice.paid", created: 1, data: { object: { id: "in_1" } } });
    const now = Math.floor(Date.now() / 1000);
    const future = await signStripePayload(body, "whsec_standin", now + 3600);
    await expect(billing.verifyEvent(body, `t=${now},${future}`)).rejects.toMatchObject({ status: 400, code: "invalid_signature", field: "stripe-signature" });
    await expect(billing.verifyEvent(body, future)).rejects.toMatchObject({ status: 400, code: "invalid_signature" });
  });

  it("starts an account's own checkout under its customer, with its reference and company, and ends a replaced subscription now", async () => {
    const key = newKey();
    const billing = adapter(key);
    const customer = await billing.createCustomer({ email: "u@example.com", idempotencyKey: `c-${crypto.randomUUID()}` });
    const trial = await billing.createSubscription({ customerId: customer.id, priceId: "price_basic_m", trialDays: 7, idempotencyKey: `s-${crypto.randomUUID()}` });
    const created = await billing.createCheckoutSession({
      priceId: "price_pro_m",
      quantity: 1,
      successUrl: "http://app/s",
      cancelUrl: "http://app/c",
      customerEmail: "u@example.com",
      customerId: customer.id,
      clientReferenceId: "user-1",
      metadata: { company: "Acme" },
      idempotencyKey: `k-${crypto.randomUUID()}`,
    });
    const [post] = (await requests(key)).filter((r) => r.path === "/v1/checkout/sessions");
    expect(post.form).toMatchObject({ customer: customer.id, client_reference_id: "user-1", "metadata[company]": "Acme" });
    // Stripe takes the customer or an email, not both.
    expect(post.form.customer_email).toBeUndefined();
    expect(await billing.getCheckoutSession(created.id)).toMatchObject({ customer: customer.id, client_reference_id: "user-1", metadata: { company: "Acme" } });
    const ended = await billing.endSubscriptionNow(trial.id, `replace:${trial.id}`);
    expect(ended).toMatchObject({ id: trial.id, status: "canceled" });
    expect((await requests(key)).filter((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/${trial.id}`)).toHaveLength(1);
    // Ended already: nothing more is sent.
    expect((await billing.endSubscriptionNow(trial.id, `replace:${trial.id}`)).status).toBe("canceled");
    expect((await requests(key)).filter((r) => r.method === "DELETE")).toHaveLength(1);
  });

  it("an upgrade from a trial through the app pays under the trial's customer and ends the trial at Stripe", async () => {
    const key = newKey();
    const bindings = { STRIPE_SECRET_KEY: key, STRIPE_API_BASE: base(), STRIPE_WEBHOOK_SECRET: "whsec_standin" };
    const email = uniqueEmail("stripe-upgrade");
    const trial = await call("/api/stripe/start-trial", { method: "POST", bindings, json: { email, priceId: "price_basic_m", first_name: "S", last_name: "U" } });
    expect(trial.body.subscription).toMatchObject({ status: "trialing" });
    const [user] = await db().select().from(authUsers).where(eq(authUsers.email, email));
    await db().update(authUsers).set({ passwordHash: await hashPassword("Trial1234", 1000), emailConfirmedAt: new Date().toISOString() }).where(eq(authUsers.id, user.id));
    const token = (await call("/auth/v1/token?grant_type=password", { method: "POST", json: { email, password: "Trial1234" } })).body.access_token as string;
    const [before] = await db().select().from(customers).where(eq(customers.email, email));

    const created = await call("/api/stripe/create-checkout-session", {
      method: "POST",
      bindings,
      token,
      json: { priceId: "price_pro_m", quantity: 1, successUrl: "http://localhost/payments/success", cancelUrl: "http://localhost/payments/cancel", customerEmail: email },
    });
    expect(created.status).toBe(200);
    const [post] = (await requests(key)).filter((r) => r.path === "/v1/checkout/sessions");
    expect(post.form).toMatchObject({ customer: before.stripeCustomerId, client_reference_id: user.id });

    // Stripe completes the session with a new subscription under the same customer, then sends the event.
    const billing = adapter(key);
    const paid = await billing.createSubscription({ customerId: before.stripeCustomerId!, priceId: "price_pro_m", idempotencyKey: `s-${crypto.randomUUID()}` });
    await put(key, { id: created.body.sessionId, status: "complete", payment_status: "paid", subscription: paid.id, customer_details: { email, name: "S U" } });
    const body = JSON.stringify({ id: `evt_${crypto.randomUUID()}`, type: "checkout.session.completed", created: 1, data: { object: { id: created.body.sessionId } } });
    const delivered = await call("/api/webhooks/stripe", { method: "POST", bindings, body, headers: { "content-type": "application/json", "stripe-signature": await signStripePayload(body, "whsec_standin") } });
    expect(delivered).toMatchObject({ status: 200, body: { handled: true } });

    const atStripe = await billing.listCustomerSubscriptions(before.stripeCustomerId!);
    expect(atStripe.map((s) => [s.price.product.name, s.status]).sort()).toEqual([["Basic", "canceled"], ["Pro", "active"]]);
    expect((await requests(key)).filter((r) => r.path === "/v1/customers" && r.method === "POST")).toHaveLength(1);
    const [after] = await db().select().from(customers).where(eq(customers.email, email));
    expect(after).toMatchObject({ stripeCustomerId: before.stripeCustomerId, subscriptionId: paid.id, subscriptionStatus: "active", currentPlan: "pro" });
    const live = await db().select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    expect(live.filter((s) => s.status !== "canceled").map((s) => s.id)).toEqual([paid.id]);
  });

  it("is the billing adapter when STRIPE_SECRET_KEY is set: health says real, plans come from Stripe", async () => {
    const bindings = { STRIPE_SECRET_KEY: newKey(), STRIPE_API_BASE: base() };
    expect((await call("/api/health", { bindings })).body.providers).toMatchObject({ billing: "real" });
    const products = await call("/api/stripe/products", { bindings });
    expect(products.body.products.map((p: { id: string }) => p.id)).toEqual(["prod_basic", "prod_pro"]);
    const checkout = await call("/api/stripe/create-checkout-session", {
      method: "POST",
      bindings,
      json: { priceId: "price_pro_m", quantity: 1, successUrl: "http://localhost/payments/success", cancelUrl: "http://localhost/payments/cancel" },
    });
    expect(checkout.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
  });
});
