import { createFileRoute } from "@tanstack/react-router";
import { AgentsPage } from "@web/features/agents/components/agents-page";

export const Route = createFileRoute("/_app/agent-settings")({
  component: function AgentSettingsRoute() {
    return <AgentsPage userId={Route.useRouteContext().user.id} />;
  },
});
