// One auth middleware for every /api route. Identity comes from a verified token;
// flags and admin come from the server-side profile (mirrored from app_metadata),
// never from user_metadata or anything the client sends.
//
// A request that only reads (GET, HEAD) is answered on what its token claims, confirmed in the same
// D1 round trip as its handler's first query: the confirmation is the D1 timer's gate, so no read
// resolves before it passes and nothing is written before it (docs/decisions/051-identity-confirmed-
// in-the-first-round-trip.md). When the confirmation contradicts the claims, that answer is dropped
// and the request is dispatched again with the identity confirmed first, which is what every other
// request does.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env";
import { createDb, d1Of } from "../db/client";
import type { D1Timer } from "../db/timed-d1";
import { ApiError, forbidden, unauthorized } from "../lib/errors";
import type { TokenClaims } from "../providers/identity/port";
import { claimedFlags, confirmSignedIn, identityCheck, userAsClaimed, type CurrentUser } from "../services/profiles";

/** The token of an `Authorization: Bearer <token>` header, or "" when there is none. */
export function bearerToken(header: string | undefined) {
  return header?.toLowerCase().startsWith("bearer ") ? header.slice(7).trim() : "";
}

/** Requests whose dispatcher (confirmingIdentity) answers them again when their claims prove stale. */
const redispatchable = new WeakSet<Request>();
/** A dispatch whose claims the confirmation contradicted, with its D1 timer. */
const contradicted = new WeakMap<Request, D1Timer>();
/** A dispatch made again after a contradicted one: identity confirmed first, the earlier D1 figures counted in. */
const dispatchedAgain = new WeakMap<Request, D1Timer>();
/** The user the confirmation found, for a request answered on its claims. */
const confirmations = new WeakMap<Request, { user?: CurrentUser }>();

/** What a handler's queries reject with when the confirmation did not bear out the claims (that answer is dropped). */
const notConfirmed = () => new ApiError(401, "The sign-in could not be confirmed", "unauthorized");

const message = (e: unknown) => (e instanceof Error ? e.message : "Invalid access token");

/**
 * Wraps the app's fetch: a request whose answer rested on claims the confirmation contradicted is
 * dispatched once more (a GET or HEAD, so without a body), with its identity confirmed first.
 */
export function confirmingIdentity<F extends (request: Request, ...rest: never[]) => Response | Promise<Response>>(fetch: F): F {
  return (async (request: Request, ...rest: never[]) => {
    redispatchable.add(request);
    const answer = await fetch(request, ...rest);
    const earlier = contradicted.get(request);
    if (!earlier) return answer;
    await answer.body?.cancel().catch(() => undefined);
    const again = new Request(request);
    dispatchedAgain.set(again, earlier);
    return fetch(again, ...rest);
  }) as F;
}

/**
 * The error an answer is made from: once the confirmation has contradicted the claims, whatever the
 * handler failed with is only that (the answer is dropped and the request dispatched again), so it
 * is neither logged as a failure nor answered as one.
 */
export const errorOfAnswer = (c: Context<AppEnv>, err: Error): Error => (c.var.dbTimer?.gateFailed ? notConfirmed() : err);

/**
 * The user a token claims to be: its id, email and flags. The names are the profile's, known once the
 * confirmation has passed (confirmedUser); read before, they throw rather than answer null.
 */
function claimedUser(claims: TokenClaims, confirmed: { user?: CurrentUser }): CurrentUser {
  const name = (key: "username" | "company" | "firstName" | "lastName"): PropertyDescriptor => ({
    enumerable: true,
    get() {
      if (!confirmed.user) throw new Error(`${key} is known once the sign-in is confirmed: read it through confirmedUser(c)`);
      return confirmed.user[key];
    },
  });
  const user = { id: claims.id, email: claims.email.toLowerCase(), ...claimedFlags(claims) };
  return Object.defineProperties(user, {
    username: name("username"),
    company: name("company"),
    firstName: name("firstName"),
    lastName: name("lastName"),
  }) as CurrentUser;
}

/**
 * Resolves the bearer token, if any, to `c.var.user` (null when absent or invalid).
 * Public routes work with a stale token; every protected route refuses it through requireUser.
 */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header("authorization"));
  c.set("user", null);
  c.set("authError", null);
  if (!token) return next();
  const request = c.req.raw;
  const earlier = dispatchedAgain.get(request);
  if (earlier) c.var.dbTimer.include(earlier);
  const identity = c.var.providers.identity;
  let claims: TokenClaims;
  try {
    claims = await identity.readClaims(token);
  } catch (e) {
    c.set("authError", message(e));
    return next();
  }
  const onlyReads = c.req.method === "GET" || c.req.method === "HEAD";
  if (!onlyReads || earlier || !redispatchable.has(request) || !claims.email) {
    // Identity and profile in one round trip before the handler (more only to create or re-mirror the profile).
    try {
      c.set("user", await confirmSignedIn(c.var.db, identity, claims));
    } catch (e) {
      c.set("authError", message(e));
    }
    return next();
  }
  // The confirmation reads the request's directory database as loadProfile would, through a binding
  // of its own that the gate does not hold back.
  const timer = c.var.dbTimer;
  const gateDb = createDb(timer.ungated(d1Of(c.var.db)));
  const confirmed: { user?: CurrentUser } = {};
  confirmations.set(request, confirmed);
  timer.setGate(async () => {
    const check = identityCheck(gateDb, identity, claims);
    let user: CurrentUser | null;
    try {
      const { who, row } = check.read(await gateDb.batch(check.statements));
      user = userAsClaimed(claims, who, row);
    } catch {
      user = null;
    }
    if (!user) throw notConfirmed();
    confirmed.user = user;
  });
  c.set("user", claimedUser(claims, confirmed));
  await next();
  // A handler that sent no query (or answered before its queries) is confirmed now, before its answer leaves.
  try {
    await timer.passGate();
  } catch {
    contradicted.set(request, timer);
  }
});

/**
 * The signed-in user with the profile's names (username, company, first and last name): on a request
 * answered on its token's claims, it waits for the confirmation (the round trip of the first query).
 * Only call behind requireUser.
 */
export async function confirmedUser(c: Context<AppEnv>): Promise<CurrentUser> {
  const user = currentUser(c);
  const pending = confirmations.get(c.req.raw);
  if (!pending) return user;
  await c.var.dbTimer.passGate();
  return pending.user ?? user;
}

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
