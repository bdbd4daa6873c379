import { createFileRoute } from "@tanstack/react-router";
import { prefetchDashboard } from "@web/features/dashboard/api/first-load";
import { DashboardPage } from "@web/features/dashboard/components/dashboard-page";

export const Route = createFileRoute("/_app/dashboard")({
  // Every section's first figures are asked for once the layout's guard has the user, before the
  // page renders; on a first load main.tsx has already started them with the stored token, and this
  // finds them in flight (decision 062).
  loader: ({ context }) => prefetchDashboard(context.queryClient, context.user),
  component: function DashboardRoute() {
    return <DashboardPage user={Route.useRouteContext().user} />;
  },
});
