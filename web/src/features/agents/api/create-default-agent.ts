// POST /api/create-default-agent: a complete receptionist for the account, from the empty state.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Agent } from "@shared/schemas/agents";
import { apiJson } from "@web/lib/api";
import { agentKeys } from "@web/api/agents";
import { usageStatsKeys } from "@web/api/usage-stats";

export async function createDefaultAgent(): Promise<Agent> {
  return (await apiJson("POST", "/api/create-default-agent")).agent;
}

export function useCreateDefaultAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDefaultAgent,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: agentKeys.all });
      void queryClient.invalidateQueries({ queryKey: usageStatsKeys.all });
    },
  });
}
