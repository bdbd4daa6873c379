// Query cache defaults of spec 1 §9: data never stale, no refetch on focus, no polling, no retries.
import { QueryClient } from "@tanstack/react-query";
import { defaultQueryFn } from "./api";

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: defaultQueryFn,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}
