// POST /api/twilio/assign-number and /unassign-number: link a number to an agent, or clear the link.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AssignNumberBody, AssignNumberResponse, UnassignNumberBody } from "@shared/schemas/phone-numbers";
import { apiJson } from "@web/lib/api";
import { AGENTS_KEY } from "./get-agents";
import { MY_NUMBERS_KEY } from "./get-my-numbers";

export const assignNumber = (body: AssignNumberBody) => apiJson<AssignNumberResponse>("POST", "/api/twilio/assign-number", body);

export const unassignNumber = (body: UnassignNumberBody) => apiJson<AssignNumberResponse>("POST", "/api/twilio/unassign-number", body);

/** Both sides of the link are shown: the number list and every agent list (agents carry their number). */
function useRefreshLinks() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: MY_NUMBERS_KEY }),
      queryClient.invalidateQueries({ queryKey: AGENTS_KEY }),
    ]);
}

export function useAssignNumber() {
  const refresh = useRefreshLinks();
  return useMutation({ mutationFn: assignNumber, onSuccess: refresh });
}

export function useUnassignNumber() {
  const refresh = useRefreshLinks();
  return useMutation({ mutationFn: unassignNumber, onSuccess: refresh });
}
