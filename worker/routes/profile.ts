// The signed-in user's own view (spec 1 §3): flags from server-side state.
import { Hono } from "hono";
import type { CurrentUserView } from "@shared/schemas/auth";
import type { AppEnv } from "../env";
import { currentUser, requireUser } from "../middleware/auth";

export const profileRoutes = new Hono<AppEnv>().get("/", requireUser, (c) => {
  const u = currentUser(c);
  const view: CurrentUserView = {
    id: u.id,
    email: u.email,
    username: u.username,
    company: u.company,
    first_name: u.firstName,
    last_name: u.lastName,
    is_admin: u.isAdmin,
    shopwindows_info: u.shopwindowsInfo,
    call_app: u.callApp,
  };
  return c.json(view);
});
