import { createFileRoute } from "@tanstack/react-router";
import { emailSearchSchema } from "@web/lib/search";
import { MailboxPage } from "@web/features/mailbox/components/mailbox-page";

export const Route = createFileRoute("/mailbox")({
  validateSearch: emailSearchSchema,
  component: function MailboxRoute() {
    return <MailboxPage email={Route.useSearch().email ?? ""} />;
  },
});
