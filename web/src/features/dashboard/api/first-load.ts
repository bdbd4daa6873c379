// The requests the dashboard's first render makes, started before it renders (decision 062): by the
// entry's start (web/src/boot/early-requests.ts), which sends them as one batch with the stored
// session's token before the app renders, and again by the route's loader, which finds them cached
// or in flight and batches only what is missing (an in-app sign-in or navigation). Each is the query its
// section asks for, with the page's first state (first-load-urls.ts), so a section's query joins the
// request instead of sending its own.
import type { QueryClient } from "@tanstack/react-query";
import { DEFAULT_CALL_TYPE } from "@shared/constants";
import { agentsQueryOptions } from "@web/api/agents";
import { alertBellQueryOptions } from "@web/api/alert-bell";
import { usageStatsQueryOptions } from "@web/api/usage-stats";
import { apiGetAllAtOnce } from "@web/lib/api";
import {
  aircallOptionsQueryOptions,
  aircallQueries,
  appointmentOptionsQueryOptions,
  appointmentQueries,
  callLogCountQueries,
  callVolumeQueryOptions,
  dailyReportsQueryOptions,
  leadSummaryQueryOptions,
  storeFunnelQueryOptions,
} from "./dashboard";
import { initialApplied, type DashboardViewer } from "./first-load-urls";

/**
 * The queries of the dashboard's first render, in firstLoadUrls's order (a test holds their URLs to
 * it): Call Logs' four counts, the usage the plan notice reads, the agents of Call Logs' filter and its
 * call volume, the header's alert bell, then the sections the flags show, in the page's order.
 */
export function firstLoadQueries(viewer: DashboardViewer, now: Date) {
  const { callLogs, reports, generation } = initialApplied(now);
  const callLogFilters = { ...callLogs, callType: DEFAULT_CALL_TYPE };
  const queries: { queryKey: readonly unknown[]; queryFn?: unknown }[] = [
    ...callLogCountQueries(callLogFilters, generation),
    usageStatsQueryOptions(),
    agentsQueryOptions(viewer.id),
    callVolumeQueryOptions(callLogFilters, generation),
    alertBellQueryOptions(),
  ];
  if (viewer.shopwindows_info)
    queries.push(
      dailyReportsQueryOptions(reports, generation),
      appointmentOptionsQueryOptions(0),
      ...appointmentQueries(reports, generation),
      leadSummaryQueryOptions(reports, generation),
    );
  if (viewer.call_app) queries.push(aircallOptionsQueryOptions(0), ...aircallQueries(reports, generation));
  if (viewer.shopwindows_info) queries.push(storeFunnelQueryOptions(reports, generation));
  return queries;
}

/** Whether a query is answered or being answered already, so prefetching it would send nothing. */
function isCovered(queryClient: QueryClient, query: { queryKey: readonly unknown[]; staleTime?: unknown }): boolean {
  const found = queryClient.getQueryCache().find({ queryKey: query.queryKey, exact: true });
  if (!found) return false;
  if (found.state.fetchStatus === "fetching") return true;
  const staleTime = typeof query.staleTime === "number" ? query.staleTime : Infinity;
  return found.state.data !== undefined && !found.isStaleByTime(staleTime);
}

/**
 * Starts every first-render query not already cached or in flight; nothing waits for them. `answerOf`:
 * each query's answer is the early batch's for its URL (an ask it did not carry is sent alone).
 * Without it (the route's loader: a reload finds the early batch's queries in flight, an in-app
 * sign-in or navigation finds none), the missing reads leave as one batch of their own, so the
 * dashboard sends the same first requests however it is reached.
 */
export function prefetchDashboard(
  queryClient: QueryClient,
  viewer: DashboardViewer,
  { now = new Date(), answerOf }: { now?: Date; answerOf?: (url: string) => Promise<unknown> } = {},
) {
  const missing = firstLoadQueries(viewer, now).filter((query) => !isCovered(queryClient, query));
  // Every key's first element is the URL its fetcher asks for (decision 006).
  const urlOf = (query: { queryKey: readonly unknown[] }) => String(query.queryKey[0]);
  const answer = answerOf ?? (missing.length > 1 ? apiGetAllAtOnce(missing.map(urlOf)) : undefined);
  for (const query of missing) {
    const queryFn = answer ? () => answer(urlOf(query)) : query.queryFn;
    void queryClient.prefetchQuery({ ...query, queryFn } as Parameters<QueryClient["prefetchQuery"]>[0]);
  }
}
