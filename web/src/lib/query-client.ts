// Query cache defaults of docs/product/constants.md#business-constants: data never stale, no refetch on focus, no polling, no retries.
// No default query function: every query names its fetcher (web/src/api/, features/*/api/,
// docs/decisions/006).
import { QueryClient } from "@tanstack/react-query";

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
