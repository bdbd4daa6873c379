// GET /api/call-logs, read by the Call Logs screen (keyset pages) and by the Agents screen's test call
// (the first page, polled), and invalidated by anything that adds a call.
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { VAPI_CALL_LOGS_STALE_MS } from "@shared/constants";
import { apiJson } from "@web/lib/api";

const CALL_LOGS_PATH = "/api/call-logs";
export const CALL_LOGS_PAGE_SIZE = 50;
export const RECENT_CALLS_LIMIT = 20;

const recentCallsUrl = `${CALL_LOGS_PATH}?limit=${RECENT_CALLS_LIMIT}`;

export const callLogKeys = {
  /** The paged log. A key of its own under the path: its pages add `limit` and `cursor` to it. */
  pages: [CALL_LOGS_PATH, "pages"] as const,
  /** The newest calls, where a test call's status is read while it is polled. */
  recent: [recentCallsUrl] as const,
};

export function getCallLogs({ cursor, limit = CALL_LOGS_PAGE_SIZE }: { cursor?: string | null; limit?: number }) {
  const params = new URLSearchParams({ limit: String(limit) });
  if (cursor) params.set("cursor", cursor);
  return apiJson("GET", `${CALL_LOGS_PATH}?${params}`);
}

export const callLogsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: callLogKeys.pages,
    queryFn: ({ pageParam }) => getCallLogs({ cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // The log gains calls (test calls, webhooks) while other screens are open: coming back after
    // the voice platform's 30 s staleness shows them without pressing 'Refresh Logs'.
    staleTime: VAPI_CALL_LOGS_STALE_MS,
  });

export const useCallLogs = () => useInfiniteQuery(callLogsQueryOptions());

export const getRecentCalls = () => apiJson("GET", recentCallsUrl);

export const recentCallsQueryOptions = () => queryOptions({ queryKey: callLogKeys.recent, queryFn: getRecentCalls });

export function useRecentCalls(options: { enabled: boolean; refetchInterval: number | false }) {
  return useQuery({ ...recentCallsQueryOptions(), ...options });
}
