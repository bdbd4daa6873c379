import { createFileRoute } from "@tanstack/react-router";
import { PublicLayout } from "@web/components/layout/public-layout";
import { successSearchSchema } from "@web/features/billing/checkout-search";
import { PaymentSuccessPage } from "@web/features/billing/components/payment-success-page";

export const Route = createFileRoute("/payments/success")({
  validateSearch: successSearchSchema,
  component: function PaymentSuccessRoute() {
    return (
      <PublicLayout>
        <PaymentSuccessPage sessionId={Route.useSearch().session_id} />
      </PublicLayout>
    );
  },
});
