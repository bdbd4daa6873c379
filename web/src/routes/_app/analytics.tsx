import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "@web/components/layout/placeholder-page";

export const Route = createFileRoute("/_app/analytics")({
  component: () => <PlaceholderPage title="Appointment Analysis" feature="appointment analysis" />,
});
