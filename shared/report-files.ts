// File names of the downloads, kept apart from the request schemas: the SPA names a download
// without loading zod and every schema with it (decision 027).

/** The call report's file name (spec 1 §7 Export). */
export function callReportFileName(query: { startDate: string; endDate: string }): string {
  return `call-report-${query.startDate}-to-${query.endDate}.csv`;
}
