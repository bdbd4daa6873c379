// The local outbox, read by the mailbox page. Only in local identity mode and never in production.
import { type MailboxResponse } from "@shared/schemas/mailbox";
import { notFound } from "../lib/errors";
import { listOutbox, usesSupabase } from "../providers";
import { DeclaredRoutes } from "./serve";

export const localMailboxRoutes = new DeclaredRoutes().serve("GET /api/local/mailbox", async (c) => {
    if (usesSupabase(c.var.config) || c.var.config.APP_ENV === "production") throw notFound();
    const body: MailboxResponse = { messages: await listOutbox(c.var.db, c.req.valid("query").email) };
    return c.json(body);
  },
);
