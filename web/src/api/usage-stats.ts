// GET /api/usage-stats, shared by every screen that shows usage (Agents, Phone numbers, Call Logs),
// so one refresh updates them all. Stale after 30 s and retried 3 times (docs/product/constants.md#business-constants), unlike other queries.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { USAGE_STATS_RETRIES, USAGE_STATS_STALE_MS } from "@shared/constants";
import { apiJson } from "@web/lib/api";
import { USAGE_STATS_PATH } from "./paths";

export const usageStatsKeys = { all: [USAGE_STATS_PATH] as const };

export const getUsageStats = () => apiJson("GET", USAGE_STATS_PATH);

export const usageStatsQueryOptions = () =>
  queryOptions({ queryKey: usageStatsKeys.all, queryFn: getUsageStats, staleTime: USAGE_STATS_STALE_MS, retry: USAGE_STATS_RETRIES });

export function useUsageStats(options: { refetchInterval?: number | false } = {}) {
  return useQuery({ ...usageStatsQueryOptions(), ...options });
}
