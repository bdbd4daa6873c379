// The URLs of the operations dashboard's reads (docs/product/api.md#dashboard-counts), built from the filters each section
// applies. Kept apart from the query options (dashboard.ts) so the entry's start can send the first
// load's reads as plain URLs (web/src/boot/early-requests.ts).

export type QueryParams = Record<string, string | undefined>;

/** A path with its non-empty parameters, in the given order. */
export function withQuery<P extends string>(path: P, params: QueryParams): P | `${P}?${string}` {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) search.set(k, v);
  const s = search.toString();
  return s ? `${path}?${s}` : path;
}

export type CallLogFilters = { startDate: string; endDate: string; agent?: string; callType: string };

const callLogParams = (f: CallLogFilters): QueryParams => ({
  dateFilterType: "range",
  startDate: f.startDate,
  endDate: f.endDate,
  agent: f.agent,
  callType: f.callType,
});

const rangeParams = (f: { startDate: string; endDate: string }): QueryParams => ({ dateFilterType: "range", startDate: f.startDate, endDate: f.endDate });

export const callLogCountUrls = (f: CallLogFilters) => {
  const p = callLogParams(f);
  return [
    withQuery("/api/call-logs/count", p),
    withQuery("/api/call-connected-count", p),
    withQuery("/api/voicemail-count", p),
    withQuery("/api/forwarded-count", p),
  ] as const;
};

export const exportReportUrl = (f: CallLogFilters) => withQuery("/api/export-report", callLogParams(f));

/** The chart's daily volume: the Call Logs filters, one figure set per day and direction. */
export const callVolumeUrl = (f: CallLogFilters) => withQuery("/api/call-volume", callLogParams(f));

export type AppointmentFilters = { startDate: string; endDate: string; store?: string; bookedBy?: string; appointmentType?: string };

export const appointmentUrls = (f: AppointmentFilters) => {
  const p = { ...rangeParams(f), store: f.store, bookedBy: f.bookedBy, appointmentType: f.appointmentType };
  return [
    withQuery("/api/appointment-count", p),
    withQuery("/api/appointment-status-count", p),
    withQuery("/api/appointment-category-count", p),
  ] as const;
};

export const APPOINTMENT_OPTIONS_URL = "/api/appointment-options";

export const leadSummaryUrl = (f: { startDate: string; endDate: string; store?: string }) =>
  withQuery("/api/lead-counts/summary", { ...rangeParams(f), store: f.store });

/** `store` is the dashboard's chosen store, which the server reads as that store's Aircall line. */
export type AircallFilters = { startDate: string; endDate: string; userName?: string; numberName?: string; store?: string };

export const aircallUrls = (f: AircallFilters) => {
  const p = { ...rangeParams(f), userName: f.userName, numberName: f.numberName, store: f.store };
  return [
    withQuery("/api/aircall/call-count", { ...p, direction: "inbound" }),
    withQuery("/api/aircall/call-count", { ...p, direction: "outbound" }),
    withQuery("/api/aircall/outbound-answered-count", p),
    withQuery("/api/aircall/store-transfer-solutions-count", p),
  ] as const;
};

export const AIRCALL_OPTIONS_URL = "/api/aircall/options";

export const dailyReportUrl = (f: { startDate: string; endDate: string; store?: string }) =>
  withQuery("/api/daily-report", { startDate: f.startDate, endDate: f.endDate, store: f.store });

export const storeFunnelUrl = (f: { startDate: string; endDate: string }) => withQuery("/api/store-funnel", rangeParams(f));

/**
 * A page of the stored nightly reports of the Daily Report section's dates and store (every report of
 * those days without a store): the newest without a cursor, else the page after it.
 */
export const dailyReportsUrl = (f: { startDate: string; endDate: string; store?: string }, cursor?: string) =>
  withQuery("/api/daily-reports", { startDate: f.startDate, endDate: f.endDate, store: f.store, cursor });

export const dailyReportFileUrl = (id: number) => `/api/daily-reports/${encodeURIComponent(String(id))}`;
