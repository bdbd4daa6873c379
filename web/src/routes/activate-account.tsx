import { createFileRoute } from "@tanstack/react-router";
import { PublicLayout } from "@web/components/layout/public-layout";
import { searchSchema, searchText } from "@web/lib/search";
import { ActivateAccountPage } from "@web/features/billing/components/activate-account-page";

const activationSearch = searchSchema({ email: searchText(), access_token: searchText(4000), refresh_token: searchText(400) });

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
