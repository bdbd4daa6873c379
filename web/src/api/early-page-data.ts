// The first data of the page a visit opens on, asked for at start with the stored session's token,
// like the profile (decision 027): in parallel with restoring the session and loading the page's
// chunks, instead of after them. On /call-logs and /agent-settings the largest paint is that data
// (a call's summary, an agent's description), so it waited for the whole chain before (decision 032).
// Only a success is kept, and only when the page has not got its own yet; anything else is ignored
// and the page asks as it always does.
import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { storedSession } from "@web/lib/auth/early-profile";
import { agentKeys } from "./agents";
import { CALL_LOGS_PAGE_SIZE, callLogKeys } from "./call-logs";

type EarlyRequest = { path: string; key: QueryKey; toCache: (body: unknown) => unknown };

/** What a page asks for first, as its own query would: the same URL, the same cache key and shape. */
export function earlyRequestOf(pathname: string, userId: string | null): EarlyRequest | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (path === "/call-logs") {
    // The infinite query's first page, as useCallLogs keeps it.
    return { path: `/api/call-logs?limit=${CALL_LOGS_PAGE_SIZE}`, key: callLogKeys.pages, toCache: (page) => ({ pages: [page], pageParams: [null] }) };
  }
  if (path === "/agent-settings" && userId) return { path: "/api/agents", key: agentKeys.list(userId), toCache: (body) => body };
  return null;
}

/** Starts the page's first request with the stored token, if any; resolves when done (never rejects). */
export async function prefetchPageData(queryClient: QueryClient, pathname: string, session = storedSession()): Promise<void> {
  if (!session) return;
  const request = earlyRequestOf(pathname, session.userId);
  if (!request) return;
  try {
    const res = await fetch(request.path, { headers: { Authorization: `Bearer ${session.accessToken}` } });
    if (!res.ok) return;
    const body: unknown = await res.json();
    if (queryClient.getQueryData(request.key) === undefined) queryClient.setQueryData(request.key, request.toCache(body));
  } catch {
    // Offline or not JSON: the page asks again.
  }
}
