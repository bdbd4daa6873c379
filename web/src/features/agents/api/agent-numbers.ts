// The account's numbers as the Agents screen needs them: which are free, and assigning one to an
// agent or taking it back (GET /api/twilio/my-numbers, POST assign-number / unassign-number).
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AssignNumberBody, AssignNumberResponse, MyNumbersResponse, UnassignNumberBody } from "@shared/schemas/phone-numbers";
import { apiJson } from "@web/lib/api";
import { AGENTS_KEY } from "./get-agents";

export const MY_NUMBERS_KEY = ["/api/twilio/my-numbers"] as const;

export const myNumbersQueryOptions = () => queryOptions<MyNumbersResponse>({ queryKey: MY_NUMBERS_KEY });

export function useMyNumbers() {
  return useQuery(myNumbersQueryOptions());
}

export const assignNumber = (body: AssignNumberBody) => apiJson<AssignNumberResponse>("POST", "/api/twilio/assign-number", body);
export const unassignNumber = (body: UnassignNumberBody) => apiJson<AssignNumberResponse>("POST", "/api/twilio/unassign-number", body);

function useNumberMutation<T>(fn: (body: T) => Promise<AssignNumberResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: MY_NUMBERS_KEY });
      void queryClient.invalidateQueries({ queryKey: AGENTS_KEY });
    },
  });
}

export const useAssignNumber = () => useNumberMutation(assignNumber);
export const useUnassignNumber = () => useNumberMutation(unassignNumber);
