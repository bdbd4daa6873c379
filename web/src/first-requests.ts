// What a page load asks the API for before anything renders (decisions 027 and 062): the profile with
// the stored session's token, and on /dashboard every section's first figures with the same token,
// side by side, while the entry restores the session and loads the page's code.
import type { QueryClient } from "@tanstack/react-query";
import { prefetchDashboardAtStart } from "@web/features/dashboard/api/first-load";
import { prefetchProfile, storedAccessToken } from "@web/lib/auth/early-profile";

export function startFirstRequests(queryClient: QueryClient, pathname = window.location.pathname, token = storedAccessToken()) {
  void prefetchProfile(queryClient, token);
  prefetchDashboardAtStart(queryClient, pathname, token);
}
