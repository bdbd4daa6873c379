// The local identity service behind /auth/v1: a Supabase-Auth-compatible subset
// (sign-up with email confirmation, password and refresh-token grants, user, logout, resend, verify).
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { SignJWT } from "jose";
import type { AuthErrorCode } from "@shared/api-error";
import { isUniqueViolation, type Database } from "../../../db/client";
import { authOneTimeTokens, authRefreshTokens, authSessions, authUsers, profiles } from "../../../db/schema";
import type { AppConfig } from "../../../env";
import { hashPassword, randomToken, sha256, toBase64Url, verifyPassword } from "../../../lib/crypto";
import { ApiError } from "../../../lib/errors";
import { LOCAL_AUDIENCE, LOCAL_ISSUER, localAuthSecret } from "./tokens";
import { LocalMail } from "../../mail/local";
import { mayMail } from "../../../db/rate-limit";
import { beginSignInAttempt, clearAllSignInFailures, clearSignInFailures } from "./sign-in-guard";
import { newPasswordProblem } from "@shared/schemas/password";

type BatchItem = Parameters<Database["batch"]>[0][number];

export const ACCESS_TOKEN_TTL_SECONDS = 900;
/**
 * A refresh token rotated this recently may be presented again (two tabs refreshing at once, or a
 * retry after a lost answer) and gets a fresh token of the same session; later reuse ends the session.
 */
export const REFRESH_REUSE_INTERVAL_SECONDS = 10;
export const SIGNUP_TOKEN_TTL_HOURS = 24;
/** A session ends this long after sign-in, however active ([014](../../docs/decisions/014-local-sessions.md)). */
export const SESSION_MAX_LIFETIME_SECONDS = 30 * 86_400;
/** A session no token refresh has touched for this long ends (the SPA refreshes every ~15 minutes while open). */
export const SESSION_INACTIVITY_TIMEOUT_SECONDS = 7 * 86_400;

type UserRow = typeof authUsers.$inferSelect;

/** GoTrue-style error: supabase-js reads `code` (with the API version header) and `msg`. */
export const authError = (status: 400 | 401 | 403 | 404 | 422 | 429, code: AuthErrorCode, msg: string, field?: string) =>
  new ApiError(status, msg, code, field, { msg, error_code: code });

/** GoTrue's answer to a password that breaks the rules: 422 weak_password with reasons supabase-js reads. */
export const weakPassword = (msg: string, reason: "length" | "characters") =>
  new ApiError(422, msg, "weak_password", "password", { msg, error_code: "weak_password", weak_password: { reasons: [reason] } });

export function userJson(u: UserRow) {
  return {
    id: u.id,
    aud: "authenticated",
    role: "authenticated",
    email: u.email,
    email_confirmed_at: u.emailConfirmedAt,
    confirmed_at: u.emailConfirmedAt,
    last_sign_in_at: u.lastSignInAt,
    phone: "",
    app_metadata: { provider: "email", providers: ["email"], ...u.appMetadata },
    user_metadata: { ...u.userMetadata, email: u.email, email_verified: Boolean(u.emailConfirmedAt) },
    identities: [
      {
        identity_id: u.id,
        id: u.id,
        user_id: u.id,
        provider: "email",
        identity_data: { sub: u.id, email: u.email },
        created_at: u.createdAt,
        updated_at: u.updatedAt,
      },
    ],
    is_anonymous: false,
    created_at: u.createdAt,
    updated_at: u.updatedAt,
  };
}

export const findByEmail = (db: Database, email: string) =>
  db.select().from(authUsers).where(sql`lower(${authUsers.email}) = ${email.toLowerCase()}`).get();

/** The kinds of mailed one-time link; each is spent only by POST /auth/v1/verify. */
export type LinkType = "signup" | "invite" | "recovery" | "email_change";

/** Where each kind of link lands when its request named no (acceptable) redirect_to. */
export const LINK_LANDING: Record<LinkType, string> = {
  signup: "/auth",
  invite: "/activate-account",
  recovery: "/reset-password",
  email_change: "/auth",
};

