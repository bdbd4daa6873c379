// Cache helpers for the Agents screen on top of the shared agent list query (web/src/api/agents.ts).
import type { QueryClient } from "@tanstack/react-query";
import type { Agent } from "@shared/schemas/agents";
import { agentsQueryOptions } from "@web/api/agents";

/** Puts a saved agent into the cached list at once, so the screen never shows it missing. */
export function upsertCachedAgent(queryClient: QueryClient, userId: string, agent: Agent) {
  queryClient.setQueryData(agentsQueryOptions(userId).queryKey, (old) => {
    if (!old) return { agents: [agent] };
    const found = old.agents.some((a) => a.id === agent.id);
    return { agents: found ? old.agents.map((a) => (a.id === agent.id ? agent : a)) : [...old.agents, agent] };
  });
}

export function removeCachedAgent(queryClient: QueryClient, userId: string, id: number) {
  queryClient.setQueryData(agentsQueryOptions(userId).queryKey, (old) => old && { agents: old.agents.filter((a) => a.id !== id) });
}
