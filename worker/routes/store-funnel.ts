// Beyond the spec (docs/spec-deviations.md): the per-store funnel with cost, mounted at
// /api/store-funnel; it shows store appointments, so it needs the shopwindowsInfo flag.
import type { StoreFunnelResponse } from "@shared/schemas/insights";
import { accountDb } from "../context/account-db";
import { currentUser } from "../middleware/auth";
import { storeFunnel } from "../services/insights";
import { meterFor } from "../services/counts/meter";
import { DeclaredRoutes } from "./serve";

export const storeFunnelRoutes = new DeclaredRoutes().serve("GET /api/store-funnel", async (c) => {
  const user = currentUser(c);
  const meters = { directory: meterFor(c.var.db), shard: meterFor(accountDb(c), user.shard) };
  const body: StoreFunnelResponse = await storeFunnel(meters, user.id, c.req.valid("query"));
  return c.json(body);
});
