// GET /api/daily-report?date=YYYY-MM-DD (spec 1 §7): the day's report as CSV text, fetched through the
// request helper (so it carries the bearer) and handed to the browser as daily-report-{date}.csv.
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@web/lib/api";

export const DAILY_REPORT_PATH = "/api/daily-report";

export const dailyReportUrl = (date: string) => `${DAILY_REPORT_PATH}?${new URLSearchParams({ date })}`;
export const dailyReportFileName = (date: string) => `daily-report-${date}.csv`;

/** Saves a blob under a file name through a temporary object URL and an <a download>. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.style.display = "none";
  document.body.appendChild(a);
  try {
    a.click();
  } finally {
    a.remove();
    URL.revokeObjectURL(url);
  }
}

export async function downloadDailyReport(date: string): Promise<void> {
  const res = await apiRequest("GET", dailyReportUrl(date));
  const blob = await res.blob();
  saveBlob(blob.type ? blob : new Blob([blob], { type: "text/csv" }), dailyReportFileName(date));
}

export const useDownloadDailyReport = () => useMutation({ mutationFn: downloadDailyReport });
