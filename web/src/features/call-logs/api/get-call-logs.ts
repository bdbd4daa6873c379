// GET /api/call-logs: the account's unified call log, newest first, in keyset pages.
import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { VAPI_CALL_LOGS_STALE_MS } from "@shared/constants";
import type { CallLogsResponse } from "@shared/schemas/call-logs";
import { apiJson } from "@web/lib/api";

export const CALL_LOGS_PATH = "/api/call-logs";
export const CALL_LOGS_PAGE_SIZE = 50;
// A key of its own under the path: paged data has another shape than a plain GET of the path.
export const CALL_LOGS_KEY = [CALL_LOGS_PATH, "pages"] as const;

export function getCallLogs({ cursor, limit = CALL_LOGS_PAGE_SIZE }: { cursor?: string | null; limit?: number }) {
  const params = new URLSearchParams({ limit: String(limit) });
  if (cursor) params.set("cursor", cursor);
  return apiJson<CallLogsResponse>("GET", `${CALL_LOGS_PATH}?${params}`);
}

export const callLogsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: CALL_LOGS_KEY,
    queryFn: ({ pageParam }) => getCallLogs({ cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // The log gains calls (test calls, webhooks) while other screens are open: coming back after
    // the voice platform's 30 s staleness shows them without pressing 'Refresh Logs'.
    staleTime: VAPI_CALL_LOGS_STALE_MS,
  });

export const useCallLogs = () => useInfiniteQuery(callLogsQueryOptions());
