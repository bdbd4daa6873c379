// The Call Logs counts (docs/product/api.md#dashboard-counts): the caller's own calls, by agent and call type.
import type { CallLogCountsQuery } from "@shared/schemas/counts";
import { CALL_TYPE_DIRECTIONS } from "@shared/constants";
import { countOver, type Condition } from "./engine";
import { callLogSpecFor } from "./figures";
import type { DbMeter } from "./meter";


export type CallLogCounts = { total: number; connected: number; voicemail: number; forwarded: number };

export type CallLogCountsInput = Pick<CallLogCountsQuery, "startDate" | "endDate" | "callType"> & { agent?: string };

export async function callLogCounts(meter: DbMeter, userId: string, q: CallLogCountsInput): Promise<CallLogCounts> {
  const directions = CALL_TYPE_DIRECTIONS[q.callType];
  const conditions: Condition[] = [
    { sql: "r.user_id = ?", params: [userId] },
    // Unary + keeps these off their indexes: the account's (user_id, start_time) range is the narrow one.
    { sql: `+r.direction IN (${directions.map(() => "?").join(", ")})`, params: [...directions] },
  ];
  if (q.agent) conditions.push({ sql: "+r.assistant_id = ?", params: [q.agent] });
  // Without an agent filter the (account, day, direction) table answers with a few rows a day,
  // however many assistants the account has.
  return countOver(meter, callLogSpecFor(q.agent), q, ["total", "connected", "voicemail", "forwarded"], conditions);
}
