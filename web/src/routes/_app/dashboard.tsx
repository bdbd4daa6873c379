import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "@web/components/layout/placeholder-page";

export const Route = createFileRoute("/_app/dashboard")({
  component: () => <PlaceholderPage title="Dashboard" feature="the operations dashboard" />,
});
