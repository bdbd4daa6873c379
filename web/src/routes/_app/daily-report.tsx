import { createFileRoute } from "@tanstack/react-router";
import { DailyReportPage } from "@web/features/daily-report/components/daily-report-page";

export const Route = createFileRoute("/_app/daily-report")({
  component: function DailyReportRoute() {
    return <DailyReportPage user={Route.useRouteContext().user} />;
  },
});
