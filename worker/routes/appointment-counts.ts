// The appointment counts of the operations dashboard (docs/product/api.md#dashboard-counts), for users with the
// shopwindowsInfo flag (admins see all). Answered from roll-ups plus a live query
// (docs/decisions/011-rollups.md). The spec's paths share no prefix, so this is mounted at /api.
import {
  appointmentCountsQuery,
  type AppointmentCategoryCountsResponse,
  type AppointmentOptionsResponse,
  type AppointmentStatusCountsResponse,
  type CountResponse,
} from "@shared/schemas/counts";
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { measured } from "../context/request-deps";
import { closedDaysCache } from "../middleware/closed-days-cache";
import { validate } from "../lib/validate";
import { requireFlag } from "../middleware/auth";
import {
  appointmentCategoryCounts,
  appointmentCount,
  appointmentOptions,
  appointmentStatusCounts,
} from "../services/counts/appointments";

const shopwindows = requireFlag("shopwindowsInfo");

export const appointmentCountRoutes = new Hono<AppEnv>()
  .get("/appointment-count", shopwindows, validate("query", appointmentCountsQuery), closedDaysCache(), (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({ count: await appointmentCount(meter, c.req.valid("query")) })),
  )
  .get("/appointment-status-count", shopwindows, validate("query", appointmentCountsQuery), closedDaysCache(), (c) =>
    measured(c, async (meter): Promise<AppointmentStatusCountsResponse> => ({
      counts: await appointmentStatusCounts(meter, c.req.valid("query")),
    })),
  )
  .get("/appointment-category-count", shopwindows, validate("query", appointmentCountsQuery), closedDaysCache(), (c) =>
    measured(c, async (meter): Promise<AppointmentCategoryCountsResponse> => ({
      counts: await appointmentCategoryCounts(meter, c.req.valid("query")),
    })),
  )
  .get("/appointment-options", shopwindows, (c) =>
    measured(c, (meter): Promise<AppointmentOptionsResponse> => appointmentOptions(meter)),
  );
