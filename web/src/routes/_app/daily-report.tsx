import { createFileRoute } from "@tanstack/react-router";
import { DailyReportPage } from "@web/features/daily-report/components/daily-report-page";
import { searchSchema, type SearchField } from "@web/lib/search";

/** ?date=YYYY-MM-DD opens the screen on that day (the daily report mail links to it); anything else is dropped. */
const searchDay: SearchField<string> = (value) => (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined);

export const Route = createFileRoute("/_app/daily-report")({
  validateSearch: searchSchema({ date: searchDay }),
  component: function DailyReportRoute() {
    return <DailyReportPage user={Route.useRouteContext().user} date={Route.useSearch().date} />;
  },
});
