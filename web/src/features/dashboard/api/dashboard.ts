// The operations dashboard's calls (spec 1 §7): counts, filter options and CSV downloads.
// Each key's first element is the full URL the fetcher GETs (decision 006); the second is the
// dashboard's refresh generation, so 'Refresh All Sections' reloads every count even for the same dates.
import { queryOptions } from "@tanstack/react-query";
import type { ApiPath } from "@shared/schemas/answers";
import { apiJson } from "@web/lib/api";

export type QueryParams = Record<string, string | undefined>;

/** A path with its non-empty parameters, in the given order. */
export function withQuery<P extends string>(path: P, params: QueryParams): P | `${P}?${string}` {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) search.set(k, v);
  const s = search.toString();
  return s ? `${path}?${s}` : path;
}

export const dashboardKeys = {
  /** One dashboard GET: its full URL (what the fetcher asks for), then the refresh generation. */
  url: <P extends string>(path: P, params: QueryParams, generation: number) => [withQuery(path, params), generation] as const,
};

/** One GET of the dashboard; its answer's type is the one `shared/schemas/answers.ts` gives the path. */
function countQuery<P extends ApiPath<"GET">>(path: P, params: QueryParams, generation: number) {
  const queryKey = dashboardKeys.url(path, params, generation);
  return queryOptions({ queryKey, queryFn: () => apiJson("GET", queryKey[0]) });
}

export type CallLogFilters = { startDate: string; endDate: string; agent?: string; callType: string };

const callLogParams = (f: CallLogFilters): QueryParams => ({
  dateFilterType: "range",
  startDate: f.startDate,
  endDate: f.endDate,
  agent: f.agent,
  callType: f.callType,
});

export const callLogCountQueries = (f: CallLogFilters, generation: number) => {
  const p = callLogParams(f);
  return [
    countQuery("/api/call-logs/count", p, generation),
    countQuery("/api/call-connected-count", p, generation),
    countQuery("/api/voicemail-count", p, generation),
    countQuery("/api/forwarded-count", p, generation),
  ] as const;
};

export const exportReportUrl = (f: CallLogFilters) => withQuery("/api/export-report", callLogParams(f));

/** The chart's daily volume: the Call Logs filters, one figure set per day and direction. */
export const callVolumeQueryOptions = (f: CallLogFilters, generation: number) => countQuery("/api/call-volume", callLogParams(f), generation);

export type AppointmentFilters = { startDate: string; endDate: string; store?: string; bookedBy?: string; appointmentType?: string };

const rangeParams = (f: { startDate: string; endDate: string }): QueryParams => ({ dateFilterType: "range", startDate: f.startDate, endDate: f.endDate });

export const appointmentQueries = (f: AppointmentFilters, generation: number) => {
  const p = { ...rangeParams(f), store: f.store, bookedBy: f.bookedBy, appointmentType: f.appointmentType };
  return [
    countQuery("/api/appointment-count", p, generation),
    countQuery("/api/appointment-status-count", p, generation),
    countQuery("/api/appointment-category-count", p, generation),
  ] as const;
};

export const appointmentOptionsQueryOptions = (generation: number) => countQuery("/api/appointment-options", {}, generation);

export const leadSummaryQueryOptions = (f: { startDate: string; endDate: string; store?: string }, generation: number) =>
  countQuery("/api/lead-counts/summary", { ...rangeParams(f), store: f.store }, generation);

/** `store` is the dashboard's chosen store, which the server reads as that store's Aircall line. */
export type AircallFilters = { startDate: string; endDate: string; userName?: string; numberName?: string; store?: string };

export const aircallQueries = (f: AircallFilters, generation: number) => {
  const p = { ...rangeParams(f), userName: f.userName, numberName: f.numberName, store: f.store };
  return [
    countQuery("/api/aircall/call-count", { ...p, direction: "inbound" }, generation),
    countQuery("/api/aircall/call-count", { ...p, direction: "outbound" }, generation),
    countQuery("/api/aircall/outbound-answered-count", p, generation),
    countQuery("/api/aircall/store-transfer-solutions-count", p, generation),
  ] as const;
};

export const aircallOptionsQueryOptions = (generation: number) => countQuery("/api/aircall/options", {}, generation);

export const dailyReportUrl = (f: { startDate: string; endDate: string; store?: string }) =>
  withQuery("/api/daily-report", { startDate: f.startDate, endDate: f.endDate, store: f.store });


export const storeFunnelQueryOptions = (f: { startDate: string; endDate: string }, generation: number) =>
  countQuery("/api/store-funnel", rangeParams(f), generation);

/** A page of the stored nightly reports: the newest without a cursor, else the page after it. */
export const dailyReportsQueryOptions = (generation: number, cursor?: string) =>
  countQuery("/api/daily-reports", { cursor }, generation);

export const dailyReportFileUrl = (id: number) => `/api/daily-reports/${encodeURIComponent(String(id))}`;
