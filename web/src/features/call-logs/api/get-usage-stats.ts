// GET /api/usage-stats: this month's calls and minutes. The key is shared with every screen that
// shows usage, so 'Refresh Logs' refreshes them all (spec 2 §7).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { USAGE_STATS_RETRIES, USAGE_STATS_STALE_MS } from "@shared/constants";
import type { UsageStats } from "@shared/schemas/agents";
import { apiJson } from "@web/lib/api";

export const USAGE_STATS_KEY = ["/api/usage-stats"] as const;

export const getUsageStats = () => apiJson<UsageStats>("GET", USAGE_STATS_KEY[0]);

export const usageStatsQueryOptions = () =>
  queryOptions({ queryKey: USAGE_STATS_KEY, queryFn: getUsageStats, staleTime: USAGE_STATS_STALE_MS, retry: USAGE_STATS_RETRIES });

export const useUsageStats = () => useQuery(usageStatsQueryOptions());
