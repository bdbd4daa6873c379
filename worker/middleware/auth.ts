// One auth middleware for every /api route. Identity comes from a verified token;
// flags and admin come from the server-side profile (mirrored from app_metadata),
// never from user_metadata or anything the client sends.
import { eq } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import type { Database } from "../db/client";
import { profiles } from "../db/schema";
import type { AppEnv } from "../env";
import { forbidden, unauthorized } from "../lib/errors";
import { log } from "../lib/log";
import type { VerifiedIdentity } from "../providers/identity/port";

export type CurrentUser = {
  id: string;
  email: string;
  username: string | null;
  company: string | null;
  firstName: string | null;
  lastName: string | null;
  isAdmin: boolean;
  shopwindowsInfo: boolean;
  callApp: boolean;
};

const flag = (v: unknown) => v === true || v === "true" || v === 1;

/** Reads the profile, creating or re-mirroring it from the verified identity when needed. */
export async function loadProfile(db: Database, who: VerifiedIdentity): Promise<CurrentUser> {
  const flags = {
    isAdmin: flag(who.appMetadata.is_admin),
    shopwindowsInfo: flag(who.appMetadata.shopwindows_info),
    callApp: flag(who.appMetadata.call_app),
  };
  let row = await db.query.profiles.findFirst({ where: eq(profiles.id, who.id) });
  if (!row) {
    const meta = who.userMetadata;
    const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
    try {
      [row] = await db
        .insert(profiles)
        .values({
          id: who.id,
          email: who.email,
          username: str(meta.username),
          company: str(meta.company),
          firstName: str(meta.first_name),
          lastName: str(meta.last_name),
          ...flags,
        })
        .onConflictDoNothing()
        .returning();
    } catch (e) {
      log(null, "warn", "profile insert failed", { userId: who.id, error: (e as Error).message });
    }
    row ??= await db.query.profiles.findFirst({ where: eq(profiles.id, who.id) });
  } else if (row.isAdmin !== flags.isAdmin || row.shopwindowsInfo !== flags.shopwindowsInfo || row.callApp !== flags.callApp) {
    await db.update(profiles).set({ ...flags, updatedAt: new Date().toISOString() }).where(eq(profiles.id, who.id));
    row = { ...row, ...flags };
  }
  if (!row) throw unauthorized("No profile for this account");
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    company: row.company,
    firstName: row.firstName,
    lastName: row.lastName,
    isAdmin: row.isAdmin,
    shopwindowsInfo: row.shopwindowsInfo,
    callApp: row.callApp,
  };
}

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
      c.set("user", await loadProfile(c.var.db, who));
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
