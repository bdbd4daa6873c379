// The local outbox (GET /api/local/mailbox), read through the default query function.
import { queryOptions } from "@tanstack/react-query";

export type MailboxMessage = {
  id: number;
  to: string;
  subject: string;
  text: string;
  link: string | null;
  kind: string;
  created_at: string;
};

export const mailboxQueryOptions = (email: string) =>
  queryOptions<{ messages: MailboxMessage[] }>({
    queryKey: [`/api/local/mailbox?email=${encodeURIComponent(email)}`],
    // A development tool: new mail should show whenever the page is opened.
    staleTime: 0,
  });
