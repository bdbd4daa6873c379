// The Admin Dashboard's calls (docs/product/api.md#admin Admin): every query's key starts with the URL its fetcher GETs.
// Stats and users ask v2 first and fall back to v1 when v2 fails.
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminFlagsBody, AssignPhoneNumberBody } from "@shared/schemas/admin";
import type { ApiAnswer, ApiUrl } from "@shared/schemas/answers";
import { apiJson } from "@web/lib/api";

export const ADMIN_PATHS = {
  stats: "/api/admin/stats/v2",
  statsV1: "/api/admin/stats",
  users: "/api/admin/users/v2",
  usersV1: "/api/admin/users",
  numbers: "/api/admin/vapi/available-numbers",
  phoneLimit: "/api/admin/config/phone-limit",
  auditLog: "/api/admin/audit-log",
} as const;

/** docs/product/constants.md#business-constants: admin stats are cached for 60 s. */
export const ADMIN_STATS_STALE_MS = 60_000;
export const ADMIN_USERS_PER_PAGE = 25;
export const AUDIT_PER_PAGE = 20;

export const adminKeys = {
  stats: [ADMIN_PATHS.stats] as const,
  users: (search: string) => [ADMIN_PATHS.users, search] as const,
  allUsers: [ADMIN_PATHS.users] as const,
  numbers: [ADMIN_PATHS.numbers] as const,
  phoneLimit: [ADMIN_PATHS.phoneLimit] as const,
  auditLog: [ADMIN_PATHS.auditLog] as const,
};

/** v2, else v1 (docs/product/api.md#api). */
async function withFallback<V2 extends ApiUrl<"GET">, V1 extends ApiUrl<"GET">>(v2: V2, v1: V1): Promise<ApiAnswer<"GET", V2 | V1>> {
  try {
    return await apiJson("GET", v2);
  } catch {
    return apiJson("GET", v1);
  }
}

export const getAdminStats = () => withFallback(ADMIN_PATHS.stats, ADMIN_PATHS.statsV1);

export const adminStatsQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.stats, queryFn: getAdminStats, staleTime: ADMIN_STATS_STALE_MS });

export const useAdminStats = () => useQuery(adminStatsQueryOptions());

export function usersPageQuery(search: string, cursor: string | null): `?${string}` {
  const params = new URLSearchParams({ limit: String(ADMIN_USERS_PER_PAGE) });
  if (search.trim()) params.set("search", search.trim());
  if (cursor) params.set("cursor", cursor);
  return `?${params.toString()}`;
}

export const adminUsersQueryOptions = (search: string) =>
  infiniteQueryOptions({
    queryKey: adminKeys.users(search),
    queryFn: ({ pageParam }) => {
      const q = usersPageQuery(search, pageParam);
      return withFallback(`${ADMIN_PATHS.users}${q}`, `${ADMIN_PATHS.usersV1}${q}`);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export const useAdminUsers = (search: string) => useInfiniteQuery(adminUsersQueryOptions(search));

export const getPlatformNumbers = () => apiJson("GET", ADMIN_PATHS.numbers);
export const platformNumbersQueryOptions = () => queryOptions({ queryKey: adminKeys.numbers, queryFn: getPlatformNumbers });
export const usePlatformNumbers = () => useQuery(platformNumbersQueryOptions());

export const getAdminPhoneLimit = () => apiJson("GET", ADMIN_PATHS.phoneLimit);
export const adminPhoneLimitQueryOptions = () => queryOptions({ queryKey: adminKeys.phoneLimit, queryFn: getAdminPhoneLimit });
export const useAdminPhoneLimit = () => useQuery(adminPhoneLimitQueryOptions());

export const auditLogQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: adminKeys.auditLog,
    queryFn: ({ pageParam }) =>
      apiJson("GET", `${ADMIN_PATHS.auditLog}?limit=${AUDIT_PER_PAGE}${pageParam ? `&before=${pageParam}` : ""}`),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextCursor,
  });
export const useAuditLog = () => useInfiniteQuery(auditLogQueryOptions());

/** Every admin query: Refresh Data reloads them all. */
export function useRefreshAdminData() {
  const queryClient = useQueryClient();
  return () => Promise.all(Object.values(ADMIN_PATHS).map((path) => queryClient.invalidateQueries({ queryKey: [path] })));
}

/** After a change: the figures it touched, and the audit log that records it. */
function useAdminMutation<TBody, TResult>(mutationFn: (body: TBody) => Promise<TResult>, touched: readonly (readonly unknown[])[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all([...touched, adminKeys.auditLog].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}

export const useSetPhoneLimit = () =>
  useAdminMutation((phoneNumberLimit: number) => apiJson("PUT", ADMIN_PATHS.phoneLimit, { phoneNumberLimit }), [adminKeys.phoneLimit]);

export const useSetUserFlags = () =>
  useAdminMutation(
    ({ id, flags }: { id: string; flags: AdminFlagsBody }) =>
      apiJson("PUT", `/api/admin/users/${encodeURIComponent(id)}/flags`, flags),
    [adminKeys.allUsers],
  );

export const useAssignPhoneNumber = () =>
  useAdminMutation(
    (body: AssignPhoneNumberBody) => apiJson("POST", "/api/admin/assign-phone-number", body),
    [adminKeys.numbers],
  );

export const useCleanupUser = () =>
  useAdminMutation(
    (email: string) => apiJson("POST", "/api/admin/cleanup-user", { email }),
    [adminKeys.allUsers, adminKeys.numbers, adminKeys.stats],
  );
