// What several routes derive from the request context for the services they call, in one place so
// no route imports another for it.
import type { Context } from "hono";
import { clientAddress } from "../db/rate-limit";
import type { AdminActor } from "../services/admin/audit-log";
import type { BillingDeps } from "../services/billing";
import type { DbMeter } from "../services/counts/meter";
import type { AppEnv } from "../app-env";
import { currentUser } from "../middleware/auth";
import { countMeter } from "../middleware/closed-days-cache";

/** What every billing operation is given: the request's database and ports, and the origin its links point to. */
export const billingDeps = (c: Context<AppEnv>): BillingDeps => ({
  db: c.var.db,
  billing: c.var.providers.billing,
  identity: c.var.providers.identity,
  origin: c.var.config.PUBLIC_URL ?? new URL(c.req.url).origin,
});

/** The signed-in admin and the address the request came from, for the audit log. */
export function adminActor(c: Context<AppEnv>): AdminActor {
  const user = currentUser(c);
  return { id: user.id, email: user.email, ip: clientAddress(c) };
}

/** Answers with a count run over the request's database (the Server-Timing middleware reports its cost), on countMeter(c) (decision 056). */
export async function measured<T>(c: Context<AppEnv>, count: (meter: DbMeter) => Promise<T>): Promise<Response> {
  return c.json(await count(countMeter(c)));
}
