// File names of the downloads, kept apart from the request schemas: the SPA names a download
// without loading zod and every schema with it (decision 027).

/** The call report's file name (docs/product/dashboard-and-counts.md#the-call-report Export). */
export function callReportFileName(query: { startDate: string; endDate: string }): string {
  return `call-report-${query.startDate}-to-${query.endDate}.csv`;
}
