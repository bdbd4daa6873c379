// POST /api/local/aircall/simulate: development only. Plays one call's Aircall events through the
// webhook route, so the dashboard's Aircall counts move without an Aircall account. It writes
// store-network data, so it asks for the same flag as reading it (call_app).
import { createMiddleware } from "hono/factory";
import { STORE_NUMBER_NAMES } from "../../shared/constants";
import type { AppEnv } from "../app-env";
import { notFound } from "../lib/errors";
import { DeclaredRoutes } from "./serve";

/** Only the local adapter simulates, and never in production: elsewhere the route does not exist. */
const localOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.providers.callCentre.simulator || c.var.config.APP_ENV === "production") throw notFound();
  await next();
});

export const localAircallRoutes = new DeclaredRoutes().serve("POST /api/local/aircall/simulate", { before: [localOnly] }, async (c) => {
  const { scenario, store, userName } = c.req.valid("json");
  const result = await c.var.providers.callCentre.simulator!.simulate({ scenario, numberName: STORE_NUMBER_NAMES[store], userName });
  return c.json(result);
});
