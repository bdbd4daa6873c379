// CSV reports (docs/product/api.md#dashboard-counts): the call report of the dashboard's Call Logs section, streamed.
import { callReportFileName } from "@shared/schemas/counts";
import { csvResponse, csvStream } from "../lib/csv";
import { log } from "../lib/log";
import { accountDb } from "../context/account-db";
import { currentUser } from "../middleware/auth";
import { CALL_REPORT_COLUMNS, CALL_REPORT_PAGE_SIZE, callReportCursor, callReportPages, firstPageStarted } from "../services/call-report";
import { DeclaredRoutes } from "./serve";

/** Mounted at /api: the spec names the report paths at the top level. */
export const reportRoutes = new DeclaredRoutes().serve("GET /api/export-report", (c) => {
  const query = c.req.valid("query");
  const body = csvStream({
    columns: CALL_REPORT_COLUMNS,
    readPage: firstPageStarted(callReportPages({ directory: c.var.db, shard: accountDb(c) }, currentUser(c).id, query), CALL_REPORT_PAGE_SIZE),
    cursorOf: callReportCursor,
    pageSize: CALL_REPORT_PAGE_SIZE,
    // After the first byte the status is sent: a failure can only cut the file short, so it is logged.
    onError: (error) => log(c, "error", "call report failed mid-stream", { error: (error as Error).message }),
  });
  return csvResponse(body, callReportFileName(query));
});
