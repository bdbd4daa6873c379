// POST /api/webhooks/vapi: the voice platform's server messages (real VAPI and the simulator alike).
// The provider's readVoiceEvent authenticates, parses and names the event; the call log applies it
// once, on the shard of the account whose agent holds the call's assistant (decision 076), its
// transcript stored in R2 before the row commits (decision 077).
import { readVoiceEvent, vapiWebhookSecret } from "../providers";
import { shardBindings } from "../db/shards";
import { recordCallEvent } from "../services/call-logs";
import { emit } from "../events/emit";
import { DeclaredRoutes } from "./serve";

/** Mounted at the app's root: the path is the one constant the adapters also build their URL from. */
export const vapiWebhookRoutes = new DeclaredRoutes().serve("POST /api/webhooks/vapi", async (c) => {
  const event = await readVoiceEvent(c.req.raw.headers, await c.req.text(), vapiWebhookSecret(c.var.config), Date.now());
  if (!event) return c.json({ received: true, ignored: true });
  const shards = { named: (name: string) => c.var.databases.shard(name), bound: shardBindings(c.env) };
  const { duplicate, userId, db, shard } = await recordCallEvent(c.var.db, shards, c.env.CALL_TEXT, event);
  // Committed: the live feed, the search index and the account's webhooks follow, after the answer.
  if (!duplicate) {
    emit(c, "callsChanged", { userId, db, callIds: [event.call.id] });
    emit(c, "callReported", { userId, shard, platformType: event.type, call: event.call });
  }
  return c.json({ received: true, duplicate });
});
