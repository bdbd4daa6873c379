// Activation (docs/product/README.md#states-and-flows): fetch the agent, then create (or update) its assistant on the voice
// platform, then refresh the agent list. No prompt is sent: the server writes it from the saved agent
// itself, so it need not travel to the browser and back; the server refuses an incomplete agent.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ActivateAgentResponse, Agent } from "@shared/schemas/agents";
import { agentKeys } from "@web/api/agents";
import { apiJson } from "@web/lib/api";

/** GET /api/agents/:id: the agent as the server has it now. */
export async function getAgent(id: number): Promise<Agent> {
  return (await apiJson("GET", `/api/agents/${id}`)).agent;
}

export type ActivateVariables = {
  id: number;
  /** The agent exactly as the server just answered it (a save's answer): then it is not fetched again. */
  fresh?: Agent;
};

export async function activateAgent({ id, fresh }: ActivateVariables): Promise<ActivateAgentResponse> {
  const agent = fresh ?? (await getAgent(id));
  return apiJson("POST", "/api/create-vapi-assistant", {
    agent_id: agent.id,
    name: agent.name,
    voice_id: agent.voice_id,
  });
}

export function useActivateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: activateAgent,
    // Refreshed whether it worked or not: a failure may still have changed what the server holds.
    onSettled: () => queryClient.invalidateQueries({ queryKey: agentKeys.all }),
  });
}
