import { createFileRoute } from "@tanstack/react-router";
import { SettingsPage } from "@web/features/settings/components/settings-page";

export const Route = createFileRoute("/_app/settings")({
  component: function SettingsRoute() {
    return <SettingsPage user={Route.useRouteContext().user} />;
  },
});
