// The signed-in account's profile writes. The request body stays `updateUserProfileBody` in auth.ts.
import { z } from "zod";

/**
 * POST /api/admin/public/update-user-profile → the profile fields as saved. A new email is not saved
 * yet: `emailChangeSent` says a confirmation link went to it (answered alike whether or not the
 * address has an account), and `profile.email` stays the current one until the link is followed.
 */
export const updateUserProfileResponse = z.object({
  success: z.boolean(),
  profile: z.object({ username: z.string().nullable(), company: z.string().nullable(), email: z.string() }),
  emailChangeSent: z.boolean(),
});
export type UpdateUserProfileResponse = z.infer<typeof updateUserProfileResponse>;
