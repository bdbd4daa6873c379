// Appointment analysis (docs/product/screens-and-routes.md#route-table, docs/product/api.md#api). The spec's client sends no auth header; the server asks for
// a signed-in user with shopwindows_info (docs/product/design.md#safer-than-the-brief), since the answer holds customers' numbers.
import { type AnalyticsWonResponse } from "@shared/schemas/counts";
import { analyseAppointments } from "../services/appointment-analysis";
import { DeclaredRoutes } from "./serve";

/** /api/analytics */
export const analyticsRoutes = new DeclaredRoutes().serve("POST /api/analytics/won", async (c) => {
  // The appointments in the directory, the store network's calls on their accounts' shards (decision 076).
  const dbs = { directory: c.var.db, shard: (name: string) => c.var.databases.shard(name) };
  const body: AnalyticsWonResponse = { items: await analyseAppointments(dbs, c.req.valid("json")) };
  return c.json(body);
});
