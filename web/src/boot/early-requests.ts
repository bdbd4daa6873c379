// What a page load asks the API for before the app's code has arrived (decisions 027, 062 and 065):
// the profile with the stored session's token, and on /dashboard every section's first figures as one
// batch with the same token. Sent by the page's early module entry (early.ts), which is small and
// runs as soon as it has arrived; the entry's start (first-requests.ts) hands the answers to the
// queries that read them. Nothing here may import the query library, React or supabase-js: the
// bundle-size check holds the early entry to its budget.
import { pagePath } from "@shared/first-paint/page-path";
import { firstLoadUrls, type DashboardViewer } from "@web/features/dashboard/api/first-load-urls";
import { apiGetAllAtOnce, getAccessToken, setAccessToken } from "@web/lib/api";
import { askProfileEarly, storedAccessToken, type EarlyProfile } from "@web/lib/auth/early-profile";
import { claimedViewer } from "@web/lib/auth/token-claims";

/** The dashboard's first reads, sent: for whom, at what moment (it chose the dates), and each URL's answer. */
export type EarlyDashboard = { viewer: DashboardViewer; now: Date; answerOf: (url: string) => Promise<unknown> };

export type EarlyRequests = { profile: EarlyProfile | null; dashboard: EarlyDashboard | null };

/**
 * Never throws: the app's entry imports this module, so a failure here would stop the whole app. A
 * request it could not start is asked for by its query, as on a page without a stored session.
 */
export function sendEarlyRequests(pathname = window.location.pathname, token = storedAccessToken(), now = new Date()): EarlyRequests {
  const profile = askProfileEarly(token);
  let dashboard: EarlyDashboard | null = null;
  try {
    dashboard = sendDashboardReads(pathname, token, now);
  } catch {
    // The first dates could not be worked out (a browser without the time zone): the sections ask.
  }
  return { profile, dashboard };
}

/**
 * On /dashboard with a stored session: the sections' first reads, with the stored token at once,
 * beside the profile, instead of after the profile, the route's code and the first render. The token's
 * claims choose the sections; a section the profile then does not show leaves its answer unused, and
 * one it shows that the claims did not name asks when it renders. The server checks the token and
 * the flags of each read itself.
 */
function sendDashboardReads(pathname: string, token: string | null, now: Date): EarlyDashboard | null {
  if (!token || pagePath(pathname) !== "/dashboard") return null;
  const viewer = claimedViewer(token);
  if (!viewer) return null;
  // The provider sets the restored session's token (the same one, or its successor) when it has it.
  if (getAccessToken() === null) setAccessToken(token);
  return { viewer, now, answerOf: apiGetAllAtOnce(firstLoadUrls(viewer, now)) };
}
