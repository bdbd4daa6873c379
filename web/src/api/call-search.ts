// GET /api/call-logs/search: the Call Logs screen's transcript and summary search (decision 059),
// newest first in keyset pages, like the list.
import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { apiJson } from "@web/lib/api";

const CALL_SEARCH_PATH = "/api/call-logs/search";
export const CALL_SEARCH_PAGE_SIZE = 20;

export const callSearchKeys = {
  all: [CALL_SEARCH_PATH] as const,
  of: (q: string) => [CALL_SEARCH_PATH, q] as const,
};

export function searchCallLogs({ q, cursor, limit = CALL_SEARCH_PAGE_SIZE }: { q: string; cursor?: string | null; limit?: number }) {
  const params = new URLSearchParams({ q, limit: String(limit) });
  if (cursor) params.set("cursor", cursor);
  return apiJson("GET", `${CALL_SEARCH_PATH}?${params}`);
}

export const callSearchQueryOptions = (q: string) =>
  infiniteQueryOptions({
    queryKey: callSearchKeys.of(q),
    queryFn: ({ pageParam }) => searchCallLogs({ q, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useCallSearch = (q: string) => useInfiniteQuery(callSearchQueryOptions(q));
