// Plans, checkout, the local checkout page, trials, the first password and the Stripe webhook:
// happy paths, bad input, proof and ownership, and the webhook's security and ordering cases.
import { env } from "cloudflare:workers";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { app } from "../app";
import { accountActivations, authUsers, billingLocalObjects, customers, leads, mailOutbox, planLeads, profiles, rateLimits, rollupDirtyDays, subscriptions, webhookEvents } from "../db/schema";
import { nyDayOf } from "@shared/ny-time";
import { MAIL_PER_EMAIL } from "../db/rate-limit";
import { CARD_DECLINED_MESSAGE, LOCAL_CHECKOUT_PATH, STRIPE_WEBHOOK_PATH } from "../providers/billing/local";
import { DEV_STRIPE_WEBHOOK_SECRET, signStripePayload } from "../providers/billing/stripe-events";
import { hashPassword } from "../lib/crypto";
import { BILLING_TEXT } from "@shared/messages";
import { call, db, signUpAndSignIn, spendLink, uniqueEmail } from "../test/helpers";
import { leadPayload } from "../test/payloads";
import { NEW_PASSWORD_TEXT } from "@shared/schemas/password";

const ORIGIN = "http://localhost";
const checkoutBody = (email: string, priceId = "price_local_pro_year") => ({
  priceId,
  quantity: 1,
  successUrl: `${ORIGIN}/payments/success?session_id={CHECKOUT_SESSION_ID}`,
  cancelUrl: `${ORIGIN}/payments/cancel`,
  customerEmail: email,
});

/** Posts the local checkout page's form, as the browser does. */
async function pay(sessionId: string, card: string) {
  const res = await app.request(
    `${ORIGIN}${LOCAL_CHECKOUT_PATH}/${sessionId}/pay`,
    { method: "POST", body: new URLSearchParams({ card, name: "Pat Buyer" }), headers: { "cf-connecting-ip": "10.9.9.9" } },
    env,
  );
  return { status: res.status, location: res.headers.get("location"), text: await res.text() };
}

async function paidCheckout(email = uniqueEmail("buyer")) {
  const created = await call("/api/stripe/create-checkout-session", { method: "POST", json: checkoutBody(email) });
  expect(created.status).toBe(200);
  const paid = await pay(created.body.sessionId, "4242 4242 4242 4242");
  expect(paid.status).toBe(303);
  return { email, sessionId: created.body.sessionId as string, location: paid.location! };
}

async function deliver(payload: object, opts: { secret?: string; timestamp?: number } = {}) {
  const body = JSON.stringify(payload);
  const signature = await signStripePayload(body, opts.secret ?? DEV_STRIPE_WEBHOOK_SECRET, opts.timestamp);
  return call(STRIPE_WEBHOOK_PATH, { method: "POST", body, headers: { "stripe-signature": signature, "content-type": "application/json" } });
}

const event = (type: string, object: object, id = `evt_test_${crypto.randomUUID()}`) => ({ id, object: "event", type, created: 1, data: { object } });
const mailsTo = (email: string) => db().select().from(mailOutbox).where(eq(mailOutbox.toEmail, email.toLowerCase()));

