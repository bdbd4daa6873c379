// The local webhook receiver (docs/product/webhooks.md), outside production only (app.ts answers 404
// for /api/local/* in production): an endpoint whose URL is this origin's
// /api/local/webhook-inbox/<inbox> gets its deliveries here, in-process. Each is kept with its
// headers and whether its signature verifies with that endpoint's secrets; /webhook-inbox shows them.
// The endpoint's URL may ask for faults (?fail=30, ?down_until=<epoch ms>) to watch retries locally.
import { WEBHOOK_INBOX_PATH } from "@shared/webhooks";
import { webhookInboxFaults, webhookInboxParams } from "@shared/schemas/webhooks";
import { shardBindings } from "../db/shards";
import { badRequest, notFound } from "../lib/errors";
import { inboxEntries, receiveInInbox } from "../webhooks/inbox";
import { DeclaredRoutes } from "./serve";

export const localWebhookInboxRoutes = new DeclaredRoutes()
  .serve("GET /api/local/webhook-inbox", async (c) => {
    if (c.var.config.APP_ENV === "production") throw notFound();
    const { inbox } = c.req.valid("query");
    return c.json({ inbox, path: `${WEBHOOK_INBOX_PATH}/${inbox}`, deliveries: await inboxEntries(c.var.db, inbox) });
  })
  .serve("POST /api/local/webhook-inbox/:inbox", async (c) => {
    if (c.var.config.APP_ENV === "production") throw notFound();
    const params = webhookInboxParams.safeParse({ inbox: c.req.param("inbox") });
    if (!params.success) throw badRequest(params.error.issues[0].message, "inbox");
    const faults = webhookInboxFaults.safeParse(c.req.query());
    if (!faults.success) throw badRequest(faults.error.issues[0].message, String(faults.error.issues[0].path[0]));
    // Every shard's endpoints pointing at the inbox, read at once.
    const shards = shardBindings(c.env).map((name) => c.var.databases.shard(name));
    const { verified, answered } = await receiveInInbox(c.var.db, shards, params.data.inbox, c.req.raw.headers, await c.req.text(), new Date(), {
      fail: faults.data.fail,
      downUntil: faults.data.down_until,
    });
    return c.json({ received: true as const, verified }, answered as 200);
  });
