// DELETE /api/agents/:id: its assistant is deleted and its number freed with it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@web/lib/api";
import { AGENTS_KEY } from "@web/api/agents";
import { MY_NUMBERS_KEY } from "@web/api/phone-numbers";
import { USAGE_STATS_KEY } from "@web/api/usage-stats";

export async function deleteAgent(id: number): Promise<void> {
  await apiJson<{ success: true }>("DELETE", `/api/agents/${id}`);
}

export function useDeleteAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAgent,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: AGENTS_KEY });
      void queryClient.invalidateQueries({ queryKey: MY_NUMBERS_KEY });
      void queryClient.invalidateQueries({ queryKey: USAGE_STATS_KEY });
    },
  });
}
