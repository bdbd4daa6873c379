// Beyond the spec (docs/spec-deviations.md): the per-store funnel with cost, mounted at
// /api/store-funnel; it shows store appointments, so it needs the shopwindowsInfo flag.
import type { StoreFunnelResponse } from "@shared/schemas/insights";
import { currentUser } from "../middleware/auth";
import { storeFunnel } from "../services/insights";
import { meterFor } from "../services/counts/meter";
import { DeclaredRoutes } from "./serve";

export const storeFunnelRoutes = new DeclaredRoutes().serve("GET /api/store-funnel", async (c) => {
  const body: StoreFunnelResponse = await storeFunnel(meterFor(c.var.db), currentUser(c).id, c.req.valid("query"));
  return c.json(body);
});