/**
 * A mailed link: the page it lands on, with the one-time token in the URL fragment
 * (`#token_hash=…&type=…`, as Supabase's token-hash templates put it). A fragment never reaches a
 * server, a log or a Referer, and following the link spends nothing: the page spends the token with
 * an explicit POST /auth/v1/verify, so a mail scanner or a prefetch that opens it cannot.
 */
export function pageLink(origin: string, type: LinkType, token: string, redirectTo?: string | null) {
  const url = new URL(safeRedirect(origin, redirectTo, LINK_LANDING[type]));
  url.hash = new URLSearchParams({ token_hash: token, type }).toString();
  return url.toString();
}

/** A redirect target is accepted only on the product's own origin. */
export function safeRedirect(origin: string, redirectTo: string | null | undefined, fallbackPath: string) {
  try {
    if (redirectTo) {
      const url = new URL(redirectTo, origin);
      if (url.origin === origin) return url.toString();
    }
  } catch {
    // fall through to the default
  }
  return new URL(fallbackPath, origin).toString();
}

async function confirmationStatements(db: Database, user: { id: string; email: string }, origin: string, redirectTo?: string) {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + SIGNUP_TOKEN_TTL_HOURS * 3600_000).toISOString();
  const link = pageLink(origin, "signup", token, redirectTo);
  return [
    db.insert(authOneTimeTokens).values({
      userId: user.id,
      kind: "signup",
      tokenHash: await sha256(token),
      redirectTo: redirectTo ?? null,
      expiresAt,
    }),
    new LocalMail(db).insert({
      to: user.email,
      subject: "Confirm your email",
      text: `Welcome! Confirm your email address to finish creating your account:\n\n${link}\n\nThe link is valid for ${SIGNUP_TOKEN_TTL_HOURS} hours.`,
      link,
      kind: "signup",
    }),
  ] as const;
}

export async function signUp(
  db: Database,
  origin: string,
  input: { email: string; password: string; data: Record<string, unknown> },
  redirectTo?: string,
) {
  const email = input.email.toLowerCase();
  const alreadyRegistered = () => authError(422, "user_already_exists", "User already registered");
  if (await findByEmail(db, email)) throw alreadyRegistered();
  const id = crypto.randomUUID();
  const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim().slice(0, 200) : null);
  // Only the known sign-up fields are kept in user metadata.
  const userMetadata = {
    username: str(input.data.username),
    name: str(input.data.name) ?? str(input.data.username),
    company: str(input.data.company),
  };
  const passwordHash = await hashPassword(input.password);
  const now = new Date().toISOString();
  const [tokenInsert, mailInsert] = await confirmationStatements(db, { id, email }, origin, redirectTo);
  await db.batch([
    db.insert(authUsers).values({ id, email, passwordHash, userMetadata, appMetadata: {}, createdAt: now, updatedAt: now }),
    // The profile comes with the account; the auth middleware creates it on first sign-in if it is ever missing.
    db
      .insert(profiles)
      .values({ id, email, username: userMetadata.username, company: userMetadata.company, isAdmin: false, createdAt: now })
      .onConflictDoNothing(),
    tokenInsert,
    mailInsert,
  ]).catch((e: unknown) => {
    // A simultaneous registration of the same email got in first (auth_users_email_uq).
    if (isUniqueViolation(e)) throw alreadyRegistered();
    throw e;
  });
  const user = await db.query.authUsers.findFirst({ where: eq(authUsers.id, id) });
  return user!;
}

/** Sends the sign-up confirmation again (POST /auth/v1/resend), only to an unconfirmed account. */
export async function resendLocalSignup(db: Database, origin: string, email: string, redirectTo?: string) {
  const user = await findByEmail(db, email);
  // Same answer whether or not the account exists, or is already confirmed.
  // Past the hourly mail cap nothing more is sent, and the answer is the same: the mails already sent hold working links.
  if (!user || user.emailConfirmedAt || !(await mayMail(db, user.email))) return;
  const [tokenInsert, mailInsert] = await confirmationStatements(db, user, origin, redirectTo);
  await db.batch([tokenInsert, mailInsert]);
}

/** What a mailed one-time token is for. */
export type OneTimeTokenKind = (typeof authOneTimeTokens.$inferSelect)["kind"];

