// What a page load asks the API for before the app renders (decisions 027 and 062): the profile with
// the stored session's token, on /dashboard every section's first figures as one batch with the same
// token, and on /call-logs and /agent-settings the read their largest paint shows. Sent by the entry's start (start.ts) before React, the router and the components are
// evaluated; first-requests.ts hands the answers to the queries that read them.
import { pagePath } from "@shared/first-paint/first-screen";
import { firstLoadUrls, type DashboardViewer } from "@web/features/dashboard/api/first-load-urls";
import { CALL_LOGS_PAGE_SIZE } from "@web/api/call-logs";
import { AGENTS_PATH } from "@web/api/paths";
import { apiGetAllAtOnce, apiGetAtOnce, getAccessToken, setAccessToken } from "@web/lib/api";
import { askProfileEarly, storedAccessToken, type EarlyProfile } from "@web/lib/auth/early-profile";
import { claimedViewer, type ClaimedViewer } from "@web/lib/auth/token-claims";

/** The dashboard's first reads, sent: for whom, at what moment (it chose the dates), and each URL's answer. */
export type EarlyDashboard = { viewer: DashboardViewer; now: Date; answerOf: (url: string) => Promise<unknown> };

/** Pages whose largest paint is one read's answer (an agent card, a call's summary): that read's URL. */
export const PAGE_READS = { "/call-logs": `/api/call-logs?limit=${CALL_LOGS_PAGE_SIZE}`, "/agent-settings": AGENTS_PATH } as const;
export type PageWithRead = keyof typeof PAGE_READS;

/** A page's one read, sent: which page, for whom, and its answer. */
export type EarlyPageRead = { page: PageWithRead; viewer: ClaimedViewer; answer: Promise<unknown> };

export type EarlyRequests = { profile: EarlyProfile | null; dashboard: EarlyDashboard | null; page: EarlyPageRead | null };

/**
 * Never throws: the app's entry runs it first, so a failure here would stop the whole app. A
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
  return { profile, dashboard, page: sendPageRead(pathname, token) };
}

/**
 * On /call-logs and /agent-settings with a stored session: the read the page's largest paint shows,
 * with the stored token, beside the profile, instead of after the session is restored and the route's
 * loader runs.
 */
function sendPageRead(pathname: string, token: string | null): EarlyPageRead | null {
  const page = pagePath(pathname);
  if (!token || !Object.hasOwn(PAGE_READS, page)) return null;
  const viewer = claimedViewer(token);
  if (!viewer) return null;
  if (getAccessToken() === null) setAccessToken(token);
  const answer = apiGetAtOnce(PAGE_READS[page as PageWithRead]);
  // A refusal is the query's to show, when it reads the answer; unread, it is nothing.
  answer.catch(() => {});
  return { page: page as PageWithRead, viewer, answer };
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
