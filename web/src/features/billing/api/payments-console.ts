// The /payments test console's calls (admin): customers and subscriptions by hand.
import type { SubscriptionView } from "@shared/schemas/billing";
import { apiJson } from "@web/lib/api";

export const createCustomer = (body: { email: string; name?: string }) =>
  apiJson<{ customer: { id: string; email: string | null; name: string | null } }>("POST", "/api/stripe/create-customer", body);

export const createSubscription = (body: { priceId: string; customerId: string }) =>
  apiJson<{ subscription: SubscriptionView }>("POST", "/api/stripe/create-subscription", body);
