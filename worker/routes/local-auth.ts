// Local identity service at /auth/v1, shaped like Supabase Auth so the SPA's supabase-js
// works unchanged. Served only when no Supabase project is configured.
import { type Context } from "hono";
import { createMiddleware } from "hono/factory";
import { newPasswordProblem } from "@shared/schemas/password";
import { LINK_TYPES, passwordGrantBody, refreshGrantBody } from "@shared/schemas/auth";
import type { AppEnv } from "../app-env";
import { notFound } from "../lib/errors";
import { issuesToError } from "../lib/validate";
import { clientAddress, emailAtAddress, enforce, PUBLIC_ACCOUNT_LIMITS, type Limit } from "../db/rate-limit";
import { localAuthSecret, usesSupabase } from "../providers";
import { LocalIdentity } from "../providers/identity/local";
import { requestRecovery, verifyEmailChangeToken, verifyRecoveryToken } from "../providers/identity/local/account-links";
import { verifyActivationToken } from "../providers/identity/local/activation";
import {
  authError,
  type LinkType,
  logout,
  pageLink,
  passwordGrant,
  refreshGrant,
  resendLocalSignup,
  safeRedirect,
  signUp,
  updateUser,
  userJson,
  verifySignupToken,
  weakPassword,
} from "../providers/identity/local/auth";
import { bearerToken } from "../middleware/auth";
import { emit } from "../events/emit";
import { DeclaredRoutes } from "./serve";

/** Password grants per (address, email). */
const SIGN_IN_LIMIT: Limit = { name: "auth-token", limit: 10, windowSeconds: 60 };
/**
 * Password grants per address, whatever the email: with sign-up (PUBLIC_ACCOUNT_LIMITS.perAddress)
 * this bounds the PBKDF2 hashes one client address (an IPv6 /64) can cause to 60 a minute.
 */
const SIGN_IN_PER_ADDRESS: Limit = { name: "auth-token:ip", limit: 30, windowSeconds: 60 };

/**
 * A request that mails a link (resend, recover): limited per address and per (email, address), and
 * the link's origin and landing (`redirect_to`, when it is one of ours; else `fallback`).
 */
async function mailRequest(c: Context<AppEnv>, email: string, fallback: string) {
  await enforce(c, [
    [PUBLIC_ACCOUNT_LIMITS.perAddress, clientAddress(c)],
    [PUBLIC_ACCOUNT_LIMITS.perEmail, emailAtAddress(email, c)],
  ]);
  const origin = new URL(c.req.url).origin;
  const redirectTo = c.req.query("redirect_to");
  return { email, origin, redirectTo: redirectTo ? safeRedirect(origin, redirectTo, fallback) : undefined };
}

const localOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (usesSupabase(c.var.config)) throw notFound("The local identity service is off: Supabase is configured");
  c.header("X-Supabase-Api-Version", "2024-01-01");
  await next();
});

/** The live local session behind the request's bearer token, with its user row (GoTrue's 401 otherwise). */
async function bearerSession(c: { req: { header(n: string): string | undefined }; var: AppEnv["Variables"] }) {
  const token = bearerToken(c.req.header("authorization"));
  if (!token) throw authError(401, "no_authorization", "This endpoint requires a Bearer token");
  // This service is the local identity itself, so it checks its own sessions directly.
  return new LocalIdentity(c.var.db, localAuthSecret(c.var.config)).verifySession(token).catch(() => {
    throw authError(401, "bad_jwt", "invalid JWT: unable to parse or verify signature");
  });
}

/** A grant body that fails its schema: 400 naming the first bad field, in the GoTrue error shape. */
function invalidBody(issues: Parameters<typeof issuesToError>[0]) {
  const err = issuesToError(issues);
  return authError(400, "validation_failed", err.message, err.field);
}

