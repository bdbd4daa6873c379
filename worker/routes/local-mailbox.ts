// The local outbox, read by the mailbox page. Only in local identity mode and never in production.
import { Hono } from "hono";
import { mailboxQuery, type MailboxResponse } from "@shared/schemas/mailbox";
import type { AppEnv } from "../app-env";
import { notFound } from "../lib/errors";
import { validate } from "../lib/validate";
import { listOutbox, usesSupabase } from "../providers";

export const localMailboxRoutes = new Hono<AppEnv>().get(
  "/mailbox",
  validate("query", mailboxQuery),
  async (c) => {
    if (usesSupabase(c.var.config) || c.var.config.APP_ENV === "production") throw notFound();
    const body: MailboxResponse = { messages: await listOutbox(c.var.db, c.req.valid("query").email) };
    return c.json(body);
  },
);
