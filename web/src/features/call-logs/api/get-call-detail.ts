// GET /api/vapi/call/{call_id}: the voice platform's record of one call, with its transcript.
// Ids starting with 'call_' are not the platform's (docs/product/api.md#api): those are never asked for.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "@web/lib/api";

export const hasPlatformDetail = (callId: string) => !callId.startsWith("call_");

export const callDetailKeys = { detail: (callId: string) => [`/api/vapi/call/${encodeURIComponent(callId)}`] as const };

export const getCallDetail = (callId: string) => apiJson("GET", callDetailKeys.detail(callId)[0]);

export const callDetailQueryOptions = (callId: string) =>
  queryOptions({
    queryKey: callDetailKeys.detail(callId),
    queryFn: () => getCallDetail(callId),
    enabled: hasPlatformDetail(callId),
    // A call still in progress gains its transcript later: ask again on every opening.
    staleTime: 0,
  });

export const useCallDetail = (callId: string) => useQuery(callDetailQueryOptions(callId));
