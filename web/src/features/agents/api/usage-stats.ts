// GET /api/usage-stats: stale after 30 s and retried 3 times (spec 1 §9), unlike every other query.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { USAGE_STATS_RETRIES, USAGE_STATS_STALE_MS } from "@shared/constants";
import type { UsageStats } from "@shared/schemas/agents";

export const USAGE_STATS_KEY = ["/api/usage-stats"] as const;

export const usageStatsQueryOptions = () =>
  queryOptions<UsageStats>({ queryKey: USAGE_STATS_KEY, staleTime: USAGE_STATS_STALE_MS, retry: USAGE_STATS_RETRIES });

export function useUsageStats(options: { refetchInterval?: number | false } = {}) {
  return useQuery({ ...usageStatsQueryOptions(), ...options });
}
