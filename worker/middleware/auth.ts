// Who is calling, known before any handler runs. Every /api request passes `authenticate`: a bearer
// token's signature is checked (no database), then one D1 batch confirms it against the database now
// (services/profiles.ts, confirmSignedIn): the session is live and not signed out (local identity),
// the account is not deleted, and the profile, with its flags, is read. `c.var.user` is that profile,
// whole, or null. The flags and admin right come from the server-side profile (mirrored from
// app_metadata), never from user_metadata or anything the client sends. The guards below refuse on it.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { forbidden, unauthorized } from "../lib/errors";
import { isolateWarmUp } from "../services/warm-up";
import { confirmSignedIn, type CurrentUser } from "../services/profiles";
import { shardBindings } from "../db/shards";

/** The token of an `Authorization: Bearer <token>` header, or "" when there is none. */
export function bearerToken(header: string | undefined) {
  return header?.toLowerCase().startsWith("bearer ") ? header.slice(7).trim() : "";
}

/**
 * A sign-in this Worker invocation has confirmed already, handed to the requests it dispatches to the
 * app itself with the same token (the batch's reads, routes/batch.ts) in their env, as
 * `confirmedSignIn`: they take its user instead of confirming the same token again. Only code can
 * make one; no request and no configured variable can.
 */
export class ConfirmedSignIn {
  constructor(
    readonly token: string,
    readonly user: CurrentUser,
  ) {}
}

/**
 * Resolves the bearer token, if any, to `c.var.user` (null when absent, invalid or no longer
 * standing, with the reason in `c.var.authError`). Public routes work with a stale token; every
 * protected route refuses it through the guards.
 */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header("authorization"));
  c.set("user", null);
  c.set("authError", null);
  if (!token) return next();
  const handed = c.env.confirmedSignIn;
  if (handed instanceof ConfirmedSignIn && handed.token === token) {
    c.set("user", handed.user);
    return next();
  }
  try {
    // A cold isolate reads what it remembers (the roll-ups' coverage) with this batch, and each shard's beside it, so its first count costs no extra trip.
    c.set(
      "user",
      await confirmSignedIn(c.var.db, c.var.providers.identity, token, shardBindings(c.env), (claims) =>
        isolateWarmUp(c.var.db, claims, { names: shardBindings(c.env), of: (name) => c.var.databases.shard(name) }),
      ),
    );
  } catch (e) {
    c.set("authError", e instanceof Error ? e.message : "Invalid access token");
  }
  return next();
});

/**
 * The signed-in user of a route that requires one, refused 401 without; marks the request as a
 * signed-in route's (its answers carry Server-Timing: server-timing.ts).
 */
function signedIn(c: Context<AppEnv>): CurrentUser {
  const user = c.var.user;
  if (!user) throw unauthorized(c.var.authError ?? undefined);
  c.set("signedInRoute", true);
  return user;
}

export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  signedIn(c);
  await next();
});

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (!signedIn(c).isAdmin) throw forbidden("You don't have permission to access the admin dashboard");
  await next();
});

export const requireFlag = (name: "shopwindowsInfo" | "callApp") =>
  createMiddleware<AppEnv>(async (c, next) => {
    const user = signedIn(c);
    if (!user[name] && !user.isAdmin) throw forbidden(`This account does not have access to this section`);
    await next();
  });

/** The signed-in user; only call behind requireUser. */
export function currentUser(c: { get(key: "user"): CurrentUser | null }): CurrentUser {
  const user = c.get("user");
  if (!user) throw unauthorized();
  return user;
}
