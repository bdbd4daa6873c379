import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "@web/components/layout/placeholder-page";

export const Route = createFileRoute("/_app/daily-report")({
  component: () => <PlaceholderPage title="Daily Report Generator" feature="the daily report" />,
});
