// The operations dashboard's counts (spec 1 §7), each answered from roll-ups plus a live query
// (docs/decisions/011-rollups.md). Call-log counts are the caller's own calls; store-network counts
// need the matching flag (admins see all). Every answer says its database cost in Server-Timing.
import {
  aircallCallCountQuery,
  aircallCountsQuery,
  appointmentCountsQuery,
  callLogCountsQuery,
  leadSummaryQuery,
  type AircallOptionsResponse,
  type AppointmentCategoryCountsResponse,
  type AppointmentOptionsResponse,
  type AppointmentStatusCountsResponse,
  type CallLogTotalResponse,
  type CountResponse,
  type LeadSummaryResponse,
} from "@shared/schemas/counts";
import type { Context } from "hono";
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { validate } from "../lib/validate";
import { currentUser, requireFlag, requireUser } from "../middleware/auth";
import { aircallCallCount, aircallOptions, aircallOutboundAnswered, aircallStoreTransfers } from "../services/counts/aircall";
import {
  appointmentCategoryCounts,
  appointmentCount,
  appointmentOptions,
  appointmentStatusCounts,
} from "../services/counts/appointments";
import { callLogCounts, type CallLogCounts } from "../services/counts/call-logs";
import { leadSummary } from "../services/counts/leads";
import { DbMeter } from "../services/counts/meter";

/**
 * First on every count route: refusals (400, 401, 403) answer before any count query runs, and
 * still say so, with zero database time; a count's own timing replaces it.
 */
const noDbTime = createMiddleware<AppEnv>(async (c, next) => {
  c.header("Server-Timing", new DbMeter(c.env.DB).serverTiming(c.var.config.APP_ENV === "development"));
  await next();
});

/** Runs a count with a fresh meter and answers it with the meter's Server-Timing. */
async function measured<T>(c: Context<AppEnv>, count: (meter: DbMeter) => Promise<T>) {
  const meter = new DbMeter(c.env.DB);
  const body = await count(meter);
  c.header("Server-Timing", meter.serverTiming(c.var.config.APP_ENV === "development"));
  return c.json(body);
}

const callLogFigure = (figure: Exclude<keyof CallLogCounts, "total">) =>
  new Hono<AppEnv>().get("/", noDbTime, requireUser, validate("query", callLogCountsQuery), (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({
      count: (await callLogCounts(meter, currentUser(c).id, c.req.valid("query")))[figure],
    })),
  );

const shopwindows = requireFlag("shopwindowsInfo");
const callApp = requireFlag("callApp");

export const countRoutes = new Hono<AppEnv>()
  .get("/call-logs/count", noDbTime, requireUser, validate("query", callLogCountsQuery), (c) =>
    measured(c, async (meter): Promise<CallLogTotalResponse> => ({
      total: (await callLogCounts(meter, currentUser(c).id, c.req.valid("query"))).total,
    })),
  )
  .route("/call-connected-count", callLogFigure("connected"))
  .route("/voicemail-count", callLogFigure("voicemail"))
  .route("/forwarded-count", callLogFigure("forwarded"))
  .get("/aircall/call-count", noDbTime, callApp, validate("query", aircallCallCountQuery), (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({ count: await aircallCallCount(meter, c.req.valid("query")) })),
  )
  .get("/aircall/outbound-answered-count", noDbTime, callApp, validate("query", aircallCountsQuery), (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({ count: await aircallOutboundAnswered(meter, c.req.valid("query")) })),
  )
  .get("/aircall/store-transfer-solutions-count", noDbTime, callApp, validate("query", aircallCountsQuery), (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({ count: await aircallStoreTransfers(meter, c.req.valid("query")) })),
  )
  .get("/aircall/options", noDbTime, callApp, (c) => measured(c, (meter): Promise<AircallOptionsResponse> => aircallOptions(meter)))
  .get("/appointment-count", noDbTime, shopwindows, validate("query", appointmentCountsQuery), (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({ count: await appointmentCount(meter, c.req.valid("query")) })),
  )
  .get("/appointment-status-count", noDbTime, shopwindows, validate("query", appointmentCountsQuery), (c) =>
    measured(c, async (meter): Promise<AppointmentStatusCountsResponse> => ({
      counts: await appointmentStatusCounts(meter, c.req.valid("query")),
    })),
  )
  .get("/appointment-category-count", noDbTime, shopwindows, validate("query", appointmentCountsQuery), (c) =>
    measured(c, async (meter): Promise<AppointmentCategoryCountsResponse> => ({
      counts: await appointmentCategoryCounts(meter, c.req.valid("query")),
    })),
  )
  .get("/appointment-options", noDbTime, shopwindows, (c) =>
    measured(c, (meter): Promise<AppointmentOptionsResponse> => appointmentOptions(meter)),
  )
  .get("/lead-counts/summary", noDbTime, shopwindows, validate("query", leadSummaryQuery), (c) =>
    measured(c, (meter): Promise<LeadSummaryResponse> => leadSummary(meter, c.req.valid("query"))),
  );
