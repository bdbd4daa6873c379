// The signed-in account's own profile (docs/product/README.md#records, docs/product/api.md#api): read at /api/profile, written at
// /api/admin/public/update-user-profile (the spec's path, although it needs sign-in).
import type { UpdateUserProfileResponse } from "@shared/schemas/profile";
import { clientAddress, enforce, PUBLIC_ACCOUNT_LIMITS, type Limit } from "../db/rate-limit";
import { bearerToken, currentUser } from "../middleware/auth";
import { asksEmailChange, toCurrentUserView, updateOwnProfile } from "../services/profiles";
import { DeclaredRoutes } from "./serve";

/** Email-change requests per account (each mails two addresses). */
export const EMAIL_CHANGE_LIMIT: Limit = { name: "email-change:user", limit: 5, windowSeconds: 3600 };

/** /api/profile */
export const profileRoutes = new DeclaredRoutes().serve("GET /api/profile", (c) => c.json(toCurrentUserView(currentUser(c))));

/** /api/admin/public/update-user-profile */
export const profileUpdateRoutes = new DeclaredRoutes().serve("POST /api/admin/public/update-user-profile", async (c) => {
  const deps = { db: c.var.db, identity: c.var.providers.identity };
  const user = currentUser(c);
  const input = c.req.valid("json");
  if (asksEmailChange(user, input)) {
    await enforce(c, [
      [EMAIL_CHANGE_LIMIT, user.id],
      [PUBLIC_ACCOUNT_LIMITS.perAddress, clientAddress(c)],
    ]);
  }
  const session = { accessToken: bearerToken(c.req.header("authorization")), origin: new URL(c.req.url).origin };
  const result = await updateOwnProfile(deps, user, input, session);
  const body: UpdateUserProfileResponse = { success: true, ...result };
  return c.json(body);
});
