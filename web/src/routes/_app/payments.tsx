import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "@web/components/layout/placeholder-page";

export const Route = createFileRoute("/_app/payments")({
  component: () => <PlaceholderPage title="Payments" feature="card payments" />,
});
