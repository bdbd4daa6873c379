// POST /api/trigger-call: the agent calls a number now; the call log row exists at once (queued).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TriggerCallResponse } from "@shared/schemas/agents";
import { apiJson } from "@web/lib/api";

/** Prefix of the Call Logs screen's cached pages (the path is the first element of every call-log key). */
const CALL_LOG_PAGES_PREFIX = ["/api/call-logs"] as const;

export const triggerCall = (body: { phoneNumber: string; agentId?: number }) =>
  apiJson<TriggerCallResponse>("POST", "/api/trigger-call", body);

export function useTriggerCall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: triggerCall,
    // The new call is in the log now: Call Logs must not show a cached list without it.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: CALL_LOG_PAGES_PREFIX }),
  });
}
