// One auth middleware for every /api route. Identity comes from a verified token;
// flags and admin come from the server-side profile (mirrored from app_metadata),
// never from user_metadata or anything the client sends.
//
// A signed-in API request is answered on what its token claims, confirmed in the same D1 round trip
// as its handler's first query: the confirmation is the D1 timer's gate, so no read resolves before it
// passes, and nothing is written and no provider called before it (docs/decisions/051-identity-
// confirmed-in-the-first-round-trip.md). When the confirmation contradicts the claims, that answer is
// dropped and the request is dispatched again (with the body kept for it) with the identity confirmed
// first, which is what every other request does.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { getPath } from "hono/utils/url";
import type { AppEnv } from "../app-env";
import type { SQL } from "drizzle-orm";
import { createDb, d1Of, type Database } from "../db/client";
import type { D1Timer } from "../db/timed-d1";
import { ApiError, forbidden, unauthorized } from "../lib/errors";
import type { IdentityPort, TokenClaims } from "../providers/identity/port";
import { gatedProviders } from "../providers";
import { claimedFlags, confirmSignedIn, identityCheck, identityHolds, isAsClaimed, userAsClaimed, type CurrentUser } from "../services/profiles";

/** The token of an `Authorization: Bearer <token>` header, or "" when there is none. */
export function bearerToken(header: string | undefined) {
  return header?.toLowerCase().startsWith("bearer ") ? header.slice(7).trim() : "";
}

/** Requests whose dispatcher (confirmingIdentity) answers them again when their claims prove stale. */
const redispatchable = new WeakSet<Request>();
/** Requests with a body (not GET or HEAD) whose dispatcher kept a copy of it for a second dispatch. */
const bodyKept = new WeakSet<Request>();
/** A dispatch whose claims the confirmation contradicted, with its D1 timer. */
const contradicted = new WeakMap<Request, D1Timer>();
/** A dispatch made again after a contradicted one: identity confirmed first, the earlier D1 figures counted in. */
const dispatchedAgain = new WeakMap<Request, D1Timer>();
/** The user the confirmation found, for a request answered on its claims (and those claims, and who confirms them). */
const confirmations = new WeakMap<Request, { user?: CurrentUser; claims: TokenClaims; identity: IdentityPort }>();

/** Reads a batch dispatches with its own token (decision 064): they take the batch's confirmation of the sign-in. */
const sharedConfirmations = new WeakMap<Request, () => Promise<CurrentUser>>();

/** What a handler's queries reject with when the confirmation did not bear out the claims (that answer is dropped). */
const notConfirmed = () => new ApiError(401, "The sign-in could not be confirmed", "unauthorized");

const message = (e: unknown) => (e instanceof Error ? e.message : "Invalid access token");

/** The API's body limit for the routes a body is kept for (app.ts applies it to every non-webhook API path). */
export const KEPT_BODY_LIMIT = 256 * 1024;

/**
 * Paths whose requests with a body are never answered on claims: outside the signed-in API (the local
 * identity service, the checkout page), webhooks and ingestion (they carry no bearer token), the
 * development tools, and the public, rate-limited routes (which answer the same with or without one).
 */
const CONFIRM_FIRST_PATH =
  /^(?!\/api\/)|^\/api\/(webhooks|ingest|local|admin\/public)\/|^\/api\/stripe\/(create-checkout-session|start-trial)\/?$|^\/api\/leads\/leads\/?$/;

/**
 * The body of a request that may be answered on its token's claims and dispatched again, read once
 * here: a signed-in API route, with a bearer token, a JSON or form body (or none) no larger than the
 * API's limit. `kept` is null when the request must be confirmed first; `request` is then what to
 * dispatch (the same request, or one whose body is what was read of it followed by the rest).
 */
async function keepBody(request: Request): Promise<{ kept: ArrayBuffer | null; request: Request }> {
  const confirmFirst = { kept: null, request };
  if (!bearerToken(request.headers.get("authorization") ?? undefined)) return confirmFirst;
  // The path as the router reads it (percent-decoded), so an escaped spelling routes and is confirmed alike.
  if (CONFIRM_FIRST_PATH.test(getPath(request))) return confirmFirst;
  if (!request.body) return { kept: new ArrayBuffer(0), request };
  const type = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (type !== "application/json" && type !== "application/x-www-form-urlencoded") return confirmFirst;
  if (Number(request.headers.get("content-length") ?? 0) > KEPT_BODY_LIMIT) return confirmFirst;
  // Read up to the limit; a longer body (its length was not declared) goes on whole to the body limit.
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > KEPT_BODY_LIMIT) {
      const rest = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
        },
        async pull(controller) {
          const next = await reader.read();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        cancel: (reason) => reader.cancel(reason),
      });
      return { kept: null, request: new Request(request, { body: rest, duplex: "half" } as RequestInit) };
    }
  }
  const kept = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    kept.set(chunk, at);
    at += chunk.byteLength;
  }
  return { kept: kept.buffer, request };
}

