// The local outbox, read by the mailbox page. Only in local identity mode and never in production.
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../env";
import { notFound } from "../lib/errors";
import { validate } from "../lib/validate";
import { usesSupabase } from "../providers";
import { listOutbox } from "../services/local-mailbox";

export const localMailboxRoutes = new Hono<AppEnv>().get(
  "/mailbox",
  validate("query", z.object({ email: z.string().trim().max(254).optional() })),
  async (c) => {
    if (usesSupabase(c.var.config) || c.var.config.APP_ENV === "production") throw notFound();
    return c.json({ messages: await listOutbox(c.var.db, c.req.valid("query").email) });
  },
);
