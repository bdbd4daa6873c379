// The lead summary of the operations dashboard (docs/product/api.md#dashboard-counts), mounted at /api/lead-counts, for users
// with the shopwindowsInfo flag (admins see all).
import { leadSummaryQuery, type LeadSummaryResponse } from "@shared/schemas/counts";
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { closedDaysCache, countMeter } from "../middleware/closed-days-cache";
import { requireFlag } from "../middleware/auth";
import { leadSummary } from "../services/counts/leads";

export const leadCountRoutes = new Hono<AppEnv>().get("/summary", requireFlag("shopwindowsInfo"), validate("query", leadSummaryQuery), closedDaysCache(), async (c) => {
  // Its database cost is in Server-Timing, as on every answer.
  const body: LeadSummaryResponse = await leadSummary(countMeter(c), c.req.valid("query"));
  return c.json(body);
});
