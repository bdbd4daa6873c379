// POST /api/admin/public/update-user-profile, then refresh the cached current user.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { UpdateUserProfileBody } from "@shared/schemas/auth";
import { apiJson } from "@web/lib/api";
import { currentUserKeys } from "@web/lib/auth/profile-key";

export const updateProfile = (body: UpdateUserProfileBody) =>
  apiJson("POST", "/api/admin/public/update-user-profile", body);

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserKeys.all }),
  });
}
