// POST /api/admin/public/update-user-profile, then refresh the cached current user.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { UpdateUserProfileBody } from "@shared/schemas/auth";
import { apiJson } from "@web/lib/api";
import { CURRENT_USER_KEY } from "@web/features/auth/api/current-user";

export type UpdateProfileAnswer = { success: boolean; profile: { username: string | null; company: string | null; email: string } };

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateUserProfileBody) =>
      apiJson<UpdateProfileAnswer>("POST", "/api/admin/public/update-user-profile", body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY }),
  });
}
