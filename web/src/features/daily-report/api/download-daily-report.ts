// GET /api/daily-report?date=YYYY-MM-DD (docs/product/api.md#dashboard-counts): the day's report as CSV text, fetched through the
// request helper (so it carries the bearer) and handed to the browser as daily-report-{date}.csv.
import { useMutation } from "@tanstack/react-query";
import { dailyReportFileName } from "@shared/daily-report";
import { downloadFile } from "@web/lib/download";

export const DAILY_REPORT_PATH = "/api/daily-report";

export const dailyReportUrl = (date: string) => `${DAILY_REPORT_PATH}?${new URLSearchParams({ date })}`;

export async function downloadDailyReport(date: string): Promise<void> {
  await downloadFile(dailyReportUrl(date), dailyReportFileName({ startDate: date, endDate: date, single: true }));
}

export const useDownloadDailyReport = () => useMutation({ mutationFn: downloadDailyReport });
