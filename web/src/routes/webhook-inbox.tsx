import { createFileRoute } from "@tanstack/react-router";
import { searchSchema } from "@web/lib/search";
import { WebhookInboxPage } from "@web/features/webhook-inbox/components/webhook-inbox-page";

/** `?inbox=`: which of the local receiver's inboxes to show (a plain word, as its URL names it). */
const inboxName = (value: unknown) => (typeof value === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : undefined);

export const Route = createFileRoute("/webhook-inbox")({
  validateSearch: searchSchema({ inbox: inboxName }),
  component: function WebhookInboxRoute() {
    return <WebhookInboxPage inbox={Route.useSearch().inbox ?? "default"} />;
  },
});