/**
 * The request with this body, its length declared: the body limit then passes the request on as it
 * is (an undeclared length makes it a new Request, which the dispatch's marks would not follow).
 */
function withBody(request: Request, body: ArrayBuffer): Request {
  const headers = new Headers(request.headers);
  headers.delete("transfer-encoding");
  if (body.byteLength) headers.set("content-length", String(body.byteLength));
  else headers.delete("content-length");
  return new Request(request, { headers, body: body.byteLength ? body : null });
}

/**
 * Wraps the app's fetch: a request whose answer rested on claims the confirmation contradicted is
 * dispatched once more, with its identity confirmed first. A GET or HEAD has no body; any other
 * request is answered on its claims only when its body could be kept for that (keptBody), and is
 * otherwise confirmed first.
 */
export function confirmingIdentity<F extends (request: Request, ...rest: never[]) => Response | Promise<Response>>(fetch: F): F {
  return (async (request: Request, ...rest: never[]) => {
    let first = request;
    let body: ArrayBuffer | null = null;
    if (request.method === "GET" || request.method === "HEAD") redispatchable.add(first);
    else {
      const read = await keepBody(request);
      body = read.kept;
      first = read.request;
      if (body) {
        first = withBody(request, body.slice(0));
        bodyKept.add(first);
      }
    }
    const answer = await fetch(first, ...rest);
    const earlier = contradicted.get(first);
    if (!earlier) return answer;
    await answer.body?.cancel().catch(() => undefined);
    const again = body ? withBody(request, body) : new Request(first);
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
  const claimsFirst = onlyReads ? redispatchable.has(request) : bodyKept.has(request);
  if (!claimsFirst || earlier || !claims.email) {
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
  const confirmed: { user?: CurrentUser; claims: TokenClaims; identity: IdentityPort } = { claims, identity };
  confirmations.set(request, confirmed);
  // Whether the confirmation failed for want of D1 (rather than contradicting the claims).
  let unreached = false;
  const shared = sharedConfirmations.get(request);
  timer.setGate(async () => {
    if (shared) {
      // A read of a batch: the same token, confirmed once by the batch in the same round trip. It stands
      // only if the user the batch confirmed is who this read's claims say (a batch answered again
      // after its claims proved stale confirms the account as it is now).
      const user = await shared().catch(() => null);
      if (!user || !isAsClaimed(user, claims)) throw notConfirmed();
      confirmed.user = user;
      return;
    }
    const check = identityCheck(gateDb, identity, claims);
    let results: unknown[];
    try {
      results = await gateDb.batch(check.statements);
    } catch {
      unreached = true;
      throw notConfirmed();
    }
    let user: CurrentUser | null;
    try {
      const { who, row } = check.read(results);
      user = userAsClaimed(claims, who, row);
    } catch {
      user = null;
    }
    if (!user) throw notConfirmed();
    confirmed.user = user;
  });
  c.set("user", claimedUser(claims, confirmed));
  // A request that may write calls no provider before the gate has passed (a GET's provider reads are
  // not held back: nothing they do outlives the dropped answer).
  if (!onlyReads) c.set("providers", gatedProviders(c.var.providers, () => timer.passGate()));
  await next();
  // A handler that sent no query (or answered before its queries) is confirmed now, before its answer leaves.
  try {
    await timer.passGate();
  } catch {
    // A request with a body whose confirmation could not reach D1 is refused, as it is when the
    // confirmation comes first; it is not dispatched again, which would retry it unasked.
    if (!onlyReads && unreached) throw notConfirmed();
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

/**
 * Where a signed-in route may write in the round trip of the sign-in's confirmation, and on what
 * condition. On a request answered on its token's claims whose confirmation has not failed: a handle
 * of the request's directory database that the gate does not hold back (as the confirmation's own),
 * and `when`, the SQL condition that the database bears the claims out (identityHolds). Every
 * statement sent there must carry `when`, so a forged or stale token writes nothing; the handle is
 * for those statements, and for taking back exactly what they wrote, nothing else. Otherwise (the
 * identity was confirmed before the handler, or its confirmation has failed) the request's database,
 * held back by the gate as usual, and no condition.
 */
export function writeWithConfirmation(c: Context<AppEnv>): { db: Database; when?: SQL } {
  const pending = confirmations.get(c.req.raw);
  const timer = c.var.dbTimer;
  if (!pending || timer.gateFailed) return { db: c.var.db };
  return {
    db: createDb(timer.ungated(d1Of(c.var.db))),
    when: identityHolds(c.var.db, pending.identity, pending.claims),
  };
}

/**
 * Lets `read`, a GET the batch route built with this request's own Authorization, take this request's
 * confirmation of the sign-in instead of sending its own: one token, confirmed once for the batch.
 * If that confirmation fails, the read's fails too, and the read is answered as any such request
 * (dispatched again, its identity confirmed first).
 */
export function shareConfirmation(c: Context<AppEnv>, read: Request) {
  if (!c.var.user || read.method !== "GET" || read.headers.get("authorization") !== c.req.header("authorization")) return;
  sharedConfirmations.set(read, () => confirmedUser(c));
}

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