describe("plans and checkout", () => {
  it("lists basic and pro, monthly and annual, the annual price 10% below twelve months", async () => {
    const res = await call("/api/stripe/products");
    expect(res.status).toBe(200);
    const types = res.body.products.map((p: { metadata: { product_type: string } }) => p.metadata.product_type);
    expect(types).toEqual(["basic", "pro"]);
    for (const p of res.body.products) {
      const month = p.prices.find((x: { interval: string }) => x.interval === "month");
      const year = p.prices.find((x: { interval: string }) => x.interval === "year");
      expect(year.unit_amount).toBe(Math.round(month.unit_amount * 12 * 0.9));
    }
  });

  it("refuses a missing price, bad fields and return URLs on another site", async () => {
    const missing = await call("/api/stripe/create-checkout-session", { method: "POST", json: checkoutBody(uniqueEmail(), "price_nope") });
    expect(missing).toMatchObject({ status: 400, body: { code: "product_unavailable", field: "priceId", error: "Product not available" } });
    const bad = await call("/api/stripe/create-checkout-session", { method: "POST", json: { ...checkoutBody(uniqueEmail()), quantity: 0 } });
    expect(bad).toMatchObject({ status: 400, body: { field: "quantity" } });
    const away = await call("/api/stripe/create-checkout-session", {
      method: "POST",
      json: { ...checkoutBody(uniqueEmail()), successUrl: "https://evil.example/steal" },
    });
    expect(away).toMatchObject({ status: 400, body: { field: "successUrl" } });
  });

  it("declines 4000 0000 0000 0002 with Stripe's message and charges nothing", async () => {
    const email = uniqueEmail("declined");
    const created = await call("/api/stripe/create-checkout-session", { method: "POST", json: checkoutBody(email) });
    const declined = await pay(created.body.sessionId, "4000 0000 0000 0002");
    expect(declined.status).toBe(402);
    expect(declined.text).toContain(CARD_DECLINED_MESSAGE);
    const session = await call(`/api/stripe/checkout-session/${created.body.sessionId}`);
    expect(session.body.session).toMatchObject({ status: "open", payment_status: "unpaid" });
    expect(await db().select().from(customers).where(eq(customers.email, email))).toHaveLength(0);
  });

  it("pays with 4242: back to the success URL; customer, active subscription, account and one activation mail", async () => {
    const { email, sessionId, location } = await paidCheckout();
    expect(location).toBe(`${ORIGIN}/payments/success?session_id=${sessionId}`);
    const session = await call(`/api/stripe/checkout-session/${sessionId}`);
    expect(session.body.session).toMatchObject({
      status: "complete",
      payment_status: "paid",
      amount_total: 107989,
      currency: "usd",
      customer_email: email,
      customer_details: { name: "Pat Buyer" },
      plan_name: "Pro",
      interval: "year",
    });
    const [customer] = await db().select().from(customers).where(eq(customers.email, email));
    expect(customer).toMatchObject({ currentPlan: "pro", subscriptionStatus: "active" });
    const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.id, customer.subscriptionId!));
    expect(sub).toMatchObject({ status: "active", productName: "Pro", userId: customer.userId, interval: "year" });
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.kind)).toEqual(["activation"]);
    const [user] = await db().select().from(authUsers).where(eq(authUsers.email, email));
    expect(user.passwordHash).toBeNull();
  });

  it("keeps the company typed at a paid checkout on the customer record and the new account's profile", async () => {
    const email = uniqueEmail("company");
    const created = await call("/api/stripe/create-checkout-session", { method: "POST", json: { ...checkoutBody(email), company: "Paid Co" } });
    expect(created.status).toBe(200);
    expect((await pay(created.body.sessionId, "4242424242424242")).status).toBe(303);
    const [customer] = await db().select().from(customers).where(eq(customers.email, email));
    expect(customer.company).toBe("Paid Co");
    const [profile] = await db().select().from(profiles).where(eq(profiles.id, customer.userId!));
    expect(profile.company).toBe("Paid Co");
    const long = await call("/api/stripe/create-checkout-session", { method: "POST", json: { ...checkoutBody(email), company: "x".repeat(201) } });
    expect(long).toMatchObject({ status: 400, body: { field: "company" } });
  });

  it("cancel returns to the cancel URL and the session stays unpaid", async () => {
    const created = await call("/api/stripe/create-checkout-session", { method: "POST", json: checkoutBody(uniqueEmail()) });
    const res = await app.request(`${ORIGIN}${LOCAL_CHECKOUT_PATH}/${created.body.sessionId}/cancel`, { method: "POST" }, env);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${ORIGIN}/payments/cancel`);
  });
});

describe("the first password needs proof", () => {
  it("refuses the email alone, another email's session and an unpaid session", async () => {
    const { email, sessionId } = await paidCheckout();
    const alone = await call("/api/admin/public/update-user-password", { method: "POST", json: { email, password: "Secret123" } });
    expect(alone).toMatchObject({ status: 400, body: { code: "proof_required", field: "sessionId" } });
    const other = await call("/api/admin/public/update-user-password", {
      method: "POST",
      json: { email: uniqueEmail("intruder"), password: "Secret123", sessionId },
    });
    expect(other).toMatchObject({ status: 403, body: { code: "proof_required", field: "email" } });
    const open = await call("/api/stripe/create-checkout-session", { method: "POST", json: checkoutBody(email) });
    const unpaid = await call("/api/admin/public/update-user-password", {
      method: "POST",
      json: { email, password: "Secret123", sessionId: open.body.sessionId },
    });
    expect(unpaid.status).toBe(403);
    const weak = await call("/api/admin/public/update-user-password", { method: "POST", json: { email, password: "secret123", sessionId } });
    expect(weak).toMatchObject({ status: 400, body: { field: "password", issues: [{ field: "password", message: NEW_PASSWORD_TEXT.characters }] } });
  });

  it("sets the password once with the paid session, then the buyer signs in; a second use is refused", async () => {
    const { email, sessionId } = await paidCheckout();
    const set = await call("/api/admin/public/update-user-password", { method: "POST", json: { email, password: "Secret123", sessionId } });
    expect(set).toMatchObject({ status: 200, body: { success: true } });
    const signIn = await call("/auth/v1/token?grant_type=password", { method: "POST", json: { email, password: "Secret123" } });
    expect(signIn.status).toBe(200);
    const again = await call("/api/admin/public/update-user-password", { method: "POST", json: { email, password: "Other1234", sessionId } });
    expect(again).toMatchObject({ status: 409, body: { code: "conflict" } });
    const old = await call("/auth/v1/token?grant_type=password", { method: "POST", json: { email, password: "Other1234" } });
    expect(old.status).toBe(400);
  });
});

describe("a paid session proves only the account it created", () => {
  const setPassword = (email: string, sessionId: string, password = "Taken123") =>
    call("/api/admin/public/update-user-password", { method: "POST", json: { email, password, sessionId } });
  const signsIn = async (email: string, password: string) =>
    (await call("/auth/v1/token?grant_type=password", { method: "POST", json: { email, password } })).status === 200;

  it("refuses a stranger's paid session for a trial's pending account; the trial's own link still activates it", async () => {
    const email = uniqueEmail("victim");
    const trial = await call("/api/stripe/start-trial", { method: "POST", json: { email, priceId: "price_local_basic_month", first_name: "Vic", last_name: "Tim" } });
    expect(trial.status).toBe(200);
    // The stranger buys a plan in the victim's name and pays it.
    const created = await call("/api/stripe/create-checkout-session", { method: "POST", json: checkoutBody(email) });
    expect((await pay(created.body.sessionId, "4242424242424242")).status).toBe(303);
    const taken = await setPassword(email, created.body.sessionId);
    expect(taken).toMatchObject({ status: 403, body: { code: "proof_required", field: "sessionId", error: BILLING_TEXT.sessionNotCreator } });
    expect(await signsIn(email, "Taken123")).toBe(false);
    const [user] = await db().select().from(authUsers).where(eq(authUsers.email, email));
    expect(user.passwordHash).toBeNull();
  });

  it("keeps the session that created the account: a later paid session with the same email proves nothing", async () => {
    const { email, sessionId: first } = await paidCheckout();
    const later = await call("/api/stripe/create-checkout-session", { method: "POST", json: checkoutBody(email, "price_local_basic_month") });
    expect((await pay(later.body.sessionId, "4242424242424242")).status).toBe(303);
    const [row] = await db().select().from(accountActivations).where(eq(accountActivations.email, email));
    expect(row.checkoutSessionId).toBe(first);
    expect(await setPassword(email, later.body.sessionId)).toMatchObject({ status: 403, body: { error: BILLING_TEXT.sessionNotCreator } });
    expect(await setPassword(email, first, "Owner1234")).toMatchObject({ status: 200 });
    expect(await signsIn(email, "Owner1234")).toBe(true);
  });

  it("refuses a paid session for an account registered on /auth, before or after its event arrives", async () => {
    const email = uniqueEmail("registered");
    const signup = await call("/auth/v1/signup", { method: "POST", json: { email, password: "Mine1234", data: { username: "me" } } });
    expect(signup.status).toBe(200);
    // Paid in the account's name with no event delivered yet: the proof call itself finds the account.
    const created = await call("/api/stripe/create-checkout-session", { method: "POST", json: checkoutBody(email) });
    const local = await db().select().from(billingLocalObjects).where(eq(billingLocalObjects.id, created.body.sessionId)).get();
    await db()
      .update(billingLocalObjects)
      .set({ data: { ...local!.data, status: "complete", payment_status: "paid", customer_details: { name: "S", email } } })
      .where(eq(billingLocalObjects.id, created.body.sessionId));
    const taken = await setPassword(email, created.body.sessionId);
    expect(taken.status).toBeGreaterThanOrEqual(400);
    expect(taken.status).toBeLessThan(500);
    expect(await signsIn(email, "Taken123")).toBe(false);
  });

  it("a repeated trial gives the same trial back and changes nothing another caller typed", async () => {
    const email = uniqueEmail("repeat");
    const body = { email, priceId: "price_local_basic_month", first_name: "Own", last_name: "Er", company: "Owner Co" };
    const first = await call("/api/stripe/start-trial", { method: "POST", json: body });
    const again = await call("/api/stripe/start-trial", { method: "POST", json: { ...body, first_name: "Str", last_name: "Anger", company: "Stranger Co" } });
    expect(again).toMatchObject({ status: 200, body: { subscription: { id: first.body.subscription.id } } });
    const [customer] = await db().select().from(customers).where(eq(customers.email, email));
    expect(customer.company).toBe("Owner Co");
  });

  it("a repeated trial for another plan gives the same trial back: one live subscription, one customer", async () => {
    const email = uniqueEmail("repeat-plan");
    const body = { email, priceId: "price_local_basic_month", first_name: "Own", last_name: "Er" };
    const first = await call("/api/stripe/start-trial", { method: "POST", json: body });
    const again = await call("/api/stripe/start-trial", { method: "POST", json: { ...body, priceId: "price_local_pro_month" } });
    expect(again).toMatchObject({ status: 200, body: { subscription: { id: first.body.subscription.id, status: "trialing" } } });
    const subs = await db().select().from(subscriptions).where(sql`${subscriptions.userId} = (select id from auth_users where email = ${email})`);
    expect(subs.map((s) => [s.id, s.status])).toEqual([[first.body.subscription.id, "trialing"]]);
    expect(await db().select().from(customers).where(eq(customers.email, email))).toHaveLength(1);
  });

  it("a repeated trial is refused for an account a paid checkout made", async () => {
    const { email } = await paidCheckout();
    const again = await call("/api/stripe/start-trial", { method: "POST", json: { email, priceId: "price_local_basic_month", first_name: "S", last_name: "T" } });
    expect(again).toMatchObject({ status: 409, body: { field: "email" } });
    const subs = await db().select().from(subscriptions).where(sql`${subscriptions.userId} = (select id from auth_users where email = ${email})`);
    expect(subs.map((s) => s.status)).toEqual(["active"]);
  });
});

describe("trial", () => {
  it("starts a 7-day trial with no card and activates through the mailed link", async () => {
    const email = uniqueEmail("trial");
    const res = await call("/api/stripe/start-trial", {
      method: "POST",
      json: { email, priceId: "price_local_basic_month", first_name: "Tina", last_name: "Trial", company: "Trial Co" },
    });
    expect(res.status).toBe(200);
    expect(res.body.subscription.status).toBe("trialing");
    const days = (Date.parse(res.body.subscription.trial_end) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const [activation] = await mailsTo(email);
    expect(activation.kind).toBe("activation");
    // The link opens /activate-account with the token in the fragment; the page spends it by POST.
    const target = new URL(activation.link!);
    expect(target.pathname).toBe("/activate-account");
    expect(target.searchParams.get("email")).toBe(email);
    expect(target.searchParams.has("access_token")).toBe(false);
    const verify = await spendLink(activation.link!);
    expect(verify.status).toBe(200);
    const token = verify.body.access_token as string;
    const update = await call("/auth/v1/user", { method: "PUT", token, json: { password: "Trial1234" } });
    expect(update.status).toBe(200);
    expect((await call("/auth/v1/token?grant_type=password", { method: "POST", json: { email, password: "Trial1234" } })).status).toBe(200);
    // The link works once.
    const reused = await spendLink(activation.link!);
    expect(reused).toMatchObject({ status: 403, body: { code: "otp_invalid" } });
  });

  it("refuses a trial for an existing account and bad fields", async () => {
    const s = await signUpAndSignIn();
    const taken = await call("/api/stripe/start-trial", {
      method: "POST",
      json: { email: s.email, priceId: "price_local_basic_month", first_name: "A", last_name: "B" },
    });
    expect(taken).toMatchObject({ status: 409, body: { field: "email" } });
    const bad = await call("/api/stripe/start-trial", { method: "POST", json: { email: uniqueEmail(), priceId: "price_local_basic_month", first_name: "", last_name: "B" } });
    expect(bad).toMatchObject({ status: 400, body: { field: "first_name" } });
  });

  it("resends the activation link only to an account waiting for its password, answering alike", async () => {
    const email = uniqueEmail("resend");
    await call("/api/stripe/start-trial", { method: "POST", json: { email, priceId: "price_local_pro_month", first_name: "R", last_name: "S" } });
    const res = await call("/api/admin/public/resend-activation", { method: "POST", json: { email } });
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    expect(await mailsTo(email)).toHaveLength(2);
    const nobody = await call("/api/admin/public/resend-activation", { method: "POST", json: { email: uniqueEmail("nobody") } });
    expect(nobody).toMatchObject({ status: 200, body: { success: true } });
    const missing = await call("/api/admin/public/resend-activation", { method: "POST", json: {} });
    expect(missing).toMatchObject({ status: 400, body: { field: "email" } });
  });
});

describe("POST /api/webhooks/stripe", () => {
  it("refuses a forged signature, a missing one and a stale one, before reading the event", async () => {
    const payload = event("invoice.paid", { id: "in_x" });
    expect((await deliver(payload, { secret: "whsec_wrong" })).body).toMatchObject({ code: "invalid_signature" });
    const unsigned = await call(STRIPE_WEBHOOK_PATH, { method: "POST", json: payload });
    expect(unsigned).toMatchObject({ status: 400, body: { field: "stripe-signature" } });
    const stale = await deliver(payload, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(stale).toMatchObject({ status: 400, body: { code: "invalid_signature" } });
    const fresh = await deliver(payload, { timestamp: Math.floor(Date.now() / 1000) - 290 });
    expect(fresh.status).toBe(200);
    // A valid signature over a changed body fails too.
    const body = JSON.stringify(payload);
    const signature = await signStripePayload(body, DEV_STRIPE_WEBHOOK_SECRET);
    const tampered = await call(STRIPE_WEBHOOK_PATH, { method: "POST", body: body.replace("in_x", "in_y"), headers: { "content-type": "application/json", "stripe-signature": signature } });
    expect(tampered.status).toBe(400);
  });

  it("refuses a signature header that carries two timestamps", async () => {
    const payload = event("invoice.paid", { id: "in_two_t" });
    const body = JSON.stringify(payload);
    const now = Math.floor(Date.now() / 1000);
    const valid = await signStripePayload(body, DEV_STRIPE_WEBHOOK_SECRET, now + 3600);
    // A far-future signature with a current timestamp in front of it.
    const doubled = `t=${now},${valid}`;
    const res = await call(STRIPE_WEBHOOK_PATH, { method: "POST", body, headers: { "content-type": "application/json", "stripe-signature": doubled } });
    expect(res).toMatchObject({ status: 400, body: { code: "invalid_signature", field: "stripe-signature" } });
    expect(await db().select().from(webhookEvents).where(eq(webhookEvents.id, payload.id))).toHaveLength(0);
  });

  it("applies ten concurrent deliveries of one checkout event once: one record, one account, one mail", async () => {
    const email = uniqueEmail("replay");
    const created = await call("/api/stripe/create-checkout-session", { method: "POST", json: checkoutBody(email) });
    // Complete the session without its own events, then deliver one event ten times at once.
    const local = await db().select().from(billingLocalObjects).where(eq(billingLocalObjects.id, created.body.sessionId)).get();
    await db()
      .update(billingLocalObjects)
      .set({ data: { ...local!.data, status: "complete", payment_status: "paid", customer_details: { name: "R", email } } })
      .where(eq(billingLocalObjects.id, created.body.sessionId));
    const payload = event("checkout.session.completed", { id: created.body.sessionId, object: "checkout.session" });
    const results = await Promise.all(Array.from({ length: 10 }, () => deliver(payload)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.duplicate === false)).toHaveLength(1);
    expect(await db().select().from(webhookEvents).where(eq(webhookEvents.id, payload.id))).toHaveLength(1);
    expect(await db().select().from(authUsers).where(eq(authUsers.email, email))).toHaveLength(1);
    expect(await db().select().from(accountActivations).where(eq(accountActivations.email, email))).toHaveLength(1);
    expect(await mailsTo(email)).toHaveLength(1);
    // Replayed later, it changes nothing.
    expect((await deliver(payload)).body).toMatchObject({ duplicate: true });
    expect(await mailsTo(email)).toHaveLength(1);
    // The mail is counted once against the hourly cap: the cap's count rides in the provisioning batch,
    // counted only while the event is new there.
    const [cap] = await db().select().from(rateLimits).where(eq(rateLimits.key, `${MAIL_PER_EMAIL.name}:${email.toLowerCase()}`));
    expect(cap?.count).toBe(1);
  });

  it("reaches the same final state whatever the order of the subscription's events", async () => {
    const finalState = async (order: "forward" | "reverse") => {
      const { email } = await paidCheckout();
      const [customer] = await db().select().from(customers).where(eq(customers.email, email));
      const subId = customer.subscriptionId!;
      const invoice = await db()
        .select()
        .from(billingLocalObjects)
        .where(and(eq(billingLocalObjects.kind, "invoice"), sql`json_extract(${billingLocalObjects.data}, '$.parent.subscription_details.subscription') = ${subId}`))
        .get();
      const current = await db().select().from(billingLocalObjects).where(eq(billingLocalObjects.id, subId)).get();
      // At the provider the subscription is now past due, then cancelled.
      await db()
        .update(billingLocalObjects)
        .set({ data: { ...current!.data, status: "canceled", cancel_at_period_end: false } })
        .where(eq(billingLocalObjects.id, subId));
      const events = [
        event("customer.subscription.updated", { ...current!.data, status: "past_due" }),
        event("invoice.payment_failed", { id: invoice!.id }),
        event("customer.subscription.deleted", { ...current!.data, status: "canceled" }),
      ];
      for (const e of order === "forward" ? events : [...events].reverse()) expect((await deliver(e)).status).toBe(200);
      const [sub] = await db().select().from(subscriptions).where(eq(subscriptions.id, subId));
      const [after] = await db().select().from(customers).where(eq(customers.email, email));
      return { status: sub.status, customerStatus: after.subscriptionStatus, owner: Boolean(sub.userId) };
    };
    const forward = await finalState("forward");
    expect(forward).toEqual({ status: "canceled", customerStatus: "canceled", owner: true });
    expect(await finalState("reverse")).toEqual(forward);
  });

  it("an update of a known subscription re-reads it and keeps its owner", async () => {
    const email = uniqueEmail("early");
    const created = await call("/api/stripe/create-checkout-session", { method: "POST", json: checkoutBody(email) });
    const paid = await pay(created.body.sessionId, "4242424242424242");
    expect(paid.status).toBe(303);
    const [sub] = await db().select().from(subscriptions).where(sql`${subscriptions.customerId} in (select stripe_customer_id from customers where email = ${email})`);
    // An update delivered again after everything changes nothing but the state it re-reads.
    expect((await deliver(event("customer.subscription.updated", { id: sub.id }))).body).toMatchObject({ handled: true, duplicate: false });
    const [again] = await db().select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(again.userId).toBe(sub.userId);
  });
});

describe("upgrading from a trial", () => {
  /** A trial's account whose owner has set a password and signed in (the activation link's effect). */
  async function activeTrial() {
    const email = uniqueEmail("upgrade");
    const trial = await call("/api/stripe/start-trial", { method: "POST", json: { email, priceId: "price_local_basic_month", first_name: "Up", last_name: "Grade", company: "Up Co" } });
    expect(trial.status).toBe(200);
    const [user] = await db().select().from(authUsers).where(eq(authUsers.email, email));
    await db().update(authUsers).set({ passwordHash: await hashPassword("Trial1234", 1000), emailConfirmedAt: new Date().toISOString() }).where(eq(authUsers.id, user.id));
    await db().update(accountActivations).set({ passwordSetAt: new Date().toISOString() }).where(eq(accountActivations.userId, user.id));
    const token = (await call("/auth/v1/token?grant_type=password", { method: "POST", json: { email, password: "Trial1234" } })).body.access_token as string;
    expect(token).toBeTruthy();
    return { email, userId: user.id, token, trialId: trial.body.subscription.id as string };
  }

  it("replaces the trial: one customer, the trial ended, one live subscription, and no password step", async () => {
    const { email, userId, token, trialId } = await activeTrial();
    const [before] = await db().select().from(customers).where(eq(customers.email, email));
    const created = await call("/api/stripe/create-checkout-session", { method: "POST", token, json: checkoutBody(email, "price_local_pro_month") });
    expect(created.status).toBe(200);
    expect((await pay(created.body.sessionId, "4242424242424242")).status).toBe(303);

    const [after] = await db().select().from(customers).where(eq(customers.email, email));
    expect(after).toMatchObject({ stripeCustomerId: before.stripeCustomerId, currentPlan: "pro", subscriptionStatus: "active", userId });
    expect(after.subscriptionId).not.toBe(trialId);
    const mine = await db().select().from(subscriptions).where(eq(subscriptions.userId, userId));
    expect(mine.filter((s) => ["trialing", "active"].includes(s.status)).map((s) => s.productName)).toEqual(["Pro"]);
    expect(mine.find((s) => s.id === trialId)?.status).toBe("canceled");
    const providerCustomers = await db()
      .select()
      .from(billingLocalObjects)
      .where(and(eq(billingLocalObjects.kind, "customer"), sql`json_extract(${billingLocalObjects.data}, '$.email') = ${email}`));
    expect(providerCustomers).toHaveLength(1);
    // The owner sees the new plan and can cancel it.
    const list = await call(`/api/stripe/customer-subscriptions/${after.stripeCustomerId}`, { token });
    expect(list.body.subscriptions.filter((s: { status: string }) => s.status !== "canceled")).toHaveLength(1);
    // The success page: the account has its password, so it is not asked for one.
    const view = await call(`/api/stripe/checkout-session/${created.body.sessionId}`);
    expect(view.body.session).toMatchObject({ plan_name: "Pro", needs_password: false });
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it("says a session needs the password step only for the account it created and has not activated", async () => {
    const { sessionId } = await paidCheckout();
    expect((await call(`/api/stripe/checkout-session/${sessionId}`)).body.session).toMatchObject({ needs_password: true });
    const email = uniqueEmail("pending-trial");
    await call("/api/stripe/start-trial", { method: "POST", json: { email, priceId: "price_local_basic_month", first_name: "P", last_name: "T" } });
    const stranger = await call("/api/stripe/create-checkout-session", { method: "POST", json: checkoutBody(email) });
    expect((await call(`/api/stripe/checkout-session/${stranger.body.sessionId}`)).body.session).toMatchObject({ needs_password: false });
    await pay(stranger.body.sessionId, "4242424242424242");
    expect((await call(`/api/stripe/checkout-session/${stranger.body.sessionId}`)).body.session).toMatchObject({ needs_password: false });
  });

  it("a stranger's checkout in an account's email does not end its trial", async () => {
    const { email, userId, trialId } = await activeTrial();
    const created = await call("/api/stripe/create-checkout-session", { method: "POST", json: checkoutBody(email) });
    expect((await pay(created.body.sessionId, "4242424242424242")).status).toBe(303);
    const [trial] = await db().select().from(subscriptions).where(and(eq(subscriptions.id, trialId), eq(subscriptions.userId, userId)));
    expect(trial.status).toBe("trialing");
  });
});

describe("subscriptions of an account", () => {
  it("lists and cancels the owner's subscription at period end; others are refused", async () => {
    const { email, sessionId } = await paidCheckout();
    await call("/api/admin/public/update-user-password", { method: "POST", json: { email, password: "Secret123", sessionId } });
    const token = (await call("/auth/v1/token?grant_type=password", { method: "POST", json: { email, password: "Secret123" } })).body.access_token;
    const mine = await call(`/api/leads/customers/by-email?email=${encodeURIComponent(email)}`, { token });
    expect(mine.body).toMatchObject({ success: true, customer: { current_plan: "pro", subscription_status: "active" } });
    const customerId = mine.body.customer.stripe_customer_id;
    const list = await call(`/api/stripe/customer-subscriptions/${customerId}`, { token });
    expect(list.body.subscriptions[0]).toMatchObject({ status: "active", items: { data: [{ price: { product: { name: "Pro" } } }] } });
    const stranger = await signUpAndSignIn();
    expect((await call(`/api/stripe/customer-subscriptions/${customerId}`, { token: stranger.accessToken })).status).toBe(403);
    expect((await call(`/api/leads/customers/by-email?email=${encodeURIComponent(email)}`, { token: stranger.accessToken })).status).toBe(403);
    const subscriptionId = list.body.subscriptions[0].id;
    const foreign = await call("/api/stripe/cancel-subscription", { method: "POST", token: stranger.accessToken, json: { subscriptionId } });
    expect(foreign).toMatchObject({ status: 404, body: { error: "No active subscription to cancel" } });
    const cancel = await call("/api/stripe/cancel-subscription", { method: "POST", token, json: { subscriptionId } });
    expect(cancel.body.subscription).toMatchObject({ status: "active", cancel_at_period_end: true });
    const [row] = await db().select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    expect(row.cancelAtPeriodEnd).toBe(true);
    expect((await call("/api/stripe/cancel-subscription", { method: "POST", json: { subscriptionId } })).status).toBe(401);
  });

  it("keeps the customer tools for admins", async () => {
    const s = await signUpAndSignIn();
    const res = await call("/api/stripe/create-customer", { method: "POST", token: s.accessToken, json: { email: uniqueEmail() } });
    expect(res.status).toBe(403);
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    const created = await call("/api/stripe/create-customer", { method: "POST", token: admin.accessToken, json: { email: uniqueEmail(), name: "N" } });
    expect(created.status).toBe(200);
    const sub = await call("/api/stripe/create-subscription", {
      method: "POST",
      token: admin.accessToken,
      json: { customerId: created.body.customer.id, priceId: "price_local_basic_month" },
    });
    expect(sub.body.subscription).toMatchObject({ status: "active" });
    const missing = await call("/api/stripe/create-customer", { method: "POST", token: admin.accessToken, json: {} });
    expect(missing).toMatchObject({ status: 400, body: { field: "email" } });
  });
});

describe("POST /api/leads/leads", () => {

  it("stores the lead of docs/product/README.md#records as a visitor's plan lead", async () => {
    const body = leadPayload();
    const res = await call("/api/leads/leads", { method: "POST", json: body });
    expect(res.status).toBe(201);
    const [row] = await db().select().from(planLeads).where(eq(planLeads.id, res.body.lead.id));
    expect(row).toMatchObject({ email: body.email, leadSource: "trial", leadStatus: "new", interestLevel: 4 });
    expect(row.metadata).toMatchObject({ product_type: "pro", is_trial: true });
    expect(await db().select().from(leads).where(eq(leads.email, body.email))).toEqual([]);
  });

  it("moves no store figure: the lead summary, its roll-up and the daily report stay as they were", async () => {
    const staff = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    const day = nyDayOf(new Date());
    const range = `startDate=${day}&endDate=${day}`;
    const figures = async () => ({
      summary: (await call(`/api/lead-counts/summary?${range}`, { token: staff.accessToken })).body,
      report: (await call(`/api/daily-report?${range}`, { token: staff.accessToken })).body.text,
      dirty: await db().select().from(rollupDirtyDays).where(and(eq(rollupDirtyDays.source, "leads"), eq(rollupDirtyDays.day, day))),
    });
    const before = await figures();
    for (const lead_source of ["trial", "website"]) {
      const res = await call("/api/leads/leads", { method: "POST", json: leadPayload({ lead_source, metadata: { ...leadPayload().metadata, is_trial: lead_source === "trial" } }) });
      expect(res.status).toBe(201);
    }
    expect(await figures()).toEqual(before);
  });

  it("names the bad field", async () => {
    expect((await call("/api/leads/leads", { method: "POST", json: leadPayload({ phone: "305555014" }) })).body).toMatchObject({ field: "phone", error: "phone: Phone must have exactly 10 digits." });
    expect((await call("/api/leads/leads", { method: "POST", json: leadPayload({ email: "nope" }) })).body).toMatchObject({ field: "email" });
    expect((await call("/api/leads/leads", { method: "POST", json: leadPayload({ last_name: "" }) })).body).toMatchObject({ field: "last_name" });
    expect((await call("/api/leads/leads", { method: "POST", json: leadPayload({ interest_level: 5 }) })).body).toMatchObject({ field: "interest_level" });
    expect((await call("/api/leads/leads", { method: "POST", json: leadPayload({ lead_source: "store" }) })).body).toMatchObject({ field: "lead_source" });
  });
});
