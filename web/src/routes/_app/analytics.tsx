import { createFileRoute } from "@tanstack/react-router";
import { AnalyticsPage } from "@web/features/analytics/components/analytics-page";

export const Route = createFileRoute("/_app/analytics")({
  component: function AnalyticsRoute() {
    return <AnalyticsPage user={Route.useRouteContext().user} />;
  },
});
