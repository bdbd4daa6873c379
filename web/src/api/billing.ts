// Billing resources several features read: the plan catalogue (buy, checkout, the payments console),
// the billing configuration, and an account's customer record and subscriptions (settings).
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@web/lib/api";

export const PRODUCTS_PATH = "/api/stripe/products";
export const BILLING_CONFIG_PATH = "/api/stripe/config";
export const CUSTOMER_BY_EMAIL_PATH = "/api/leads/customers/by-email";
export const CUSTOMER_SUBSCRIPTIONS_PATH = "/api/stripe/customer-subscriptions";

export const billingKeys = {
  products: [PRODUCTS_PATH] as const,
  config: [BILLING_CONFIG_PATH] as const,
  customer: (email: string) => [`${CUSTOMER_BY_EMAIL_PATH}?email=${encodeURIComponent(email)}`] as const,
  subscriptions: (customerId: string) => [`${CUSTOMER_SUBSCRIPTIONS_PATH}/${encodeURIComponent(customerId)}`] as const,
};

export const getProducts = () => apiJson("GET", PRODUCTS_PATH).then((r) => r.products);
export const productsQueryOptions = () => queryOptions({ queryKey: billingKeys.products, queryFn: getProducts, staleTime: 60_000 });
export const useProducts = () => useQuery(productsQueryOptions());

export const getBillingConfig = () => apiJson("GET", BILLING_CONFIG_PATH);
export const useBillingConfig = () => useQuery(queryOptions({ queryKey: billingKeys.config, queryFn: getBillingConfig, staleTime: 300_000 }));

export const getCustomerByEmail = (email: string) =>
  apiJson("GET", billingKeys.customer(email)[0]).then((r) => r.customer);
export const useCustomer = (email: string) =>
  useQuery(queryOptions({ queryKey: billingKeys.customer(email), queryFn: () => getCustomerByEmail(email) }));

export const getCustomerSubscriptions = (customerId: string) =>
  apiJson("GET", billingKeys.subscriptions(customerId)[0]).then((r) => r.subscriptions);
export const useCustomerSubscriptions = (customerId: string | null | undefined) =>
  useQuery(
    queryOptions({
      queryKey: billingKeys.subscriptions(customerId ?? ""),
      queryFn: () => getCustomerSubscriptions(customerId!),
      enabled: Boolean(customerId),
    }),
  );

export const cancelSubscription = (subscriptionId: string) =>
  apiJson("POST", "/api/stripe/cancel-subscription", { subscriptionId });
export function useCancelSubscription() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: () => qc.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(CUSTOMER_SUBSCRIPTIONS_PATH) || String(q.queryKey[0]).startsWith(CUSTOMER_BY_EMAIL_PATH) }),
  });
}

/** Dollars from cents (docs/product/constants.md#business-constants), USD by default. */
export const formatAmount = (cents: number | null | undefined, currency: string | null | undefined = "usd") =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: (currency || "usd").toUpperCase() }).format((cents ?? 0) / 100);
