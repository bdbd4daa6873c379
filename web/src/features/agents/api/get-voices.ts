// GET /api/vapi/voices: the voices an agent can speak with.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { VoicesResponse } from "@shared/schemas/call-logs";

export const voicesQueryOptions = () => queryOptions<VoicesResponse>({ queryKey: ["/api/vapi/voices"] });

export function useVoices() {
  return useQuery(voicesQueryOptions());
}
