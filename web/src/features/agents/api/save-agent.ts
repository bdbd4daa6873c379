// POST /api/agents (create) and PUT /api/agents/:id (update).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Agent, AgentCreateBody, AgentUpdateBody } from "@shared/schemas/agents";
import { apiJson } from "@web/lib/api";
import { agentKeys } from "@web/api/agents";
import { myNumberKeys } from "@web/api/phone-numbers";
import { usageStatsKeys } from "@web/api/usage-stats";

export type AgentFields = Partial<AgentCreateBody> & { name: string };

export async function createAgent(body: AgentFields): Promise<Agent> {
  return (await apiJson("POST", "/api/agents", body)).agent;
}

export async function updateAgent(id: number, body: AgentUpdateBody): Promise<Agent> {
  return (await apiJson("PUT", `/api/agents/${id}`, body)).agent;
}

export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAgent,
    // The answer is the stored agent, which the screen puts into the cached list itself; only the
    // usage figures (agents against the plan's limit) need the server again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usageStatsKeys.all }),
  });
}

export function useUpdateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: AgentUpdateBody }) => updateAgent(id, body),
    // 'My numbers' shows each number's agent by name, so a rename must reach that list too.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: agentKeys.all }),
        queryClient.invalidateQueries({ queryKey: myNumberKeys.all }),
      ]),
  });
}
