// Card payments (docs/product/api.md#billing "Card payments"): the catalogue, checkout, trials and subscriptions under
// /api/stripe, whichever billing adapter runs. Visitors may read plans, start a checkout or a trial
// (rate limited); subscriptions are the owner's or an admin's; the customer tools are admin only.
import { type BillingConfigView, type CheckoutSessionCreatedResponse, type CheckoutSessionResponse, type CreateCustomerResponse, type CustomerSubscriptionsResponse, type PortalSessionResponse, type ProductsResponse, type StartTrialResponse, type SubscriptionResponse } from "@shared/schemas/billing";
import { clientAddress, emailAtAddress, enforce, PUBLIC_ACCOUNT_LIMITS, type Limit } from "../db/rate-limit";
import { currentUser } from "../middleware/auth";
import { billingDeps } from "../context/request-deps";
import {
  cancelSubscription,
  checkoutSessionView,
  createCheckout,
  createCustomerAtProvider,
  createSubscriptionAtProvider,
  customerSubscriptions,
  listPlans,
  portalUrl,
  startTrial,
} from "../services/billing";
import { DeclaredRoutes } from "./serve";

export const CHECKOUT_LIMIT: Limit = { name: "checkout:ip", limit: 20, windowSeconds: 60 };
export const SESSION_LOOKUP_LIMIT: Limit = { name: "checkout-session:ip", limit: 60, windowSeconds: 60 };

export const billingRoutes = new DeclaredRoutes()
  .serve("GET /api/stripe/config", (c) => {
    const body: BillingConfigView = {
      mode: c.var.providers.billing.kind,
      publishableKey: c.var.config.STRIPE_PUBLISHABLE_KEY ?? null,
      portal: c.var.providers.billing.kind === "stripe",
    };
    return c.json(body);
  })
  .serve("GET /api/stripe/products", async (c) => c.json({ products: await listPlans(c.var.providers.billing) } satisfies ProductsResponse))
  .serve("POST /api/stripe/create-checkout-session", async (c) => {
    await enforce(c, [[CHECKOUT_LIMIT, clientAddress(c)]]);
    // A signed-in buyer's checkout is for their account (an upgrade replaces its subscription).
    const session = await createCheckout(billingDeps(c), c.req.valid("json"), c.var.user);
    return c.json({ url: session.url, sessionId: session.id } satisfies CheckoutSessionCreatedResponse);
  })
  .serve("POST /api/stripe/start-trial", async (c) => {
    const body = c.req.valid("json");
    // The limits are counted with the trial's first reads (one round trip) and still answer first.
    const allowed = enforce(c, [
      [PUBLIC_ACCOUNT_LIMITS.perAddress, clientAddress(c)],
      [PUBLIC_ACCOUNT_LIMITS.perEmail, emailAtAddress(body.email, c)],
    ]);
    return c.json((await startTrial(billingDeps(c), body, allowed)) satisfies StartTrialResponse);
  })
  .serve("GET /api/stripe/checkout-session/:sessionId", async (c) => {
    await enforce(c, [[SESSION_LOOKUP_LIMIT, clientAddress(c)]]);
    return c.json({ session: await checkoutSessionView(billingDeps(c), c.req.valid("param").sessionId) } satisfies CheckoutSessionResponse);
  })
  .serve("GET /api/stripe/customer-subscriptions/:id", async (c) =>
    c.json({ subscriptions: await customerSubscriptions(billingDeps(c), currentUser(c), c.req.valid("param").id) } satisfies CustomerSubscriptionsResponse),
  )
  .serve("POST /api/stripe/cancel-subscription", async (c) =>
    c.json({ subscription: await cancelSubscription(billingDeps(c), currentUser(c), c.req.valid("json").subscriptionId) } satisfies SubscriptionResponse),
  )
  .serve("POST /api/stripe/portal-session", async (c) => {
    const returnUrl = new URL("/settings", billingDeps(c).origin).toString();
    return c.json({ url: await portalUrl(billingDeps(c), currentUser(c), returnUrl) } satisfies PortalSessionResponse);
  })
  // The /payments test console: creating customers and subscriptions by hand is for admins.
  .serve("POST /api/stripe/create-customer", async (c) =>
    c.json({ customer: await createCustomerAtProvider(billingDeps(c), c.req.valid("json")) } satisfies CreateCustomerResponse),
  )
  .serve("POST /api/stripe/create-subscription", async (c) =>
    c.json({ subscription: await createSubscriptionAtProvider(billingDeps(c), c.req.valid("json")) } satisfies SubscriptionResponse),
  );
