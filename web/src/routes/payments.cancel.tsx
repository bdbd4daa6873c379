import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "@web/components/layout/placeholder-page";
import { PublicLayout } from "@web/components/layout/public-layout";

export const Route = createFileRoute("/payments/cancel")({
  component: () => (
    <PublicLayout>
      <PlaceholderPage title="Payment cancelled" feature="plans and payments" />
    </PublicLayout>
  ),
});
