// The /payments test console's calls (admin): customers and subscriptions by hand.
import { apiJson } from "@web/lib/api";

export const createCustomer = (body: { email: string; name?: string }) =>
  apiJson("POST", "/api/stripe/create-customer", body);

export const createSubscription = (body: { priceId: string; customerId: string }) =>
  apiJson("POST", "/api/stripe/create-subscription", body);