/**
 * Spends a one-time token of `kind` (one guarded write: of two concurrent uses exactly one wins).
 * Answers why it cannot be used: unknown or used already, or expired.
 */
export async function spendToken(db: Database, token: string, kind: OneTimeTokenKind) {
  const tokenHash = await sha256(token);
  const now = new Date().toISOString();
  const [row] = await db
    .update(authOneTimeTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(authOneTimeTokens.tokenHash, tokenHash),
        eq(authOneTimeTokens.kind, kind),
        isNull(authOneTimeTokens.usedAt),
        gt(authOneTimeTokens.expiresAt, now),
      ),
    )
    .returning();
  if (row) return { ok: true as const, row };
  const stale = await db.query.authOneTimeTokens.findFirst({
    where: and(eq(authOneTimeTokens.tokenHash, tokenHash), eq(authOneTimeTokens.kind, kind), isNull(authOneTimeTokens.usedAt)),
  });
  return { ok: false as const, reason: stale ? ("expired" as const) : ("invalid" as const) };
}

/** Consumes a sign-up token (POST /auth/v1/verify); returns the confirmed user. */
export async function verifySignupToken(db: Database, token: string) {
  const spent = await spendToken(db, token, "signup");
  if (!spent.ok) return spent;
  const { row } = spent;
  const now = row.usedAt!;
  await db
    .update(authUsers)
    .set({ emailConfirmedAt: sql`coalesce(${authUsers.emailConfirmedAt}, ${now})`, updatedAt: now })
    .where(eq(authUsers.id, row.userId));
  const user = await db.query.authUsers.findFirst({ where: eq(authUsers.id, row.userId) });
  return { ok: true as const, user: user!, redirectTo: row.redirectTo };
}

async function accessToken(config: AppConfig, user: UserRow, sessionId: string) {
  const iat = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({
    email: user.email,
    role: "authenticated",
    aal: "aal1",
    session_id: sessionId,
    is_anonymous: false,
    app_metadata: { provider: "email", providers: ["email"], ...user.appMetadata },
    user_metadata: user.userMetadata,
  })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(user.id)
    .setIssuer(LOCAL_ISSUER)
    .setAudience(LOCAL_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .sign(new TextEncoder().encode(localAuthSecret(config)));
  return { token, expiresAt: iat + ACCESS_TOKEN_TTL_SECONDS };
}

async function sessionJson(config: AppConfig, user: UserRow, sessionId: string, refreshToken: string) {
  const { token, expiresAt } = await accessToken(config, user, sessionId);
  return {
    access_token: token,
    token_type: "bearer",
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson(user),
  };
}

/**
 * Opens a session for `user` and answers it as GoTrue does. `method` is how it was opened: an emailed
 * recovery link opens a `recovery` session, which may set a new password without the current one.
 */
export async function openSession(db: Database, config: AppConfig, user: UserRow, method: "password" | "recovery") {
  const sessionId = crypto.randomUUID();
  const refresh = randomToken();
  const now = new Date().toISOString();
  await db.batch([
    db.insert(authSessions).values({ id: sessionId, userId: user.id, method, createdAt: now, updatedAt: now }),
    db.insert(authRefreshTokens).values({ tokenHash: await sha256(refresh), sessionId, userId: user.id }),
    db.update(authUsers).set({ lastSignInAt: now }).where(eq(authUsers.id, user.id)),
  ]);
  return sessionJson(config, { ...user, lastSignInAt: now }, sessionId, refresh);
}

/** `address` is the client's address bucket: sign-in delays are counted per (email, address). */
export async function passwordGrant(db: Database, config: AppConfig, email: string, password: string, address: string) {
  // The attempt is counted before the password is checked, so a delayed (email, address) costs no
  // PBKDF2 work and concurrent guesses cannot slip past the limit.
  await beginSignInAttempt(db, email, address);
  const user = await findByEmail(db, email);
  const ok = await verifyPassword(password, user?.passwordHash ?? null);
  if (!user || !ok) throw authError(400, "invalid_credentials", "Invalid login credentials");
  await clearSignInFailures(db, email, address);
  if (!user.emailConfirmedAt) throw authError(400, "email_not_confirmed", "Email not confirmed");
  return openSession(db, config, user, "password");
}

/** Whether a session is past its maximum lifetime or has been idle too long (epoch ms `now`). */
export function sessionExpired(session: { createdAt: string; updatedAt: string }, now = Date.now()) {
  return (
    now - Date.parse(session.createdAt) > SESSION_MAX_LIFETIME_SECONDS * 1000 ||
    now - Date.parse(session.updatedAt) > SESSION_INACTIVITY_TIMEOUT_SECONDS * 1000
  );
}

/**
 * The refresh token that follows `token` in its chain. Derived (HMAC with the signing secret) rather
 * than random, so a rotated token presented again within the reuse interval leads to the same
 * successor, never to a second branch, while only token hashes are stored.
 */
async function successorOf(config: AppConfig, token: string) {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(localAuthSecret(config)), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`refresh:${token}`));
  return toBase64Url(new Uint8Array(mac));
}

