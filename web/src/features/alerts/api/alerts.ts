// The Alerts page's server calls (decision 071): rules, Test, history and acknowledgement.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AlertRuleInput } from "@shared/schemas/alerts";
import { apiJson } from "@web/lib/api";

export const alertKeys = {
  rules: () => ["/api/alerts/rules"] as const,
  history: () => ["/api/alerts/history"] as const,
};

export const alertRulesQueryOptions = () => queryOptions({ queryKey: alertKeys.rules(), queryFn: () => apiJson("GET", alertKeys.rules()[0]) });
export const alertHistoryQueryOptions = () =>
  queryOptions({ queryKey: alertKeys.history(), queryFn: () => apiJson("GET", alertKeys.history()[0]), refetchInterval: 30_000 });

export const useAlertRules = () => useQuery(alertRulesQueryOptions());
export const useAlertHistory = () => useQuery(alertHistoryQueryOptions());

export function useSaveAlertRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, rule }: { id: number | null; rule: AlertRuleInput }) =>
      id === null ? apiJson("POST", "/api/alerts/rules", rule) : apiJson("PUT", `/api/alerts/rules/${id}`, rule),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.rules() }),
  });
}

export function useDeleteAlertRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiJson("DELETE", `/api/alerts/rules/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.rules() }),
  });
}

export const useTestAlertRule = () => useMutation({ mutationFn: (rule: AlertRuleInput) => apiJson("POST", "/api/alerts/test", rule) });

export function useAcknowledgeAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiJson("POST", `/api/alerts/history/${id}/acknowledge`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.history() }),
  });
}

/** The rule form's "Resend confirmation" for one extra address; the rules' list (with the states) is read again. */
export function useResendConfirmation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => apiJson("POST", "/api/alerts/recipients/resend", { email }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.rules() }),
  });
}
