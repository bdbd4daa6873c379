// Local identity service at /auth/v1, shaped like Supabase Auth so the SPA's supabase-js
// works unchanged. Served only when no Supabase project is configured.
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { passwordGrantBody, refreshGrantBody, resendBody, signupBody, updateUserBody } from "@shared/schemas/auth";
import type { AppEnv } from "../env";
import { notFound } from "../lib/errors";
import { issuesToError, validate } from "../lib/validate";
import { clientAddress, enforce, PUBLIC_ACCOUNT_LIMITS } from "../lib/rate-limit";
import { localAuthSecret, usesSupabase } from "../providers";
import { LocalIdentity } from "../providers/identity/local";
import {
  authError,
  logout,
  passwordGrant,
  refreshGrant,
  resendLocalSignup,
  safeRedirect,
  signUp,
  updateUser,
  userJson,
  verifySignupToken,
} from "../services/local-auth";
import { bearerToken } from "../middleware/auth";
import { ACTIVATION_PATH, verifyActivationToken } from "../services/local-activation";
import type { Database } from "../db/client";
import type { AppConfig } from "../env";

/** An activation link: to /activate-account with the session in the query, or the error in the hash. */
async function activationRedirect(db: Database, config: AppConfig, origin: string, token: string) {
  const result = token ? await verifyActivationToken(db, config, token) : ({ ok: false, reason: "invalid" } as const);
  const target = new URL(ACTIVATION_PATH, origin);
  if (!result.ok) {
    const code = result.reason === "expired" ? "otp_expired" : "otp_invalid";
    target.hash = `error=access_denied&error_code=${code}`;
  } else {
    target.searchParams.set("email", result.email);
    target.searchParams.set("access_token", result.session.access_token);
    target.searchParams.set("refresh_token", result.session.refresh_token);
  }
  return new Response(null, { status: 303, headers: { location: target.toString() } });
}

const SIGN_IN_LIMIT = { name: "auth-token", limit: 10, windowSeconds: 60 };

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

export const localAuthRoutes = new Hono<AppEnv>()
  .use("*", localOnly)
  .get("/settings", (c) =>
    c.json({ external: { email: true }, disable_signup: false, mailer_autoconfirm: false, phone_autoconfirm: false }),
  )
  .get("/.well-known/jwks.json", (c) => c.json({ keys: [] }))
  .post("/signup", validate("json", signupBody), async (c) => {
    const body = c.req.valid("json");
    const origin = new URL(c.req.url).origin;
    await enforce(c, [
      [PUBLIC_ACCOUNT_LIMITS.perAddress, clientAddress(c)],
      [PUBLIC_ACCOUNT_LIMITS.perEmail, body.email.toLowerCase()],
    ]);
    const redirectTo = c.req.query("redirect_to");
    const user = await signUp(c.var.db, origin, body, redirectTo ? safeRedirect(origin, redirectTo, "/auth") : undefined);
    // Email confirmation is required: a bare user, no session.
    return c.json(userJson(user));
  })
  .post("/token", async (c) => {
    const grant = c.req.query("grant_type");
    const json = await c.req.json().catch(() => {
      throw authError(400, "validation_failed", "Malformed JSON body", "body");
    });
    if (grant === "password") {
      const parsed = passwordGrantBody.safeParse(json);
      if (!parsed.success) throw invalidBody(parsed.error.issues);
      await enforce(c, [[SIGN_IN_LIMIT, `${clientAddress(c)}:${parsed.data.email.toLowerCase()}`]]);
      return c.json(await passwordGrant(c.var.db, c.var.config, parsed.data.email, parsed.data.password));
    }
    if (grant === "refresh_token") {
      const parsed = refreshGrantBody.safeParse(json);
      if (!parsed.success) throw invalidBody(parsed.error.issues);
      return c.json(await refreshGrant(c.var.db, c.var.config, parsed.data.refresh_token));
    }
    throw authError(400, "unsupported_grant_type", "unsupported grant_type");
  })
  .get("/user", async (c) => {
    const { user } = await bearerSession(c);
    return c.json(userJson(user));
  })
  .put("/user", validate("json", updateUserBody), async (c) => {
    const { user } = await bearerSession(c);
    return c.json(userJson(await updateUser(c.var.db, user.id, c.req.valid("json"))));
  })
  .post("/logout", async (c) => {
    const { user, sessionId } = await bearerSession(c);
    const scope = (c.req.query("scope") ?? "global") as "global" | "local" | "others";
    if (!["global", "local", "others"].includes(scope)) throw authError(400, "validation_failed", "scope: invalid");
    await logout(c.var.db, user.id, sessionId, scope);
    return c.body(null, 204);
  })
  .post("/resend", validate("json", resendBody), async (c) => {
    const { email } = c.req.valid("json");
    await enforce(c, [
      [PUBLIC_ACCOUNT_LIMITS.perAddress, clientAddress(c)],
      [PUBLIC_ACCOUNT_LIMITS.perEmail, email.toLowerCase()],
    ]);
    const origin = new URL(c.req.url).origin;
    const redirectTo = c.req.query("redirect_to");
    await resendLocalSignup(c.var.db, origin, email, redirectTo ? safeRedirect(origin, redirectTo, "/auth") : undefined);
    return c.json({});
  })
  .get("/verify", async (c) => {
    const origin = new URL(c.req.url).origin;
    const token = c.req.query("token") ?? "";
    if (c.req.query("type") === "invite") return activationRedirect(c.var.db, c.var.config, origin, token);
    const result = token ? await verifySignupToken(c.var.db, token) : ({ ok: false, reason: "invalid" } as const);
    if (!result.ok) {
      const target = new URL("/auth", origin);
      const code = result.reason === "expired" ? "otp_expired" : "otp_invalid";
      target.hash = `error=access_denied&error_code=${code}&error_description=${encodeURIComponent(
        result.reason === "expired" ? "Email link has expired" : "Email link is invalid or has already been used",
      )}`;
      return c.redirect(target.toString(), 303);
    }
    const target = new URL(safeRedirect(origin, result.redirectTo, "/auth"));
    target.searchParams.set("confirmed", "1");
    target.searchParams.set("email", result.user.email);
    return c.redirect(target.toString(), 303);
  });
