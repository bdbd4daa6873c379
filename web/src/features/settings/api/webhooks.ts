// Settings → Webhooks (docs/product/webhooks.md): the account's endpoints, their operations and their
// delivery logs, through /api/webhook-endpoints.
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { WebhookDeliveryListResponse, WebhookEndpointCreateBody, WebhookEndpointUpdateBody } from "@shared/schemas/webhooks";
import { apiJson } from "@web/lib/api";

export const webhookKeys = {
  /** The URL first: the key names exactly what its fetcher GETs. */
  list: () => ["/api/webhook-endpoints"] as const,
  deliveries: (id: string) => [`/api/webhook-endpoints/${id}/deliveries`] as const,
};

export const webhookEndpointsQueryOptions = () => queryOptions({ queryKey: webhookKeys.list(), queryFn: () => apiJson("GET", webhookKeys.list()[0]) });
export const useWebhookEndpoints = () => useQuery(webhookEndpointsQueryOptions());

export const useWebhookDeliveries = (id: string) =>
  useQuery({
    queryKey: webhookKeys.deliveries(id),
    // The URL's pattern also matches GET /api/webhook-endpoints/:endpointId, so the answer is named here.
    queryFn: () => apiJson("GET", webhookKeys.deliveries(id)[0]) as Promise<unknown> as Promise<WebhookDeliveryListResponse>,
    refetchInterval: 5000,
  });

export function useCreateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookEndpointCreateBody) => apiJson("POST", "/api/webhook-endpoints", body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list() }),
  });
}

export function useUpdateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: WebhookEndpointUpdateBody }) => apiJson("PATCH", `/api/webhook-endpoints/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list() }),
  });
}

export function useDeleteWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson("DELETE", `/api/webhook-endpoints/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list() }),
  });
}

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson("POST", `/api/webhook-endpoints/${id}/rotate-secret`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.list() }),
  });
}

export function useSendTestEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson("POST", `/api/webhook-endpoints/${id}/test`),
    onSuccess: (_, id) => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(id) }),
  });
}

export function useResendDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) =>
      apiJson("POST", `/api/webhook-endpoints/${endpointId}/deliveries/${deliveryId}/resend`),
    onSuccess: (_, { endpointId }) => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(endpointId) }),
  });
}
