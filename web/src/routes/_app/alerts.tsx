import { createFileRoute } from "@tanstack/react-router";
import { AlertsPage } from "@web/features/alerts/components/alerts-page";

/** /alerts (decision 071): every signed-in account's alert rules, history and the bell's page. */
export const Route = createFileRoute("/_app/alerts")({
  component: AlertsPage,
});
