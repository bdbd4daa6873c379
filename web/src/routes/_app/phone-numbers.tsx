import { createFileRoute } from "@tanstack/react-router";
import { PhoneNumbersPage } from "@web/features/phone-numbers/components/phone-numbers-page";
import { phoneNumbersSearchSchema } from "@web/features/phone-numbers/phone-numbers-search";

export const Route = createFileRoute("/_app/phone-numbers")({
  validateSearch: phoneNumbersSearchSchema,
  component: function PhoneNumbersRoute() {
    const { tab } = Route.useSearch();
    const navigate = Route.useNavigate();
    const { user } = Route.useRouteContext();
    return <PhoneNumbersPage userId={user.id} email={user.email} tab={tab} onTabChange={(next) => void navigate({ search: { tab: next }, replace: true })} />;
  },
});
