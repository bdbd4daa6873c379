// POST /api/webhooks/stripe: Stripe's events (and the local checkout's, signed the same way). The
// signature is checked on the raw body before anything is parsed; each event is applied once.
import { handleBillingEvent } from "../services/billing";
import { billingDeps } from "../context/request-deps";
import { DeclaredRoutes } from "./serve";

export const stripeWebhookRoutes = new DeclaredRoutes().serve("POST /api/webhooks/stripe", async (c) => {
  const raw = await c.req.text();
  const event = await c.var.providers.billing.verifyEvent(raw, c.req.header("stripe-signature"));
  const result = await handleBillingEvent(billingDeps(c), event);
  return c.json({ received: true, ...result });
});
