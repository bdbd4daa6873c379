// GET /api/call-logs (first page): where a test call's status is read while it is polled.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { CallLogsResponse } from "@shared/schemas/call-logs";

export const RECENT_CALLS_LIMIT = 20;

export const recentCallsQueryOptions = () => queryOptions<CallLogsResponse>({ queryKey: [`/api/call-logs?limit=${RECENT_CALLS_LIMIT}`] });

export function useRecentCalls(options: { enabled: boolean; refetchInterval: number | false }) {
  return useQuery({ ...recentCallsQueryOptions(), ...options });
}
