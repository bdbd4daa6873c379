// The Call Logs counts of the operations dashboard (docs/product/api.md#dashboard-counts): the caller's own calls, answered from
// roll-ups plus a live query (docs/decisions/011-rollups.md) on the account's shard; their database cost
// is in Server-Timing, as on every answer.
import { type CallLogTotalResponse, type CountResponse } from "@shared/schemas/counts";
import type { CallVolumeResponse } from "@shared/schemas/insights";
import type { Handler } from "hono";
import type { AppEnv } from "../app-env";
import { measured } from "../context/request-deps";
import { closedDaysCache } from "../middleware/closed-days-cache";
import { currentUser } from "../middleware/auth";
import { callLogCounts, type CallLogCounts } from "../services/counts/call-logs";
import { callVolume } from "../services/insights";
import { DeclaredRoutes, type InputOf } from "./serve";

/** The handler of one figure's count (connected, voicemail, forwarded). */
const callLogFigure =
  (figure: Exclude<keyof CallLogCounts, "total">): Handler<AppEnv, string, InputOf<"GET /api/call-connected-count">> =>
  (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({
      count: (await callLogCounts(meter, currentUser(c).id, c.req.valid("query")))[figure],
    }));
/** Each count keeps its own cache of closed days; the calls are read from the account's shard (decision 076). */
const cached = () => ({ after: [closedDaysCache("shard")] });

export const callLogCountRoutes = new DeclaredRoutes()
  .serve("GET /api/call-logs/count", cached(), (c) =>
    measured(c, async (meter): Promise<CallLogTotalResponse> => ({
      total: (await callLogCounts(meter, currentUser(c).id, c.req.valid("query"))).total,
    })),
  )
  .serve("GET /api/call-connected-count", cached(), callLogFigure("connected"))
  .serve("GET /api/voicemail-count", cached(), callLogFigure("voicemail"))
  .serve("GET /api/forwarded-count", cached(), callLogFigure("forwarded"))
  // Beyond the spec (docs/spec-deviations.md): the chart's daily volume of the caller's own calls.
  .serve("GET /api/call-volume", cached(), (c) =>
    measured(c, (meter): Promise<CallVolumeResponse> => callVolume(meter, currentUser(c).id, c.req.valid("query"))),
  );
