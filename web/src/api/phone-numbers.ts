// The account's numbers and their link to agents, shared by the Agents and Phone numbers screens:
// GET /api/twilio/my-numbers, POST /api/twilio/assign-number and /unassign-number.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AssignNumberBody, AssignNumberResponse, UnassignNumberBody } from "@shared/schemas/phone-numbers";
import { apiJson } from "@web/lib/api";
import { agentKeys } from "./agents";

const MY_NUMBERS_PATH = "/api/twilio/my-numbers";

export const myNumberKeys = { all: [MY_NUMBERS_PATH] as const };

export const getMyNumbers = () => apiJson("GET", MY_NUMBERS_PATH);

export const myNumbersQueryOptions = () => queryOptions({ queryKey: myNumberKeys.all, queryFn: getMyNumbers });

export const useMyNumbers = () => useQuery(myNumbersQueryOptions());

export const assignNumber = (body: AssignNumberBody) => apiJson("POST", "/api/twilio/assign-number", body);

export const unassignNumber = (body: UnassignNumberBody) => apiJson("POST", "/api/twilio/unassign-number", body);

/** Both sides of the link are shown: the number list and every agent list (agents carry their number). */
function useNumberLinkMutation<T>(mutationFn: (body: T) => Promise<AssignNumberResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: myNumberKeys.all }),
        queryClient.invalidateQueries({ queryKey: agentKeys.all }),
      ]),
  });
}

export const useAssignNumber = () => useNumberLinkMutation(assignNumber);
export const useUnassignNumber = () => useNumberLinkMutation(unassignNumber);
