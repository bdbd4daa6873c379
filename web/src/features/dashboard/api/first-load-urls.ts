// What the dashboard's first render reads (decision 062), as URLs: the page's first state and the
// reads its sections make in it. Plain URLs, so the entry's start (web/src/boot/early-requests.ts) can
// send them in one batch before the app renders; first-load.ts builds the same reads as the
// sections' queries, and a test holds the two to one list.
import { DEFAULT_CALL_TYPE } from "@shared/constants";
import { nyToday, nyYesterday } from "@shared/ny-time";
import type { CurrentUserView } from "@shared/schemas/auth";
import { AGENTS_PATH, ALERT_BELL_PATH, USAGE_STATS_PATH } from "@web/api/paths";
import {
  AIRCALL_OPTIONS_URL,
  aircallUrls,
  APPOINTMENT_OPTIONS_URL,
  appointmentUrls,
  callLogCountUrls,
  callVolumeUrl,
  dailyReportsUrl,
  leadSummaryUrl,
  storeFunnelUrl,
} from "./dashboard-urls";

export type Range = { startDate: string; endDate: string };
/** The dates and store the sections show: the top controls apply them on 'Refresh All Sections'. */
export type AppliedState = { callLogs: Range; reports: Range; store: string; generation: number };

/** The page's first state: Call Logs on today, the report sections on yesterday (New York, docs/product/constants.md#business-constants). */
export function initialApplied(now: Date): AppliedState {
  const today = nyToday(now);
  const yesterday = nyYesterday(now);
  return { callLogs: { startDate: today, endDate: today }, reports: { startDate: yesterday, endDate: yesterday }, store: "", generation: 0 };
}

/** Who opens the dashboard: the id keys the agents list, the flags choose the sections. */
export type DashboardViewer = Pick<CurrentUserView, "id" | "shopwindows_info" | "call_app">;

/**
 * The URLs of the dashboard's first render: Call Logs' four counts (the first screen's figures), the
 * usage the plan notice reads, the agents of Call Logs' filter and its call volume, the header's alert
 * bell, then the sections the flags show, in the page's order.
 */
export function firstLoadUrls(viewer: DashboardViewer, now: Date): string[] {
  const { callLogs, reports } = initialApplied(now);
  const callLogFilters = { ...callLogs, callType: DEFAULT_CALL_TYPE };
  const urls: string[] = [...callLogCountUrls(callLogFilters), USAGE_STATS_PATH, AGENTS_PATH, callVolumeUrl(callLogFilters), ALERT_BELL_PATH];
  if (viewer.shopwindows_info) urls.push(dailyReportsUrl(reports), APPOINTMENT_OPTIONS_URL, ...appointmentUrls(reports), leadSummaryUrl(reports));
  if (viewer.call_app) urls.push(AIRCALL_OPTIONS_URL, ...aircallUrls(reports));
  if (viewer.shopwindows_info) urls.push(storeFunnelUrl(reports));
  return urls;
}
