// Activation (spec 1 §4): fetch the agent, write its prompt, then create (or update) its assistant
// on the voice platform. The server refuses an incomplete agent at either of the last two steps.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ActivateAgentResponse, GeneratePromptResponse } from "@shared/schemas/agents";
import { apiJson } from "@web/lib/api";
import { getAgent } from "./get-agent";
import { AGENTS_KEY } from "@web/api/agents";

export async function activateAgent(id: number): Promise<ActivateAgentResponse> {
  const agent = await getAgent(id);
  const { prompt } = await apiJson<GeneratePromptResponse>("POST", "/api/generate-prompt", {
    name: agent.name,
    business_description: agent.business_description,
    services: agent.services,
    agent_instructions: agent.agent_instructions,
    pricing_information: agent.pricing_information,
    documents: agent.documents,
  });
  return apiJson<ActivateAgentResponse>("POST", "/api/create-vapi-assistant", {
    agent_id: agent.id,
    name: agent.name,
    prompt,
    voice_id: agent.voice_id,
  });
}

export function useActivateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: activateAgent,
    // Refreshed whether it worked or not: a failure may still have changed what the server holds.
    onSettled: () => queryClient.invalidateQueries({ queryKey: AGENTS_KEY }),
  });
}
