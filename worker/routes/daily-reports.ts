// The daily report (spec 1 §7 "Daily report call") as CSV, and the nightly reports kept in D1
// (docs/decisions/012-daily-reports.md). All need shopwindows_info (admins pass).
import { dailyReportFileName, type DailyReportListResponse } from "@shared/daily-report";
import { dailyReportQuery } from "@shared/schemas/counts";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../env";
import { csvDocument, csvResponse } from "../lib/csv";
import { notFound } from "../lib/errors";
import { validate } from "../lib/validate";
import { requireFlag } from "../middleware/auth";
import { DbMeter } from "../services/counts/meter";
import { DAILY_REPORT_CSV_COLUMNS, dailyReportRows } from "../services/daily-report";
import { getStoredDailyReport, listStoredDailyReports } from "../services/daily-report-store";

const shopwindows = requireFlag("shopwindowsInfo");
const idParam = z.object({ id: z.string().regex(/^\d{1,15}$/, "must be a number").transform(Number) });

/** Mounted at /api: the spec names the report paths at the top level. */
export const dailyReportRoutes = new Hono<AppEnv>()
  .get("/daily-report", shopwindows, validate("query", dailyReportQuery), async (c) => {
    const q = c.req.valid("query");
    const meter = new DbMeter(c.env.DB);
    // ~10 rows a day: small enough to build whole, so a failure is still an error status.
    const rows = await dailyReportRows(meter, q);
    return csvResponse(csvDocument(DAILY_REPORT_CSV_COLUMNS, rows), dailyReportFileName(q), {
      "Server-Timing": meter.serverTiming(c.var.config.APP_ENV === "development"),
    });
  })
  .get("/daily-reports", shopwindows, async (c) => {
    const body: DailyReportListResponse = { reports: await listStoredDailyReports(c.var.db) };
    return c.json(body);
  })
  .get("/daily-reports/:id", shopwindows, validate("param", idParam), async (c) => {
    const report = await getStoredDailyReport(c.var.db, c.req.valid("param").id);
    if (!report) throw notFound("No such daily report");
    return csvResponse(report.csv, dailyReportFileName({ startDate: report.day, endDate: report.day, single: true, store: report.store }));
  });
