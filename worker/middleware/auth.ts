// One auth middleware for every /api route. Identity comes from a verified token;
// flags and admin come from the server-side profile (mirrored from app_metadata),
// never from user_metadata or anything the client sends.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env";
import { forbidden, unauthorized } from "../lib/errors";
import { loadProfile, type CurrentUser } from "../services/profiles";

/** The token of an `Authorization: Bearer <token>` header, or "" when there is none. */
export function bearerToken(header: string | undefined) {
  return header?.toLowerCase().startsWith("bearer ") ? header.slice(7).trim() : "";
}

/**
 * Resolves the bearer token, if any, to `c.var.user` (null when absent or invalid).
 * Public routes work with a stale token; every protected route refuses it through requireUser.
 */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header("authorization"));
  c.set("user", null);
  c.set("authError", null);
  if (token) {
    try {
      const who = await c.var.providers.identity.verifyAccessToken(token);
      c.set("user", await loadProfile(c.var.db, c.var.providers.identity, who));
    } catch (e) {
      c.set("authError", e instanceof Error ? e.message : "Invalid access token");
    }
  }
  await next();
});

export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.user) throw unauthorized(c.var.authError ?? undefined);
  await next();
});

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.user) throw unauthorized(c.var.authError ?? undefined);
  if (!c.var.user.isAdmin) throw forbidden("You don't have permission to access the admin dashboard");
  await next();
});

export const requireFlag = (name: "shopwindowsInfo" | "callApp") =>
  createMiddleware<AppEnv>(async (c, next) => {
    const user = c.var.user;
    if (!user) throw unauthorized(c.var.authError ?? undefined);
    if (!user[name] && !user.isAdmin) throw forbidden(`This account does not have access to this section`);
    await next();
  });

/** The signed-in user; only call behind requireUser. */
export function currentUser(c: { get(key: "user"): CurrentUser | null }): CurrentUser {
  const user = c.get("user");
  if (!user) throw unauthorized();
  return user;
}
