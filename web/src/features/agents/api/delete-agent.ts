// DELETE /api/agents/:id: its assistant is deleted and its number freed with it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@web/lib/api";
import { agentKeys } from "@web/api/agents";
import { myNumberKeys } from "@web/api/phone-numbers";
import { usageStatsKeys } from "@web/api/usage-stats";

export async function deleteAgent(id: number): Promise<void> {
  await apiJson("DELETE", `/api/agents/${id}`);
}

export function useDeleteAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAgent,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: agentKeys.all });
      void queryClient.invalidateQueries({ queryKey: myNumberKeys.all });
      void queryClient.invalidateQueries({ queryKey: usageStatsKeys.all });
    },
  });
}
