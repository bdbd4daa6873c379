import { createFileRoute } from "@tanstack/react-router";
import { emailSearchSchema } from "@web/lib/search";
import { PublicLayout } from "@web/components/layout/public-layout";
import { BuyPage } from "@web/features/billing/components/buy-page";

export const Route = createFileRoute("/buy")({
  validateSearch: emailSearchSchema,
  component: function BuyRoute() {
    return (
      <PublicLayout wide>
        <BuyPage email={Route.useSearch().email} />
      </PublicLayout>
    );
  },
});
