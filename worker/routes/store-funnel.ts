// Beyond the spec (docs/spec-deviations.md): the per-store funnel with cost, mounted at
// /api/store-funnel; it shows store appointments, so it needs the shopwindowsInfo flag.
import { dateRangeQuery } from "@shared/schemas/counts";
import type { StoreFunnelResponse } from "@shared/schemas/insights";
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { currentUser, requireFlag } from "../middleware/auth";
import { storeFunnel } from "../services/insights";
import { meterFor } from "../services/counts/meter";

export const storeFunnelRoutes = new Hono<AppEnv>().get("/", requireFlag("shopwindowsInfo"), validate("query", dateRangeQuery), async (c) => {
  const body: StoreFunnelResponse = await storeFunnel(meterFor(c.var.db), currentUser(c).id, c.req.valid("query"));
  return c.json(body);
});