/** How many rotations past a re-presented token are followed to the chain's live token. */
const MAX_CHAIN_FOLLOW = 8;

/**
 * Rotates a refresh token. A token rotated within the reuse interval answers with the chain's
 * current token (two tabs refreshing at once, a retry after a lost answer); reuse later than that
 * ends the whole session (token theft signal). Sessions end at their maximum lifetime and after
 * the inactivity timeout.
 */
export async function refreshGrant(db: Database, config: AppConfig, refreshToken: string) {
  const row = await db.query.authRefreshTokens.findFirst({
    where: eq(authRefreshTokens.tokenHash, await sha256(refreshToken)),
  });
  const invalid = () => authError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
  if (!row) throw invalid();
  const session = await db.query.authSessions.findFirst({ where: eq(authSessions.id, row.sessionId) });
  if (!session || session.revokedAt) throw invalid();
  const now = new Date().toISOString();
  if (sessionExpired(session)) {
    await db.update(authSessions).set({ revokedAt: now }).where(eq(authSessions.id, session.id));
    throw authError(400, "session_expired", "Session Expired");
  }
  const alreadyUsed = () => authError(400, "refresh_token_already_used", "Invalid Refresh Token: Already Used");
  const withinReuseInterval = (rotatedAt: string) =>
    Date.now() - Date.parse(rotatedAt) <= REFRESH_REUSE_INTERVAL_SECONDS * 1000;

  let token = refreshToken;
  let current = row;
  if (current.revoked) {
    if (!withinReuseInterval(current.updatedAt)) {
      // Reuse long after rotation is a theft signal: the whole session ends.
      await db.update(authSessions).set({ revokedAt: now }).where(eq(authSessions.id, session.id));
      throw alreadyUsed();
    }
    // Follow the chain to its live token and answer with it: the same successor every time.
    for (let step = 0; current.revoked; step++) {
      if (step >= MAX_CHAIN_FOLLOW) throw alreadyUsed();
      token = await successorOf(config, token);
      const next = await db.query.authRefreshTokens.findFirst({ where: eq(authRefreshTokens.tokenHash, await sha256(token)) });
      if (!next || next.sessionId !== session.id) throw alreadyUsed();
      current = next;
    }
  } else {
    // Rotate: the guarded update marks it used and the successor is inserted in the same batch. Two
    // concurrent refreshes compute the same successor; the unique hash makes the second insert a no-op.
    token = await successorOf(config, refreshToken);
    await db.batch([
      db
        .update(authRefreshTokens)
        .set({ revoked: true, updatedAt: now })
        .where(and(eq(authRefreshTokens.id, current.id), eq(authRefreshTokens.revoked, false))),
      db
        .insert(authRefreshTokens)
        .values({ tokenHash: await sha256(token), sessionId: session.id, userId: row.userId })
        .onConflictDoNothing({ target: authRefreshTokens.tokenHash }),
    ]);
  }
  await db.update(authSessions).set({ updatedAt: now }).where(eq(authSessions.id, session.id));
  const user = await db.query.authUsers.findFirst({ where: eq(authUsers.id, row.userId) });
  if (!user) throw invalid();
  return sessionJson(config, user, session.id, token);
}

