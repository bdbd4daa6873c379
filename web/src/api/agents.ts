// GET /api/agents, shared by the Agents and Phone numbers screens. The cache key carries the user id
// (docs/product/api.md#api) after the path, so every list of the account's agents is one cache entry.
import { queryOptions, useQuery, type QueryClient } from "@tanstack/react-query";
import type { Agent, AgentListResponse } from "@shared/schemas/agents";
import { apiJson } from "@web/lib/api";
import { AGENTS_PATH } from "./paths";

export const agentKeys = {
  /** Every agent list, for invalidation after a change. */
  all: [AGENTS_PATH] as const,
  list: (userId: string) => [AGENTS_PATH, userId] as const,
};

export const getAgents = () => apiJson("GET", AGENTS_PATH);

export const agentsQueryOptions = (userId: string) => queryOptions({ queryKey: agentKeys.list(userId), queryFn: getAgents });

export const useAgents = (userId: string) => useQuery(agentsQueryOptions(userId));

/** Puts a saved agent into the cached list at once, so a screen never shows it missing. */
export function upsertCachedAgent(queryClient: QueryClient, userId: string, agent: Agent) {
  queryClient.setQueryData(agentKeys.list(userId), (old: AgentListResponse | undefined) => {
    if (!old) return { agents: [agent] };
    const found = old.agents.some((a) => a.id === agent.id);
    return { agents: found ? old.agents.map((a) => (a.id === agent.id ? agent : a)) : [...old.agents, agent] };
  });
}

export function removeCachedAgent(queryClient: QueryClient, userId: string, id: number) {
  queryClient.setQueryData(agentKeys.list(userId), (old: AgentListResponse | undefined) => old && { agents: old.agents.filter((a) => a.id !== id) });
}
