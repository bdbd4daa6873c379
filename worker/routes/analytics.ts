// Appointment analysis (docs/product/screens-and-routes.md#route-table, docs/product/api.md#api). The spec's client sends no auth header; the server asks for
// a signed-in user with shopwindows_info (docs/product/design.md#safer-than-the-brief), since the answer holds customers' numbers.
import { type AnalyticsWonResponse } from "@shared/schemas/counts";
import { analyseAppointments } from "../services/appointment-analysis";
import { DeclaredRoutes } from "./serve";

/** /api/analytics */
export const analyticsRoutes = new DeclaredRoutes().serve("POST /api/analytics/won", async (c) => {
  const body: AnalyticsWonResponse = { items: await analyseAppointments(c.var.db, c.req.valid("json")) };
  return c.json(body);
});
