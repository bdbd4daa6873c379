// The requests the dashboard's first render makes, started before it renders (decision 062): as soon
// as a stored session's token is known (main.tsx, in parallel with the profile) and again by the
// route's loader, which finds them cached or in flight and starts only what is missing (a navigation
// inside the app). Each is the query its section asks for, with the page's first state (Call Logs on
// today, the report sections on yesterday, no store, no section filter, refresh generation 0), so a
// section's query joins the request instead of sending its own.
import type { QueryClient } from "@tanstack/react-query";
import { DEFAULT_CALL_TYPE } from "@shared/constants";
import { pagePath } from "@shared/first-screen";
import { nyToday, nyYesterday } from "@shared/ny-time";
import type { CurrentUserView } from "@shared/schemas/auth";
import { agentsQueryOptions } from "@web/api/agents";
import { usageStatsQueryOptions } from "@web/api/usage-stats";
import { apiGetAllAtOnce, apiGetAtOnce, getAccessToken, setAccessToken } from "@web/lib/api";
import { claimedViewer } from "@web/lib/auth/token-claims";
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

export type Range = { startDate: string; endDate: string };
/** The dates and store the sections show: the top controls apply them on 'Refresh All Sections'. */
export type AppliedState = { callLogs: Range; reports: Range; store: string; generation: number };

/** The page's first state: Call Logs on today, the report sections on yesterday (New York, spec 1 §9). */
export function initialApplied(now: Date): AppliedState {
  const today = nyToday(now);
  const yesterday = nyYesterday(now);
  return { callLogs: { startDate: today, endDate: today }, reports: { startDate: yesterday, endDate: yesterday }, store: "", generation: 0 };
}

/** Who opens the dashboard: the id keys the agents list, the flags choose the sections. */
export type DashboardViewer = Pick<CurrentUserView, "id" | "shopwindows_info" | "call_app">;

/**
 * The queries of the dashboard's first render: Call Logs' four counts (the first screen's figures),
 * the usage the plan notice reads, the agents of Call Logs' filter and its call volume, then the
 * sections the flags show, in the page's order.
 */
export function firstLoadQueries(viewer: DashboardViewer, now: Date) {
  const { callLogs, reports, generation } = initialApplied(now);
  const callLogFilters = { ...callLogs, callType: DEFAULT_CALL_TYPE };
  const queries: { queryKey: readonly unknown[]; queryFn?: unknown }[] = [
    ...callLogCountQueries(callLogFilters, generation),
    usageStatsQueryOptions(),
    agentsQueryOptions(viewer.id),
    callVolumeQueryOptions(callLogFilters, generation),
  ];
  if (viewer.shopwindows_info)
    queries.push(
      dailyReportsQueryOptions(generation),
      appointmentOptionsQueryOptions(0),
      ...appointmentQueries(reports, generation),
      leadSummaryQueryOptions(reports, generation),
    );
  if (viewer.call_app) queries.push(aircallOptionsQueryOptions(0), ...aircallQueries(reports, generation));
  if (viewer.shopwindows_info) queries.push(storeFunnelQueryOptions(reports, generation));
  return queries;
}

/**
 * Starts every first-render query not already cached or in flight; nothing waits for them. `atOnce`:
 * each request leaves in this task (the entry's start, where a yield would wait for the whole entry),
 * through the same helper, headers and errors as the sections' own requests.
 */
export function prefetchDashboard(queryClient: QueryClient, viewer: DashboardViewer, { now = new Date(), atOnce = false } = {}) {
  // Every key's first element is the URL its fetcher asks for (decision 006).
  const urlOf = (query: { queryKey: readonly unknown[] }) => String(query.queryKey[0]);
  const queries = firstLoadQueries(viewer, now);
  // At the entry's start the reads the cache has nothing for leave as one request (decision 064); each
  // section's query takes its own answer from it.
  const missing = atOnce ? queries.filter((query) => queryClient.getQueryState(query.queryKey) === undefined) : [];
  const getAtOnce = missing.length > 1 ? apiGetAllAtOnce(missing.map(urlOf)) : apiGetAtOnce;
  for (const query of queries) {
    const url = urlOf(query);
    const queryFn = atOnce ? () => getAtOnce(url) : query.queryFn;
    void queryClient.prefetchQuery({ ...query, queryFn } as Parameters<QueryClient["prefetchQuery"]>[0]);
  }
}

/**
 * On a first load of /dashboard with a stored session: starts the sections' requests with the stored
 * token at once, beside the profile, instead of after the profile, the route's code and the first
 * render. The token's claims choose the sections; a section the profile then does not show leaves its
 * answer unused, and one it shows that the claims did not name asks when it renders. The server checks
 * the token and the flags of each request itself. Returns whether it started them.
 */
export function prefetchDashboardAtStart(queryClient: QueryClient, pathname: string, token: string | null, now = new Date()): boolean {
  if (!token || pagePath(pathname) !== "/dashboard") return false;
  const viewer = claimedViewer(token);
  if (!viewer) return false;
  // The provider sets the restored session's token (the same one, or its successor) when it has it.
  if (getAccessToken() === null) setAccessToken(token);
  prefetchDashboard(queryClient, viewer, { now, atOnce: true });
  return true;
}
