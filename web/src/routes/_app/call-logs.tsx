import { createFileRoute } from "@tanstack/react-router";
import { callLogsQueryOptions } from "@web/api/call-logs";
import { CallLogsPage } from "@web/features/call-logs/components/call-logs-page";
import { callLogsSearchSchema, type CallLogsSearch } from "@web/lib/search";

/** The list's filters out of the address (only those set, so equal filters make equal query keys). */
const filtersOf = ({ q: _q, ...filters }: CallLogsSearch) => filters;

export const Route = createFileRoute("/_app/call-logs")({
  // The first page of calls is asked for as soon as the session is known, while the layout and the
  // page render (their largest paint is a call's summary); the page's query joins the same request
  // instead of starting its own after the render (decision 006).
  loaderDeps: ({ search }) => filtersOf(search),
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchInfiniteQuery(callLogsQueryOptions(deps));
  },
  // `?q=`: the transcript search, in the address so a search can be shared, reloaded and gone back
  // to; `?from=&to=&agent=&outcome=`: the list's filters (an alert's "Calls" link sets them).
  validateSearch: callLogsSearchSchema,
  component: CallLogsRoute,
});

function CallLogsRoute() {
  const search = Route.useSearch();
  const { user } = Route.useRouteContext();
  const navigate = Route.useNavigate();
  const filters = filtersOf(search);
  return (
    <CallLogsPage
      q={search.q}
      onSearch={(next) => void navigate({ search: { ...filters, ...(next ? { q: next } : {}) }, replace: true })}
      filters={filters}
      onClearFilters={() => void navigate({ search: search.q ? { q: search.q } : {} })}
      userId={user.id}
    />
  );
}
