// The signed-in account's own profile (spec 1 §3, spec 2 §7): read at /api/profile, written at
// /api/admin/public/update-user-profile (the spec's path, although it needs sign-in).
import { Hono } from "hono";
import { updateUserProfileBody } from "@shared/schemas/auth";
import type { UpdateUserProfileResponse } from "@shared/schemas/profile";
import type { AppEnv } from "../env";
import { validate } from "../lib/validate";
import { currentUser, requireUser } from "../middleware/auth";
import { toCurrentUserView, updateOwnProfile } from "../services/profiles";

/** /api/profile */
export const profileRoutes = new Hono<AppEnv>().get("/", requireUser, (c) => c.json(toCurrentUserView(currentUser(c))));

/** /api/admin/public/update-user-profile */
export const profileUpdateRoutes = new Hono<AppEnv>().post("/update-user-profile", requireUser, validate("json", updateUserProfileBody), async (c) => {
  const deps = { db: c.var.db, identity: c.var.providers.identity };
  const profile = await updateOwnProfile(deps, currentUser(c), c.req.valid("json"));
  const body: UpdateUserProfileResponse = { success: true, profile };
  return c.json(body);
});
