import { createFileRoute } from "@tanstack/react-router";
import { PublicLayout } from "@web/components/layout/public-layout";
import { checkoutSearchSchema } from "@web/features/billing/checkout-search";
import { CheckoutPage } from "@web/features/billing/components/checkout-page";

export const Route = createFileRoute("/checkout")({
  validateSearch: checkoutSearchSchema,
  component: function CheckoutRoute() {
    return (
      <PublicLayout wide>
        <CheckoutPage search={Route.useSearch()} />
      </PublicLayout>
    );
  },
});
