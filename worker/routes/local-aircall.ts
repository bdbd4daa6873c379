// POST /api/local/aircall/simulate: development only. Plays one call's Aircall events through the
// webhook route, so the dashboard's Aircall counts move without an Aircall account. It writes
// store-network data, so it asks for the same flag as reading it (call_app).
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import { STORE_NUMBER_NAMES } from "../../shared/constants";
import { storeField } from "../../shared/schemas/store";
import type { AppEnv } from "../app-env";
import { notFound } from "../lib/errors";
import { validate } from "../lib/validate";
import { requireFlag } from "../middleware/auth";
import { SIMULATED_CALL_SCENARIOS } from "../providers/callcentre/port";

// Strict: a mistyped option is an error, not a silently different call.
const simulateSchema = z.strictObject({
  scenario: z.enum(SIMULATED_CALL_SCENARIOS).default("answered"),
  store: storeField.default("MIAMI"),
  userName: z.string().trim().min(1).max(80).default("Local Agent"),
});

/** Only the local adapter simulates, and never in production: elsewhere the route does not exist. */
const localOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.providers.callCentre.simulator || c.var.config.APP_ENV === "production") throw notFound();
  await next();
});

export const localAircallRoutes = new Hono<AppEnv>().post("/simulate", localOnly, requireFlag("callApp"), validate("json", simulateSchema), async (c) => {
  const { scenario, store, userName } = c.req.valid("json");
  const result = await c.var.providers.callCentre.simulator!.simulate({ scenario, numberName: STORE_NUMBER_NAMES[store], userName });
  return c.json(result);
});
