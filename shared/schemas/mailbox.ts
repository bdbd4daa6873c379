// GET /api/local/mailbox?email=: the local outbox (local identity mode, never in production).
import { z } from "zod";

export const mailboxQuery = z.object({ email: z.string().trim().max(254).optional() });

export const mailboxMessage = z.object({
  id: z.number(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  link: z.string().nullable(),
  /** The HTML version, when the mail has one: shown sandboxed, never as part of the page. */
  html: z.string().nullable(),
  /** Extra headers (List-Unsubscribe...), when the mail has any. */
  headers: z.record(z.string(), z.string()).nullable(),
  kind: z.string(),
  created_at: z.string(),
});
export type MailboxMessage = z.infer<typeof mailboxMessage>;

export const mailboxResponse = z.object({ messages: z.array(mailboxMessage) });
export type MailboxResponse = z.infer<typeof mailboxResponse>;
