// GET /api/agents: the account's agents, oldest first. The cached key includes the user id (spec 2 §7).
import { queryOptions, useQuery, type QueryClient } from "@tanstack/react-query";
import type { Agent, AgentListResponse } from "@shared/schemas/agents";

/** Prefix of every agent-list key, for invalidation after a change. */
export const AGENTS_KEY = ["/api/agents"] as const;

/** Read through the default query function: a GET of the key's first element. */
export const agentsQueryOptions = (userId: string) => queryOptions<AgentListResponse>({ queryKey: [AGENTS_KEY[0], userId] });

export function useAgents(userId: string) {
  return useQuery(agentsQueryOptions(userId));
}

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
