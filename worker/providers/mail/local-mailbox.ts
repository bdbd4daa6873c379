// The local outbox as the mailbox page reads it (local identity mode only): the newest 50 messages,
// optionally for one address.
import { desc, sql } from "drizzle-orm";
import type { MailboxMessage } from "@shared/schemas/mailbox";
import type { Database } from "../../db/client";
import { mailOutbox } from "../../db/schema";

export async function listOutbox(db: Database, email?: string): Promise<MailboxMessage[]> {
  const rows = await db
    .select()
    .from(mailOutbox)
    .where(email ? sql`${mailOutbox.toEmail} = ${email.toLowerCase()}` : undefined)
    .orderBy(desc(mailOutbox.id))
    .limit(50);
  return rows.map((m) => ({ id: m.id, to: m.toEmail, subject: m.subject, text: m.bodyText, link: m.link, html: m.bodyHtml, headers: m.headers, kind: m.kind, created_at: m.createdAt }));
}
