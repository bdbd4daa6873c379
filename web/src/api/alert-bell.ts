// GET /api/alerts/bell and POST /api/alerts/bell/read: the header's bell (decision 071), shared by
// the layout and the Alerts page, so reading it in one place updates the other.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@web/lib/api";
import { ALERT_BELL_PATH } from "./paths";

/** The bell asks again this often, so an alert shows within a minute without a reload. */
export const ALERT_BELL_REFRESH_MS = 30_000;

export const alertBellKeys = { all: [ALERT_BELL_PATH] as const };

export const alertBellQueryOptions = () => queryOptions({ queryKey: alertBellKeys.all, queryFn: () => apiJson("GET", alertBellKeys.all[0]) });

export const useAlertBell = () => useQuery({ ...alertBellQueryOptions(), refetchInterval: ALERT_BELL_REFRESH_MS });

export function useReadAlertBell() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson("POST", "/api/alerts/bell/read", {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertBellKeys.all }),
  });
}
