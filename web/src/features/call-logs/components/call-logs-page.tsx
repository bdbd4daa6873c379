// /call-logs (docs/product/screens-and-routes.md#route-table): this month's usage, the call log table with keyset 'Load more', and
// 'Refresh Logs', which refreshes the logs and the usage stats together (docs/product/api.md#api).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LoaderCircle, PhoneCall, RefreshCw } from "lucide-react";
import { useDeferredValue, useEffect, useState } from "react";
import { CALL_LOG_FILTER_TEXT, CALL_LOG_TEXT, NAV_TEXT } from "@shared/messages";
import type { CallLogFilters, CallLogView } from "@shared/schemas/call-logs";
import { PageHeader } from "@web/components/layout/page-header";
import { Button } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";
import { toast } from "@web/lib/toast-store";
import { errorMessage } from "@web/lib/api";
import { agentsQueryOptions } from "@web/api/agents";
import { isFiltered, useCallLogs } from "@web/api/call-logs";
import { useLiveCallLogs } from "@web/api/call-logs-live";
import { LiveStatusIndicator } from "@web/components/calls/live-status";
import { usageStatsKeys } from "@web/api/usage-stats";
import { UsageFigures } from "@web/components/usage/usage-figures";
import { LoadingStatus, Skeleton } from "@web/components/ui/skeleton";
import { CallDetailsDialog } from "./call-details-dialog";
import { CallLogFilterLine, filterSummary } from "./call-log-filters";
import { CallLogsTable } from "./call-logs-table";
import { CallSearchBox, CallSearchResults } from "./call-search";

function TableSkeleton() {
  return (
    <div className="grid gap-3 p-4" aria-busy="true">
      <LoadingStatus label={CALL_LOG_TEXT.loading} />
      {Array.from({ length: 6 }, (_, i) => (
        <Skeleton key={i} className="h-9" />
      ))}
    </div>
  );
}

type CallLogsPageProps = {
  q?: string;
  onSearch?: (q: string | undefined) => void;
  filters?: CallLogFilters;
  onClearFilters?: () => void;
  userId?: string;
};

/**
 * `q` and `onSearch`: the transcript search in effect and how to change it (the route keeps it in the
 * address, `?q=`); without `onSearch` the page keeps it itself. `filters` narrow the list (the route
 * keeps them in the address too) and `onClearFilters` shows every call again; `userId` names the
 * filtered agent from the account's agents.
 */
export function CallLogsPage({ q, onSearch, filters = {}, onClearFilters, userId }: CallLogsPageProps = {}) {
  const queryClient = useQueryClient();
  // A page of calls arriving re-renders the table in a deferred render, which React slices, instead
  // of the blocking one a query update makes (decision 030).
  const logs = useDeferredValue(useCallLogs(filters));
  const filtered = isFiltered(filters);
  const agents = useQuery({ ...agentsQueryOptions(userId ?? ""), enabled: Boolean(userId && filters.agent) });
  const agentName = (assistantId: string) => agents.data?.agents.find((a) => a.vapi_assistant_id === assistantId)?.name;
  // Calls appear and change here as they happen (the live feed upserts them into the cached pages).
  const live = useLiveCallLogs();
  const [viewing, setViewing] = useState<CallLogView | null>(null);
  const [ownQuery, setOwnQuery] = useState<string | undefined>();
  const query = onSearch ? q : ownQuery;
  const [refreshing, setRefreshing] = useState(false);

  useEffect(() => {
    if (logs.isError) toast({ variant: "destructive", title: CALL_LOG_TEXT.loadFailed, description: errorMessage(logs.error, CALL_LOG_TEXT.loadFailed) });
  }, [logs.isError, logs.error]);

  async function refresh() {
    setRefreshing(true);
    try {
      await Promise.all([logs.refetch(), queryClient.invalidateQueries({ queryKey: usageStatsKeys.all })]);
    } finally {
      setRefreshing(false);
    }
  }

  const rows = logs.data?.pages.flatMap((p) => p.logs) ?? [];

  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader
        title={NAV_TEXT.callLogs}
        description={CALL_LOG_TEXT.intro}
        actions={
          <>
            <LiveStatusIndicator status={live} />
            <Button variant="outline" onClick={() => void refresh()} disabled={refreshing}>
              {refreshing ? <LoaderCircle className="animate-spin" aria-hidden /> : <RefreshCw aria-hidden />}
              {CALL_LOG_TEXT.refresh}
            </Button>
          </>
        }
      />
      <UsageFigures figures={["calls", "minutes"]} className="mb-6 sm:max-w-md" />
      {filtered && onClearFilters ? <CallLogFilterLine summary={filterSummary(filters, agentName)} onClear={onClearFilters} /> : null}
      <CallSearchBox value={query} onChange={onSearch ?? setOwnQuery} />
      {query ? <CallSearchResults q={query} onView={setViewing} /> : null}
      {/* The list stays mounted under a search, so clearing it shows the list as it was. */}
      <Card className={query ? "hidden" : "overflow-hidden"}>
        {logs.isPending ? (
          <TableSkeleton />
        ) : logs.isError && rows.length === 0 ? (
          <CardContent className="flex flex-col items-start gap-3 p-6">
            <p role="alert" className="text-sm font-medium text-destructive">
              {errorMessage(logs.error, CALL_LOG_TEXT.loadFailed)}
            </p>
            <Button variant="outline" size="sm" onClick={() => void logs.refetch()}>
              {CALL_LOG_TEXT.retry}
            </Button>
          </CardContent>
        ) : rows.length === 0 ? (
          <CardContent className="flex flex-col items-center gap-2 p-10 text-center">
            <PhoneCall className="size-8 text-primary" aria-hidden />
            <p className="text-sm text-muted-foreground">{filtered ? CALL_LOG_FILTER_TEXT.empty : CALL_LOG_TEXT.empty}</p>
          </CardContent>
        ) : (
          <CallLogsTable logs={rows} onView={setViewing} />
        )}
      </Card>
      {logs.hasNextPage && !query ? (
        <div className="mt-4 flex justify-center">
          <Button variant="outline" onClick={() => void logs.fetchNextPage()} disabled={logs.isFetchingNextPage}>
            {logs.isFetchingNextPage ? <LoaderCircle className="animate-spin" aria-hidden /> : null}
            {CALL_LOG_TEXT.loadMore}
          </Button>
        </div>
      ) : null}
      <CallDetailsDialog log={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}
