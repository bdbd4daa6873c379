import { createFileRoute } from "@tanstack/react-router";
import { PublicLayout } from "@web/components/layout/public-layout";
import { PaymentCancelPage } from "@web/features/billing/components/payment-success-page";

export const Route = createFileRoute("/payments/cancel")({
  component: () => (
    <PublicLayout>
      <PaymentCancelPage />
    </PublicLayout>
  ),
});
