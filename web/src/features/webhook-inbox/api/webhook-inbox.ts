// The local webhook receiver's deliveries (GET /api/local/webhook-inbox), for the /webhook-inbox page.
import { queryOptions } from "@tanstack/react-query";
import { apiJson } from "@web/lib/api";

export const webhookInboxKeys = {
  /** The URL first: the key names exactly what its fetcher GETs. */
  forInbox: (inbox: string) => [`/api/local/webhook-inbox?inbox=${encodeURIComponent(inbox)}`] as const,
};

export const webhookInboxQueryOptions = (inbox: string) =>
  queryOptions({
    queryKey: webhookInboxKeys.forInbox(inbox),
    queryFn: () => apiJson("GET", webhookInboxKeys.forInbox(inbox)[0]),
    // A development tool: deliveries show as they arrive.
    staleTime: 0,
    refetchInterval: 2000,
    retry: false,
  });
