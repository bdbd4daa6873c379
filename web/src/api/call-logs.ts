// GET /api/call-logs, read by the Call Logs screen (keyset pages) and by the Agents screen's test call
// (the first page, polled), and invalidated by anything that adds a call.
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { VAPI_CALL_LOGS_STALE_MS } from "@shared/constants";
import type { CallLogFilters } from "@shared/schemas/call-logs";
import { apiJson } from "@web/lib/api";

const CALL_LOGS_PATH = "/api/call-logs";
export const CALL_LOGS_PAGE_SIZE = 50;
export const RECENT_CALLS_LIMIT = 20;

const recentCallsUrl = `${CALL_LOGS_PATH}?limit=${RECENT_CALLS_LIMIT}`;

export const callLogKeys = {
  /** The paged log. A key of its own under the path: its pages add `limit` and `cursor` to it. */
  pages: [CALL_LOGS_PATH, "pages"] as const,
  /**
   * A filtered log (an alert's calls): a key apart from the pages, so the live feed, which upserts
   * every new call into the pages, leaves it as the server answered it.
   */
  filtered: (filters: CallLogFilters) => [CALL_LOGS_PATH, "filtered", filters] as const,
  /** The newest calls, where a test call's status is read while it is polled. */
  recent: [recentCallsUrl] as const,
};

export function getCallLogs({ cursor, limit = CALL_LOGS_PAGE_SIZE, filters = {} }: { cursor?: string | null; limit?: number; filters?: CallLogFilters }) {
  const params = new URLSearchParams({ limit: String(limit) });
  for (const key of ["from", "to", "agent", "outcome"] as const) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  if (cursor) params.set("cursor", cursor);
  return apiJson("GET", `${CALL_LOGS_PATH}?${params}`);
}

/** Whether any filter is set. */
export const isFiltered = (f: CallLogFilters) => Boolean(f.from || f.to || f.agent || f.outcome);

export const callLogsQueryOptions = (filters: CallLogFilters = {}) =>
  infiniteQueryOptions({
    queryKey: isFiltered(filters) ? callLogKeys.filtered(filters) : callLogKeys.pages,
    queryFn: ({ pageParam }) => getCallLogs({ cursor: pageParam, filters }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // The log gains calls (test calls, webhooks) while other screens are open: coming back after
    // the voice platform's 30 s staleness shows them without pressing 'Refresh Logs'.
    staleTime: VAPI_CALL_LOGS_STALE_MS,
  });

export const useCallLogs = (filters: CallLogFilters = {}) => useInfiniteQuery(callLogsQueryOptions(filters));

export const getRecentCalls = () => apiJson("GET", recentCallsUrl);

export const recentCallsQueryOptions = () => queryOptions({ queryKey: callLogKeys.recent, queryFn: getRecentCalls });

export function useRecentCalls(options: { enabled: boolean; refetchInterval: number | false }) {
  return useQuery({ ...recentCallsQueryOptions(), ...options });
}
