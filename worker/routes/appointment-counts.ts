// The appointment counts of the operations dashboard (docs/product/api.md#dashboard-counts), for users with the
// shopwindowsInfo flag (admins see all). Answered from roll-ups plus a live query
// (docs/decisions/011-rollups.md). The spec's paths share no prefix, so this is mounted at /api.
import { type AppointmentCategoryCountsResponse, type AppointmentOptionsResponse, type AppointmentStatusCountsResponse, type CountResponse } from "@shared/schemas/counts";
import { measured } from "../context/request-deps";
import { closedDaysCache } from "../middleware/closed-days-cache";
import {
  appointmentCategoryCounts,
  appointmentCount,
  appointmentOptions,
  appointmentStatusCounts,
} from "../services/counts/appointments";
import { DeclaredRoutes } from "./serve";


export const appointmentCountRoutes = new DeclaredRoutes()
  .serve("GET /api/appointment-count", { after: [closedDaysCache()] }, (c) =>
    measured(c, async (meter): Promise<CountResponse> => ({ count: await appointmentCount(meter, c.req.valid("query")) })),
  )
  .serve("GET /api/appointment-status-count", { after: [closedDaysCache()] }, (c) =>
    measured(c, async (meter): Promise<AppointmentStatusCountsResponse> => ({
      counts: await appointmentStatusCounts(meter, c.req.valid("query")),
    })),
  )
  .serve("GET /api/appointment-category-count", { after: [closedDaysCache()] }, (c) =>
    measured(c, async (meter): Promise<AppointmentCategoryCountsResponse> => ({
      counts: await appointmentCategoryCounts(meter, c.req.valid("query")),
    })),
  )
  .serve("GET /api/appointment-options", (c) =>
    measured(c, (meter): Promise<AppointmentOptionsResponse> => appointmentOptions(meter)),
  );
