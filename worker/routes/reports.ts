// CSV reports (docs/product/api.md#dashboard-counts): the call report of the dashboard's Call Logs section, streamed.
import { Hono } from "hono";
import { callLogCountsQuery, callReportFileName } from "@shared/schemas/counts";
import type { AppEnv } from "../app-env";
import { csvResponse, csvStream } from "../lib/csv";
import { log } from "../lib/log";
import { validate } from "../lib/validate";
import { currentUser, requireUser } from "../middleware/auth";
import { CALL_REPORT_COLUMNS, CALL_REPORT_PAGE_SIZE, callReportCursor, callReportPages, firstPageStarted } from "../services/call-report";

/** Mounted at /api: the spec names the report paths at the top level. */
export const reportRoutes = new Hono<AppEnv>().get("/", requireUser, validate("query", callLogCountsQuery), (c) => {
  const query = c.req.valid("query");
  const body = csvStream({
    columns: CALL_REPORT_COLUMNS,
    readPage: firstPageStarted(callReportPages(c.var.db, currentUser(c).id, query), CALL_REPORT_PAGE_SIZE),
    cursorOf: callReportCursor,
    pageSize: CALL_REPORT_PAGE_SIZE,
    // After the first byte the status is sent: a failure can only cut the file short, so it is logged.
    onError: (error) => log(c, "error", "call report failed mid-stream", { error: (error as Error).message }),
  });
  return csvResponse(body, callReportFileName(query));
});
