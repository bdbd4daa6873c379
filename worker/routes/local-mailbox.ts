// The local outbox, read by the mailbox page. Only in local identity mode and never in production.
import { desc, sql } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { mailOutbox } from "../db/schema";
import type { AppEnv } from "../env";
import { notFound } from "../lib/errors";
import { validate } from "../lib/validate";
import { usesSupabase } from "../providers";

export const localMailboxRoutes = new Hono<AppEnv>().get(
  "/mailbox",
  validate("query", z.object({ email: z.string().trim().max(254).optional() })),
  async (c) => {
    if (usesSupabase(c.var.config) || c.var.config.APP_ENV === "production") throw notFound();
    const { email } = c.req.valid("query");
    const rows = await c.var.db
      .select()
      .from(mailOutbox)
      .where(email ? sql`${mailOutbox.toEmail} = ${email.toLowerCase()}` : undefined)
      .orderBy(desc(mailOutbox.id))
      .limit(50);
    return c.json({
      messages: rows.map((m) => ({ id: m.id, to: m.toEmail, subject: m.subject, text: m.bodyText, link: m.link, kind: m.kind, created_at: m.createdAt })),
    });
  },
);
