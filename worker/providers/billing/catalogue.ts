// The plan catalogue the local adapter sells (docs/product/constants.md#business-constants): basic and pro, monthly and annual, the
// annual price 10 % below twelve months. Amounts are cents, as Stripe gives them.
import type { BillingProduct } from "./port";

const annual = (monthlyCents: number) => Math.round(monthlyCents * 12 * 0.9);

export const LOCAL_PLAN_MONTHLY_CENTS = { basic: 2999, pro: 9999 } as const;

export const LOCAL_CATALOGUE: BillingProduct[] = [
  {
    id: "prod_local_basic",
    name: "Basic",
    description: "For a single location getting started with AI phone agents.",
    active: true,
    metadata: { product_type: "basic" },
    prices: [
      { id: "price_local_basic_month", active: true, interval: "month", unit_amount: LOCAL_PLAN_MONTHLY_CENTS.basic, currency: "usd" },
      { id: "price_local_basic_year", active: true, interval: "year", unit_amount: annual(LOCAL_PLAN_MONTHLY_CENTS.basic), currency: "usd" },
    ],
  },
  {
    id: "prod_local_pro",
    name: "Pro",
    description: "For growing businesses with several stores and lines.",
    active: true,
    metadata: { product_type: "pro" },
    prices: [
      { id: "price_local_pro_month", active: true, interval: "month", unit_amount: LOCAL_PLAN_MONTHLY_CENTS.pro, currency: "usd" },
      { id: "price_local_pro_year", active: true, interval: "year", unit_amount: annual(LOCAL_PLAN_MONTHLY_CENTS.pro), currency: "usd" },
    ],
  },
];

/** A price of the catalogue with its product, only when both are active. */
export function findActivePrice(products: BillingProduct[], priceId: string) {
  for (const product of products) {
    const price = product.prices.find((p) => p.id === priceId);
    if (price) return product.active && price.active ? { product, price } : null;
  }
  return null;
}
