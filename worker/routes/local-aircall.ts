// POST /api/local/aircall/simulate: development only. Plays one call's Aircall events through the
// webhook route, so the dashboard's Aircall counts move without an Aircall account.
import { Hono } from "hono";
import { z } from "zod";
import { STORE_NUMBER_NAMES, STORES } from "../../shared/constants";
import type { AppEnv } from "../env";
import { notFound } from "../lib/errors";
import { validate } from "../lib/validate";

const simulateSchema = z.object({
  scenario: z.enum(["answered", "missed", "voicemail", "transferred", "outbound"]).default("answered"),
  store: z.enum(STORES).default("MIAMI"),
  userName: z.string().trim().min(1).max(80).default("Local Agent"),
});

export const localAircallRoutes = new Hono<AppEnv>().post("/simulate", validate("json", simulateSchema), async (c) => {
  const simulator = c.var.providers.callCentre.simulator;
  // Only the local adapter simulates, and never in production.
  if (!simulator || c.var.config.APP_ENV === "production") throw notFound();
  const { scenario, store, userName } = c.req.valid("json");
  const result = await simulator.simulate({ scenario, numberName: STORE_NUMBER_NAMES[store], userName });
  return c.json(result);
});
