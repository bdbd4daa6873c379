// The page's first requests, sent by the early module entry (early-requests.ts), handed to the queries
// that read them (decisions 027, 062 and 065): the profile into the cache the provider reads, and on
// /dashboard each section's query joined to its answer in the batch.
import type { QueryClient } from "@tanstack/react-query";
import { prefetchDashboard } from "@web/features/dashboard/api/first-load";
import { keepEarlyProfile } from "@web/lib/auth/early-profile";
import type { EarlyRequests } from "./early-requests";

export function startFirstRequests(queryClient: QueryClient, early: EarlyRequests) {
  void keepEarlyProfile(queryClient, early.profile);
  if (early.dashboard) prefetchDashboard(queryClient, early.dashboard.viewer, { now: early.dashboard.now, answerOf: early.dashboard.answerOf });
}
