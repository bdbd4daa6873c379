// Appointment analysis (docs/product/screens-and-routes.md#route-table, docs/product/api.md#api). The spec's client sends no auth header; the server asks for
// a signed-in user with shopwindows_info (docs/product/design.md#safer-than-the-brief), since the answer holds customers' numbers.
import { Hono } from "hono";
import { analyticsWonBody, type AnalyticsWonResponse } from "@shared/schemas/counts";
import type { AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { requireFlag } from "../middleware/auth";
import { analyseAppointments } from "../services/appointment-analysis";

/** /api/analytics */
export const analyticsRoutes = new Hono<AppEnv>().post("/won", requireFlag("shopwindowsInfo"), validate("json", analyticsWonBody), async (c) => {
  const body: AnalyticsWonResponse = { items: await analyseAppointments(c.var.db, c.req.valid("json")) };
  return c.json(body);
});
