// Call logs: the account's unified log (GET /api/call-logs) and the voice platform's view of the
// account's calls (/api/vapi/call-logs, /api/vapi/call/:id). Everything is scoped to the signed-in account.
import { type CallLogSearchResponse, type CallLogsResponse, type VapiCallDetail, type VapiCallLogsResponse } from "@shared/schemas/call-logs";
import { VAPI_CALL_LOGS_STALE_MS } from "@shared/constants";
import { badRequest } from "../lib/errors";
import { accountDb } from "../context/account-db";
import { currentUser } from "../middleware/auth";
import { decodeCursor, getCallDetail, listCallLogPage, listPlatformCalls, toCallLogView } from "../services/call-logs";
import { isSearchCursor, searchCallLogs } from "../services/call-search";
import { DeclaredRoutes } from "./serve";

/** /api/call-logs */
export const callLogRoutes = new DeclaredRoutes().serve("GET /api/call-logs", async (c) => {
  const { limit, cursor, ...filters } = c.req.valid("query");
  const after = cursor ? decodeCursor(cursor) : null;
  if (cursor && !after) throw badRequest("cursor: Invalid cursor", "cursor");
  const page = await listCallLogPage(accountDb(c), currentUser(c).id, limit, after, filters);
  const body: CallLogsResponse = { logs: page.rows.map(toCallLogView), nextCursor: page.nextCursor };
  return c.json(body);
})
  // Transcript and summary search (decision 059): the account's own calls only, like the list above,
  // from the index in the account's shard.
  .serve("GET /api/call-logs/search", async (c) => {
    const { q, limit, cursor } = c.req.valid("query");
    if (cursor && !isSearchCursor(cursor)) throw badRequest("cursor: Invalid cursor", "cursor");
    const page = await searchCallLogs(accountDb(c), currentUser(c).id, q, limit, cursor ?? null);
    const body: CallLogSearchResponse = page;
    return c.json(body);
  });

/** /api/vapi: the calls as the voice platform reports them. */
export const platformCallRoutes = new DeclaredRoutes()
  .serve("GET /api/vapi/call-logs", async (c) => {
    const deps = { db: c.var.db, voice: c.var.providers.voice };
    const body: VapiCallLogsResponse = { calls: await listPlatformCalls(deps, currentUser(c).id, c.req.valid("query").limit) };
    // The platform's call list is fresh enough for 30 s (docs/product/constants.md#business-constants); the browser may reuse it that long.
    c.header("cache-control", `private, max-age=${VAPI_CALL_LOGS_STALE_MS / 1000}`);
    return c.json(body);
  })
  .serve("GET /api/vapi/call/:call_id", async (c) => {
    // The agents are in the directory, the call's row on the account's shard (decision 076); a
    // row's transcript is in R2 (decision 077).
    const deps = { db: c.var.db, shard: accountDb(c), voice: c.var.providers.voice, text: c.env.CALL_TEXT };
    const body: VapiCallDetail = await getCallDetail(deps, currentUser(c).id, c.req.valid("param").call_id);
    return c.json(body);
  });
