import { createFileRoute } from "@tanstack/react-router";
import { PublicLayout } from "@web/components/layout/public-layout";
import { searchSchema, searchText } from "@web/lib/search";
import { ActivateAccountPage } from "@web/features/billing/components/activate-account-page";

// Only the email travels in the query; the link's token (or a session) is in the fragment, read by the page.
const activationSearch = searchSchema({ email: searchText() });

export const Route = createFileRoute("/activate-account")({
  validateSearch: activationSearch,
  component: function ActivateAccountRoute() {
    return (
      <PublicLayout>
        <ActivateAccountPage search={Route.useSearch()} />
      </PublicLayout>
    );
  },
});
