// GET /api/vapi/voices: the voices an agent can speak with.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "@web/lib/api";

const VOICES_PATH = "/api/vapi/voices";

export const voiceKeys = { all: [VOICES_PATH] as const };

export const getVoices = () => apiJson("GET", VOICES_PATH);

export const voicesQueryOptions = () => queryOptions({ queryKey: voiceKeys.all, queryFn: getVoices });

export function useVoices() {
  return useQuery(voicesQueryOptions());
}
