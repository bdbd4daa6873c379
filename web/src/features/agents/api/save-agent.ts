// POST /api/agents (create) and PUT /api/agents/:id (update); both refresh the list and the usage.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Agent, AgentCreateBody, AgentResponse, AgentUpdateBody } from "@shared/schemas/agents";
import { apiJson } from "@web/lib/api";
import { AGENTS_KEY } from "@web/api/agents";
import { MY_NUMBERS_KEY } from "@web/api/phone-numbers";
import { USAGE_STATS_KEY } from "@web/api/usage-stats";

export type AgentFields = Partial<AgentCreateBody> & { name: string };

export async function createAgent(body: AgentFields): Promise<Agent> {
  return (await apiJson<AgentResponse>("POST", "/api/agents", body)).agent;
}

export async function updateAgent(id: number, body: AgentUpdateBody): Promise<Agent> {
  return (await apiJson<AgentResponse>("PUT", `/api/agents/${id}`, body)).agent;
}

export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAgent,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: AGENTS_KEY });
      void queryClient.invalidateQueries({ queryKey: USAGE_STATS_KEY });
    },
  });
}

export function useUpdateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: AgentUpdateBody }) => updateAgent(id, body),
    // 'My numbers' shows each number's agent by name, so a rename must reach that list too.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: AGENTS_KEY }),
        queryClient.invalidateQueries({ queryKey: MY_NUMBERS_KEY }),
      ]),
  });
}
