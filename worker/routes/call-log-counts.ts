// The Call Logs counts of the operations dashboard (docs/product/api.md#dashboard-counts): the caller's own calls, answered from
// roll-ups plus a live query (docs/decisions/011-rollups.md); their database cost is in Server-Timing,
// as on every answer. Mounted before /call-logs: its count is a path of its own, never an id of the list.
import { callLogCountsQuery, type CallLogTotalResponse, type CountResponse } from "@shared/schemas/counts";
import type { CallVolumeResponse } from "@shared/schemas/insights";
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { measured } from "../context/request-deps";
import { closedDaysCache } from "../middleware/closed-days-cache";
import { validate } from "../lib/validate";
import { currentUser, requireUser } from "../middleware/auth";
import { callLogCounts, type CallLogCounts } from "../services/counts/call-logs";
import { callVolume } from "../services/insights";

const callLogFigure = (figure: Exclude<keyof CallLogCounts, "total">) =>
  new Hono<AppEnv>().get("/", requireUser, validate("query", callLogCountsQuery), closedDaysCache(), (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({
      count: (await callLogCounts(meter, currentUser(c).id, c.req.valid("query")))[figure],
    })),
  );

export const callLogCountRoutes = new Hono<AppEnv>()
  .get("/call-logs/count", requireUser, validate("query", callLogCountsQuery), closedDaysCache(), (c) =>
    measured(c, async (meter): Promise<CallLogTotalResponse> => ({
      total: (await callLogCounts(meter, currentUser(c).id, c.req.valid("query"))).total,
    })),
  )
  .route("/call-connected-count", callLogFigure("connected"))
  .route("/voicemail-count", callLogFigure("voicemail"))
  .route("/forwarded-count", callLogFigure("forwarded"))
  // Beyond the spec (docs/spec-deviations.md): the chart's daily volume of the caller's own calls.
  .get("/call-volume", requireUser, validate("query", callLogCountsQuery), closedDaysCache(), (c) =>
    measured(c, (meter): Promise<CallVolumeResponse> => callVolume(meter, currentUser(c).id, c.req.valid("query"))),
  );
