// The local outbox (GET /api/local/mailbox), for the /mailbox development page.
import { queryOptions } from "@tanstack/react-query";
import { apiJson } from "@web/lib/api";

export const mailboxKeys = {
  /** The URL first: the key names exactly what its fetcher GETs. */
  forEmail: (email: string) => [`/api/local/mailbox?email=${encodeURIComponent(email)}`] as const,
};

export const getMailbox = (email: string) => apiJson("GET", mailboxKeys.forEmail(email)[0]);

export const mailboxQueryOptions = (email: string) =>
  queryOptions({
    queryKey: mailboxKeys.forEmail(email),
    queryFn: () => getMailbox(email),
    // A development tool: new mail should show whenever the page is opened.
    staleTime: 0,
  });
