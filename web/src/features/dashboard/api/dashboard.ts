// The operations dashboard's calls (docs/product/api.md#dashboard-counts): counts, filter options and CSV downloads.
// Each key's first element is the full URL the fetcher GETs (decision 006), built by dashboard-urls.ts;
// the second is the dashboard's refresh generation, so 'Refresh All Sections' reloads every count even
// for the same dates.
import { queryOptions } from "@tanstack/react-query";
import type { ApiUrl } from "@shared/schemas/answers";
import { apiJson } from "@web/lib/api";
import {
  aircallUrls,
  AIRCALL_OPTIONS_URL,
  APPOINTMENT_OPTIONS_URL,
  appointmentUrls,
  callLogCountUrls,
  callVolumeUrl,
  dailyReportsUrl,
  leadSummaryUrl,
  storeFunnelUrl,
  type AircallFilters,
  type AppointmentFilters,
  type CallLogFilters,
} from "./dashboard-urls";

/** One GET of the dashboard; its answer's type is the one `shared/schemas/answers.ts` gives the URL. */
function countQuery<U extends ApiUrl<"GET">>(url: U, generation: number) {
  const queryKey = [url, generation] as const;
  return queryOptions({ queryKey, queryFn: () => apiJson("GET", url) });
}

export const callLogCountQueries = (f: CallLogFilters, generation: number) => {
  const [count, connected, voicemail, forwarded] = callLogCountUrls(f);
  return [countQuery(count, generation), countQuery(connected, generation), countQuery(voicemail, generation), countQuery(forwarded, generation)] as const;
};

export const callVolumeQueryOptions = (f: CallLogFilters, generation: number) => countQuery(callVolumeUrl(f), generation);

export const appointmentQueries = (f: AppointmentFilters, generation: number) => {
  const [count, status, category] = appointmentUrls(f);
  return [countQuery(count, generation), countQuery(status, generation), countQuery(category, generation)] as const;
};

export const appointmentOptionsQueryOptions = (generation: number) => countQuery(APPOINTMENT_OPTIONS_URL, generation);

export const leadSummaryQueryOptions = (f: { startDate: string; endDate: string; store?: string }, generation: number) =>
  countQuery(leadSummaryUrl(f), generation);

export const aircallQueries = (f: AircallFilters, generation: number) => {
  const [inbound, outbound, answered, solutions] = aircallUrls(f);
  return [countQuery(inbound, generation), countQuery(outbound, generation), countQuery(answered, generation), countQuery(solutions, generation)] as const;
};

export const aircallOptionsQueryOptions = (generation: number) => countQuery(AIRCALL_OPTIONS_URL, generation);

export const storeFunnelQueryOptions = (f: { startDate: string; endDate: string }, generation: number) => countQuery(storeFunnelUrl(f), generation);

/** A page of the stored nightly reports: the newest without a cursor, else the page after it. */
export const dailyReportsQueryOptions = (f: { startDate: string; endDate: string; store?: string }, generation: number, cursor?: string) =>
  countQuery(dailyReportsUrl(f, cursor), generation);
