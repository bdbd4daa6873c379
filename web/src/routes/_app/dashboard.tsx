import { createFileRoute } from "@tanstack/react-router";
import { DashboardPage } from "@web/features/dashboard/components/dashboard-page";

export const Route = createFileRoute("/_app/dashboard")({
  component: function DashboardRoute() {
    return <DashboardPage user={Route.useRouteContext().user} />;
  },
});
