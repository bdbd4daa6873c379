import { createFileRoute } from "@tanstack/react-router";
import { agentsQueryOptions } from "@web/api/agents";
import { AgentsPage } from "@web/features/agents/components/agents-page";

export const Route = createFileRoute("/_app/agent-settings")({
  // The agent list is asked for as soon as the session is known, while the layout and the page
  // render (an agent card is the page's largest paint); the page's query joins that request (decision 006).
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(agentsQueryOptions(context.user.id));
  },
  component: function AgentSettingsRoute() {
    const { user } = Route.useRouteContext();
    return <AgentsPage userId={user.id} email={user.email} />;
  },
});
