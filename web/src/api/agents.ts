// GET /api/agents, shared by the Agents and Phone numbers screens. The cache key carries the user id
// (spec 2 §7) and its first element is the path, so every list of the account's agents is one cache entry.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AgentListResponse } from "@shared/schemas/agents";
import { apiJson } from "@web/lib/api";

/** Prefix of every agent-list key, for invalidation after a change. */
export const AGENTS_KEY = ["/api/agents"] as const;

export const getAgents = () => apiJson<AgentListResponse>("GET", AGENTS_KEY[0]);

export const agentsQueryOptions = (userId: string | undefined) =>
  queryOptions({ queryKey: [AGENTS_KEY[0], userId], queryFn: getAgents, enabled: Boolean(userId) });

export const useAgents = (userId: string | undefined) => useQuery(agentsQueryOptions(userId));
