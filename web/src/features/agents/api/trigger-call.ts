// POST /api/trigger-call: the agent calls a number now; the call log row exists at once (queued).
import { useMutation } from "@tanstack/react-query";
import type { TriggerCallResponse } from "@shared/schemas/agents";
import { apiJson } from "@web/lib/api";

export const triggerCall = (body: { phoneNumber: string; agentId?: number }) =>
  apiJson<TriggerCallResponse>("POST", "/api/trigger-call", body);

export function useTriggerCall() {
  return useMutation({ mutationFn: triggerCall });
}
