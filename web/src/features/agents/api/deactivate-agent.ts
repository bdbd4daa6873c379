// PATCH /api/agents/:id/deactivate: the server deletes the assistant and marks the agent in one call.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@web/lib/api";
import { agentKeys } from "@web/api/agents";

export async function deactivateAgent(id: number) {
  return (await apiJson("PATCH", `/api/agents/${id}/deactivate`)).agent;
}

export function useDeactivateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deactivateAgent,
    onSettled: () => queryClient.invalidateQueries({ queryKey: agentKeys.all }),
  });
}
