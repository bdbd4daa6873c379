// The lead summary of the operations dashboard (docs/product/api.md#dashboard-counts), mounted at /api/lead-counts, for users
// with the shopwindowsInfo flag (admins see all).
import { type LeadSummaryResponse } from "@shared/schemas/counts";
import { closedDaysCache, countMeter } from "../middleware/closed-days-cache";
import { leadSummary } from "../services/counts/leads";
import { DeclaredRoutes } from "./serve";

export const leadCountRoutes = new DeclaredRoutes().serve("GET /api/lead-counts/summary", { after: [closedDaysCache()] }, async (c) => {
  // Its database cost is in Server-Timing, as on every answer.
  const body: LeadSummaryResponse = await leadSummary(countMeter(c), c.req.valid("query"));
  return c.json(body);
});
