// The daily report (docs/product/dashboard-and-counts.md#the-daily-report-file "Daily report call") as CSV, and the nightly reports kept in D1
// (docs/decisions/012-daily-reports.md). All need shopwindows_info (admins pass).
import { dailyReportFileName } from "@shared/daily-report";
import { csvResponse, csvStream } from "../lib/csv";
import { log } from "../lib/log";
import { notFound } from "../lib/errors";
import { meterFor } from "../services/counts/meter";
import { DAILY_REPORT_CSV_COLUMNS, dailyReportPages } from "../services/daily-report";
import { getStoredDailyReport, listStoredDailyReports } from "../services/daily-report-store";
import { firstPageStarted } from "../services/call-report";
import { DeclaredRoutes } from "./serve";


/** Mounted at /api: the spec names the report paths at the top level. */
export const dailyReportRoutes = new DeclaredRoutes()
  .serve("GET /api/daily-report", async (c) => {
    const q = c.req.valid("query");
    const { pageSize, readPage } = dailyReportPages(meterFor(c.var.db), q);
    const body = csvStream({
      columns: DAILY_REPORT_CSV_COLUMNS,
      readPage: firstPageStarted(readPage, pageSize),
      pageSize,
      cursorOf: (row) => row.date,
      // After the first byte the status is sent: a failure can only cut the file short, so it is logged.
      onError: (error) => log(c, "error", "daily report failed mid-stream", { error: (error as Error).message }),
    });
    return csvResponse(body, dailyReportFileName(q));
  })
  .serve("GET /api/daily-reports", async (c) => {
    return c.json(await listStoredDailyReports(c.var.db, c.req.valid("query")));
  })
  .serve("GET /api/daily-reports/:id", async (c) => {
    const report = await getStoredDailyReport(c.var.db, c.req.valid("param").id);
    if (!report) throw notFound("No such daily report");
    return csvResponse(report.csv, dailyReportFileName({ startDate: report.day, endDate: report.day, single: true, store: report.store }));
  });