export async function logout(db: Database, userId: string, sessionId: string, scope: "global" | "local" | "others") {
  const now = new Date().toISOString();
  const where =
    scope === "global"
      ? and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt))
      : scope === "local"
        ? eq(authSessions.id, sessionId)
        : and(eq(authSessions.userId, userId), sql`${authSessions.id} <> ${sessionId}`, isNull(authSessions.revokedAt));
  await db.update(authSessions).set({ revokedAt: now }).where(where);
}

/** Ends every session of the account but `keepSessionId`, with their refresh tokens (GoTrue does so on a password change). */
export function endOtherSessions(db: Database, userId: string, keepSessionId: string | null, now = new Date().toISOString()) {
  const others = keepSessionId ? sql`${authSessions.id} <> ${keepSessionId}` : sql`1 = 1`;
  const otherTokens = keepSessionId ? sql`${authRefreshTokens.sessionId} <> ${keepSessionId}` : sql`1 = 1`;
  return [
    db.update(authSessions).set({ revokedAt: now }).where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt), others)),
    db
      .update(authRefreshTokens)
      .set({ revoked: true, updatedAt: now })
      .where(and(eq(authRefreshTokens.userId, userId), eq(authRefreshTokens.revoked, false), otherTokens)),
  ] as const;
}

/** A recovery session may set a new password without the current one, once, within this time of the link. */
export const RECOVERY_SESSION_PASSWORD_WINDOW_SECONDS = 3600;

/**
 * PUT /auth/v1/user. A new password needs the current one (`current_password`), except in a
 * recovery session opened in the last hour or for an account that has no password yet; it must meet spec 2's rules, and it ends every other
 * session of the account. A wrong current password counts as a failed sign-in.
 */
export async function updateUser(
  db: Database,
  userId: string,
  sessionId: string,
  patch: { password?: string; current_password?: string; data?: Record<string, unknown> },
  address: string,
) {
  const user = await db.query.authUsers.findFirst({ where: eq(authUsers.id, userId) });
  if (!user) throw authError(404, "user_not_found", "User not found");
  const now = new Date().toISOString();
  const set: Partial<typeof authUsers.$inferInsert> = { updatedAt: now };
  const statements: BatchItem[] = [];
  if (patch.password !== undefined) {
    const weak = newPasswordProblem(patch.password);
    if (weak) throw weakPassword(weak.message, weak.reason);
    const session = await db.query.authSessions.findFirst({ where: eq(authSessions.id, sessionId) });
    const recovering =
      session?.method === "recovery" && Date.now() - Date.parse(session.createdAt) <= RECOVERY_SESSION_PASSWORD_WINDOW_SECONDS * 1000;
    // An account without a password yet (a buyer's, being activated) has no current one to prove.
    if (!recovering && user.passwordHash !== null) {
      if (!patch.current_password) {
        throw authError(400, "reauthentication_needed", "Current password required when setting new password.", "current_password");
      }
      await beginSignInAttempt(db, user.email, address);
      if (!(await verifyPassword(patch.current_password, user.passwordHash))) {
        throw authError(400, "invalid_credentials", "Current password is incorrect.", "current_password");
      }
      await clearSignInFailures(db, user.email, address);
    }
    set.passwordHash = await hashPassword(patch.password);
    statements.push(
      ...endOtherSessions(db, userId, sessionId, now),
      // The recovery allowance is spent; a new password also lifts any sign-in delay.
      db.update(authSessions).set({ method: "password" }).where(eq(authSessions.id, sessionId)),
      clearAllSignInFailures(db, user.email),
      db.update(authOneTimeTokens).set({ usedAt: now }).where(and(eq(authOneTimeTokens.userId, userId), eq(authOneTimeTokens.kind, "recovery"), isNull(authOneTimeTokens.usedAt))),
    );
  }
  if (patch.data) {
    const allowed = ["username", "name", "company", "first_name", "last_name"];
    const data = Object.fromEntries(Object.entries(patch.data).filter(([k, v]) => allowed.includes(k) && typeof v === "string"));
    set.userMetadata = { ...user.userMetadata, ...data };
  }
  await db.batch([db.update(authUsers).set(set).where(eq(authUsers.id, userId)), ...statements]);
  return (await db.query.authUsers.findFirst({ where: eq(authUsers.id, userId) }))!;
}

