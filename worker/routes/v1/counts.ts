// /v1/counts: the dashboard's Call Logs figures through the dashboard's own count engine
// (services/counts/call-logs.ts, on the same database: the account's shard), so a figure here equals the dashboard's.
import { CALL_TYPES, type CallType } from "@shared/constants";
import type { V1Counts } from "@shared/schemas/v1";
import { accountDb } from "../../context/account-db";
import { meterFor } from "../../services/counts/meter";
import { callLogCounts } from "../../services/counts/call-logs";
import { currentUser } from "../../middleware/auth";
import { V1DeclaredRoutes } from "./serve";

/** The dashboard's call type for each /v1 direction. */
const CALL_TYPE: Record<V1Counts["direction"], CallType> = { inbound: "Inbound", outbound: "Outbound", both: "Both" };

export const v1CountRoutes = new V1DeclaredRoutes().serve("GET /v1/counts", async (c) => {
  const q = c.req.valid("query");
  const callType = CALL_TYPE[q.direction];
  if (!CALL_TYPES.includes(callType)) throw new Error(`no call type for ${q.direction}`);
  const figures = await callLogCounts(meterFor(accountDb(c), currentUser(c).shard), currentUser(c).id, { startDate: q.start_date, endDate: q.end_date, callType });
  const body: V1Counts = { start_date: q.start_date, end_date: q.end_date, direction: q.direction, ...figures };
  return c.json(body);
});
