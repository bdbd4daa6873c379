// POST /api/webhooks/aircall: Aircall's call events (and the local simulator's, which are the same).
// The provider authenticates and parses; the service applies each event once.
import { nyDayOf } from "@shared/ny-time";
import { aircallWebhookToken } from "../providers";
import { emit } from "../events/emit";
import { applyAircallEvent } from "../services/aircall-calls";
import { DeclaredRoutes } from "./serve";

/** Mounted at the app's root: the path is the one constant the local simulator also posts to. */
export const aircallWebhookRoutes = new DeclaredRoutes().serve("POST /api/webhooks/aircall", async (c) => {
  const raw = await c.req.text();
  const event = await c.var.providers.callCentre.readEvent(c.req.raw.headers, raw, aircallWebhookToken(c.var.config), new Date());
  // Events the product does not use are acknowledged, so Aircall neither retries nor disables the webhook.
  if (event.kind === "ignored") return c.json({ received: true, ignored: true });
  const { duplicate } = await applyAircallEvent(c.var.db, event);
  // Committed: staff with the call-centre flag see the day's figures move (decision 058).
  if (!duplicate) emit(c, "storeChanged", { kind: "aircall", days: [nyDayOf(event.call.startedAt ?? event.occurredAt)] });
  return c.json({ received: true, duplicate });
});
