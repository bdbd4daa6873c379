// POST /api/trigger-call: the agent calls a number now; the call log row exists at once (queued).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { callLogKeys } from "@web/api/call-logs";
import { apiJson } from "@web/lib/api";

export const triggerCall = (body: { phoneNumber: string; agentId?: number }) =>
  apiJson("POST", "/api/trigger-call", body);

export function useTriggerCall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: triggerCall,
    // The new call is in the log now: Call Logs must not show a cached list without it.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: callLogKeys.pages }),
  });
}
