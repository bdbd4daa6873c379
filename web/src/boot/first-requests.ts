// The page's first requests, sent by the entry's start (early-requests.ts), handed to the queries
// that read them (decisions 027 and 062): the profile into the cache the provider reads, and on
// /dashboard each section's query joined to its answer in the batch, on /call-logs and /agent-settings
// the page's query to its one read.
import type { QueryClient } from "@tanstack/react-query";
import type { AgentListResponse } from "@shared/schemas/agents";
import { agentsQueryOptions } from "@web/api/agents";
import { callLogsQueryOptions, getCallLogs } from "@web/api/call-logs";
import { prefetchDashboard } from "@web/features/dashboard/api/first-load";
import { keepEarlyProfile } from "@web/lib/auth/early-profile";
import type { EarlyRequests } from "./early-requests";

export function startFirstRequests(queryClient: QueryClient, early: EarlyRequests) {
  void keepEarlyProfile(queryClient, early.profile);
  if (early.dashboard) prefetchDashboard(queryClient, early.dashboard.viewer, { now: early.dashboard.now, answerOf: early.dashboard.answerOf });
  const read = early.page;
  if (read?.page === "/agent-settings") {
    const options = agentsQueryOptions(read.viewer.id);
    void queryClient.prefetchQuery({ ...options, queryFn: () => read.answer as Promise<AgentListResponse> });
  }
  if (read?.page === "/call-logs") {
    // The early answer is the first page's; later pages are asked for as the page scrolls.
    const options = callLogsQueryOptions();
    void queryClient.prefetchInfiniteQuery({
      ...options,
      queryFn: ({ pageParam }) => (pageParam === null ? (read.answer as ReturnType<typeof getCallLogs>) : getCallLogs({ cursor: pageParam })),
    });
  }
}
