// The signed-in account's profile writes. The request body stays `updateUserProfileBody` in auth.ts.
import { z } from "zod";

/** POST /api/admin/public/update-user-profile → the profile fields as saved. */
export const updateUserProfileResponse = z.object({
  success: z.boolean(),
  profile: z.object({ username: z.string().nullable(), company: z.string().nullable(), email: z.string() }),
});
export type UpdateUserProfileResponse = z.infer<typeof updateUserProfileResponse>;