export const localAuthRoutes = new DeclaredRoutes()
  .under("/auth/v1/*", localOnly)
  .serve("GET /auth/v1/settings", (c) =>
    c.json({ external: { email: true }, disable_signup: false, mailer_autoconfirm: false, phone_autoconfirm: false }),
  )
  .serve("GET /auth/v1/.well-known/jwks.json", (c) => c.json({ keys: [] }))
  .serve("POST /auth/v1/signup", async (c) => {
    const body = c.req.valid("json");
    const origin = new URL(c.req.url).origin;
    await enforce(c, [
      [PUBLIC_ACCOUNT_LIMITS.perAddress, clientAddress(c)],
      [PUBLIC_ACCOUNT_LIMITS.perEmail, emailAtAddress(body.email, c)],
    ]);
    // The one password policy, as on every password the service sets (PUT /user too).
    const weak = newPasswordProblem(body.password);
    if (weak) throw weakPassword(weak.message, weak.reason);
    const redirectTo = c.req.query("redirect_to");
    const user = await signUp(c.var.db, origin, body, redirectTo ? safeRedirect(origin, redirectTo, "/auth") : undefined);
    // Email confirmation is required: a bare user, no session.
    return c.json(userJson(user));
  })
  .serve("POST /auth/v1/token", async (c) => {
    const grant = c.req.query("grant_type");
    const json = await c.req.json().catch(() => {
      throw authError(400, "validation_failed", "Malformed JSON body", "body");
    });
    if (grant === "password") {
      const parsed = passwordGrantBody.safeParse(json);
      if (!parsed.success) throw invalidBody(parsed.error.issues);
      await enforce(c, [
        [SIGN_IN_PER_ADDRESS, clientAddress(c)],
        [SIGN_IN_LIMIT, `${clientAddress(c)}:${parsed.data.email.toLowerCase()}`],
      ]);
      return c.json(await passwordGrant(c.var.db, c.var.config, parsed.data.email, parsed.data.password, clientAddress(c)));
    }
    if (grant === "refresh_token") {
      const parsed = refreshGrantBody.safeParse(json);
      if (!parsed.success) throw invalidBody(parsed.error.issues);
      return c.json(await refreshGrant(c.var.db, c.var.config, parsed.data.refresh_token));
    }
    throw authError(400, "unsupported_grant_type", "unsupported grant_type", "grant_type");
  })
  .serve("GET /auth/v1/user", async (c) => {
    const { user } = await bearerSession(c);
    return c.json(userJson(user));
  })
  .serve("PUT /auth/v1/user", async (c) => {
    const { user, sessionId } = await bearerSession(c);
    const updated = await updateUser(c.var.db, user.id, sessionId, c.req.valid("json"), clientAddress(c));
    // A password change ends the account's other sessions: their live feeds close.
    emit(c, "accessChanged", { userId: user.id });
    return c.json(userJson(updated));
  })
  .serve("POST /auth/v1/logout", async (c) => {
    const { user, sessionId } = await bearerSession(c);
    const scope = (c.req.query("scope") ?? "global") as "global" | "local" | "others";
    if (!["global", "local", "others"].includes(scope)) throw authError(400, "validation_failed", "scope: invalid");
    await logout(c.var.db, user.id, sessionId, scope);
    // The signed-out sessions' live feeds close.
    emit(c, "accessChanged", { userId: user.id });
    return c.body(null, 204);
  })
  .serve("POST /auth/v1/resend", async (c) => {
    const { email, origin, redirectTo } = await mailRequest(c, c.req.valid("json").email, "/auth");
    await resendLocalSignup(c.var.db, origin, email, redirectTo);
    return c.json({});
  })
  // supabase-js resetPasswordForEmail: the same {} whether or not an account has the email.
  .serve("POST /auth/v1/recover", async (c) => {
    const { email, origin, redirectTo } = await mailRequest(c, c.req.valid("json").email, "/reset-password");
    await requestRecovery(c.var.db, origin, email, redirectTo);
    return c.json({});
  })
  // A link to /auth/v1/verify?token=… (GoTrue's form): sent on
  // to its page with the token moved to the fragment. Nothing is spent by a GET, so a mail scanner or
  // a prefetch that follows it neither uses up the link nor receives a session.
  .serve("GET /auth/v1/verify", (c) => {
    const origin = new URL(c.req.url).origin;
    const token = c.req.query("token") ?? "";
    const type = c.req.query("type") ?? "signup";
    const kind = (LINK_TYPES as readonly string[]).includes(type) ? (type as LinkType) : null;
    if (!token || !kind) {
      const target = new URL("/auth", origin);
      target.hash = "error=access_denied&error_code=otp_invalid&error_description=Email+link+is+invalid+or+has+already+been+used";
      return c.redirect(target.toString(), 303);
    }
    return c.redirect(pageLink(origin, kind, token, c.req.query("redirect_to")), 303);
  })
  // supabase-js verifyOtp({ token_hash, type }): the one place a mailed link is spent, by the page's
  // explicit POST. Activation and recovery answer a session in the body; a sign-up or email-change
  // confirmation answers the user (the page then asks for a sign-in, docs/product/README.md#states-and-flows).
  .serve("POST /auth/v1/verify", async (c) => {
    const { type, token_hash: token } = c.req.valid("json");
    const failed = (reason: "expired" | "invalid" | "taken"): never => {
      if (reason === "taken") throw authError(422, "email_exists", "This email address is already in use");
      throw reason === "expired"
        ? authError(403, "otp_expired", "Email link has expired")
        : authError(403, "otp_invalid", "Email link is invalid or has already been used");
    };
    if (type === "invite") {
      const result = await verifyActivationToken(c.var.db, c.var.config, token);
      return result.ok ? c.json(result.session) : failed(result.reason);
    }
    if (type === "recovery") {
      const result = await verifyRecoveryToken(c.var.db, c.var.config, token);
      return result.ok ? c.json(result.session) : failed(result.reason);
    }
    if (type === "email_change") {
      const result = await verifyEmailChangeToken(c.var.db, token);
      return result.ok ? c.json(userJson(result.user)) : failed(result.reason);
    }
    const result = await verifySignupToken(c.var.db, token);
    return result.ok ? c.json(userJson(result.user)) : failed(result.reason);
  });
