import { createFileRoute } from "@tanstack/react-router";
import { callLogsQueryOptions } from "@web/api/call-logs";
import { CallLogsPage } from "@web/features/call-logs/components/call-logs-page";
import { callLogsSearchSchema } from "@web/lib/search";

export const Route = createFileRoute("/_app/call-logs")({
  // The first page of calls is asked for as soon as the session is known, while the layout and the
  // page render (their largest paint is a call's summary); the page's query joins the same request
  // instead of starting its own after the render (decision 006).
  loader: ({ context }) => {
    void context.queryClient.prefetchInfiniteQuery(callLogsQueryOptions());
  },
  // `?q=`: the transcript search, in the address so a search can be shared, reloaded and gone back to.
  validateSearch: callLogsSearchSchema,
  component: CallLogsRoute,
});

function CallLogsRoute() {
  const { q } = Route.useSearch();
  const navigate = Route.useNavigate();
  return <CallLogsPage q={q} onSearch={(next) => void navigate({ search: next ? { q: next } : {}, replace: true })} />;
}
