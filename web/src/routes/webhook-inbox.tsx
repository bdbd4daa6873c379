import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod";
import { WebhookInboxPage } from "@web/features/webhook-inbox/components/webhook-inbox-page";

export const Route = createFileRoute("/webhook-inbox")({
  validateSearch: z.object({ inbox: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional().catch(undefined) }),
  component: function WebhookInboxRoute() {
    return <WebhookInboxPage inbox={Route.useSearch().inbox ?? "default"} />;
  },
});
