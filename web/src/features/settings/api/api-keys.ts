// GET, POST and DELETE /api/api-keys: Settings → API access (docs/product/api-access.md).
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApiKeyCreateBody } from "@shared/schemas/api-keys";
import { apiJson } from "@web/lib/api";

export const apiKeyKeys = {
  /** The URL first: the key names exactly what its fetcher GETs. */
  list: () => ["/api/api-keys"] as const,
};

export const apiKeysQueryOptions = () => queryOptions({ queryKey: apiKeyKeys.list(), queryFn: () => apiJson("GET", apiKeyKeys.list()[0]) });

export const useApiKeys = () => useQuery(apiKeysQueryOptions());

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiKeyCreateBody) => apiJson("POST", "/api/api-keys", body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list() }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson("DELETE", `/api/api-keys/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list() }),
  });
}
