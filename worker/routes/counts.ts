// The operations dashboard's counts (spec 1 §7), each answered from roll-ups plus a live query
// (docs/decisions/011-rollups.md). Call-log counts are the caller's own calls; store-network counts
// need the matching flag (admins see all). Their database cost is in Server-Timing, as on every answer.
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
  dateRangeQuery,
} from "@shared/schemas/counts";
import type { Context } from "hono";
import { Hono } from "hono";
import type { AppEnv } from "../middleware/app-env";
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
import { callVolume, storeFunnel } from "../services/insights";
import type { CallVolumeResponse, StoreFunnelResponse } from "@shared/schemas/insights";
import { DbMeter } from "../services/counts/meter";

/** Runs a count over the request's D1 binding (the Server-Timing middleware reports its cost). */
async function measured<T>(c: Context<AppEnv>, count: (meter: DbMeter) => Promise<T>) {
  return c.json(await count(new DbMeter(c.var.db.$client)));
}

const callLogFigure = (figure: Exclude<keyof CallLogCounts, "total">) =>
  new Hono<AppEnv>().get("/", requireUser, validate("query", callLogCountsQuery), (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({
      count: (await callLogCounts(meter, currentUser(c).id, c.req.valid("query")))[figure],
    })),
  );

const shopwindows = requireFlag("shopwindowsInfo");
const callApp = requireFlag("callApp");

export const countRoutes = new Hono<AppEnv>()
  .get("/call-logs/count", requireUser, validate("query", callLogCountsQuery), (c) =>
    measured(c, async (meter): Promise<CallLogTotalResponse> => ({
      total: (await callLogCounts(meter, currentUser(c).id, c.req.valid("query"))).total,
    })),
  )
  .route("/call-connected-count", callLogFigure("connected"))
  .route("/voicemail-count", callLogFigure("voicemail"))
  .route("/forwarded-count", callLogFigure("forwarded"))
  .get("/aircall/call-count", callApp, validate("query", aircallCallCountQuery), (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({ count: await aircallCallCount(meter, c.req.valid("query")) })),
  )
  .get("/aircall/outbound-answered-count", callApp, validate("query", aircallCountsQuery), (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({ count: await aircallOutboundAnswered(meter, c.req.valid("query")) })),
  )
  .get("/aircall/store-transfer-solutions-count", callApp, validate("query", aircallCountsQuery), (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({ count: await aircallStoreTransfers(meter, c.req.valid("query")) })),
  )
  .get("/aircall/options", callApp, (c) => measured(c, (meter): Promise<AircallOptionsResponse> => aircallOptions(meter)))
  .get("/appointment-count", shopwindows, validate("query", appointmentCountsQuery), (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({ count: await appointmentCount(meter, c.req.valid("query")) })),
  )
  .get("/appointment-status-count", shopwindows, validate("query", appointmentCountsQuery), (c) =>
    measured(c, async (meter): Promise<AppointmentStatusCountsResponse> => ({
      counts: await appointmentStatusCounts(meter, c.req.valid("query")),
    })),
  )
  .get("/appointment-category-count", shopwindows, validate("query", appointmentCountsQuery), (c) =>
    measured(c, async (meter): Promise<AppointmentCategoryCountsResponse> => ({
      counts: await appointmentCategoryCounts(meter, c.req.valid("query")),
    })),
  )
  .get("/appointment-options", shopwindows, (c) =>
    measured(c, (meter): Promise<AppointmentOptionsResponse> => appointmentOptions(meter)),
  )
  .get("/lead-counts/summary", shopwindows, validate("query", leadSummaryQuery), (c) =>
    measured(c, (meter): Promise<LeadSummaryResponse> => leadSummary(meter, c.req.valid("query"))),
  )
  // Beyond the spec (docs/spec-deviations.md): the chart's daily volume of the caller's own
  // calls, and the per-store funnel with cost, which shows store appointments (shopwindows_info).
  .get("/call-volume", requireUser, validate("query", callLogCountsQuery), (c) =>
    measured(c, (meter): Promise<CallVolumeResponse> => callVolume(meter, currentUser(c).id, c.req.valid("query"))),
  )
  .get("/store-funnel", shopwindows, validate("query", dateRangeQuery), (c) =>
    measured(c, (meter): Promise<StoreFunnelResponse> => storeFunnel(c.var.db, meter, currentUser(c).id, c.req.valid("query"))),
  );
