// GET and PUT /api/report-mail: the "daily report by email" switch of /settings (decision 060).
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@web/lib/api";

export const reportMailKeys = {
  /** The URL first: the key names exactly what its fetcher GETs. */
  setting: () => ["/api/report-mail"] as const,
};

export const reportMailQueryOptions = () =>
  queryOptions({ queryKey: reportMailKeys.setting(), queryFn: () => apiJson("GET", reportMailKeys.setting()[0]) });

export const useReportMail = () => useQuery(reportMailQueryOptions());

export function useSetReportMail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subscribed: boolean) => apiJson("PUT", "/api/report-mail", { subscribed }),
    onSuccess: (setting) => queryClient.setQueryData(reportMailKeys.setting(), setting),
  });
}
