// Mailed account links of the local identity service beside sign-up confirmation: password recovery
// and email change. Each link is single-use and expiring; the token is stored hashed.
import { and, eq, isNull, sql } from "drizzle-orm";
import { isUniqueViolation, type Database } from "../../../db/client";
import { authOneTimeTokens, authUsers, profiles } from "../../../db/schema";
import type { AppConfig } from "../../../env";
import { randomToken, sha256 } from "../../../lib/crypto";
import { mayMail } from "../../../db/rate-limit";
import { LocalMail } from "../../mail/local";
import { findByEmail, openSession, pageLink, spendToken } from "./auth";

export const RECOVERY_TOKEN_TTL_MINUTES = 60;
export const EMAIL_CHANGE_TOKEN_TTL_HOURS = 24;


/** Partly hides an address for a notice mail: "jo***@example.com". */
export const maskEmail = (email: string) => {
  const [local, domain] = email.split("@");
  return `${local.slice(0, 2)}***@${domain}`;
};

/**
 * POST /auth/v1/recover: mails a recovery link when an account has this email and the address has
 * not had too much mail this hour. The caller answers the same in every case.
 */
export async function requestRecovery(db: Database, origin: string, email: string, redirectTo?: string) {
  const user = await findByEmail(db, email);
  if (!user || !(await mayMail(db, user.email))) return;
  const token = randomToken();
  const link = pageLink(origin, "recovery", token, redirectTo);
  await db.batch([
    db.insert(authOneTimeTokens).values({
      userId: user.id,
      kind: "recovery",
      tokenHash: await sha256(token),
      redirectTo: redirectTo ?? null,
      expiresAt: new Date(Date.now() + RECOVERY_TOKEN_TTL_MINUTES * 60_000).toISOString(),
    }),
    new LocalMail(db).insert({
      to: user.email,
      subject: "Reset your password",
      text: `Someone asked to reset the password of your account. Follow this link to choose a new one:\n\n${link}\n\nThe link works once and is valid for ${RECOVERY_TOKEN_TTL_MINUTES} minutes. If you did not ask for it, ignore this email; your password stays as it is.`,
      link,
      kind: "recovery",
    }),
  ]);
}

/**
 * Spends a recovery token (POST /auth/v1/verify): a `recovery` session is opened and answered in the
 * POST's body (supabase-js's verifyOtp announces PASSWORD_RECOVERY). Following a mailed link also
 * proves the address, so an unconfirmed account becomes confirmed.
 */
export async function verifyRecoveryToken(db: Database, config: AppConfig, token: string) {
  const spent = await spendToken(db, token, "recovery");
  if (!spent.ok) return spent;
  const now = new Date().toISOString();
  await db
    .update(authUsers)
    .set({ emailConfirmedAt: sql`coalesce(${authUsers.emailConfirmedAt}, ${now})`, updatedAt: now })
    .where(eq(authUsers.id, spent.row.userId));
  const user = await db.query.authUsers.findFirst({ where: eq(authUsers.id, spent.row.userId) });
  if (!user) return { ok: false as const, reason: "invalid" as const };
  const session = await openSession(db, config, user, "recovery");
  return { ok: true as const, session, redirectTo: spent.row.redirectTo };
}

/**
 * Asks to move an account to `newEmail`: a confirmation link goes to the new address, and the old
 * address is told. When the new address already has an account nothing goes to it, and the caller
 * answers exactly as when it has not, so the call tells nothing about other accounts.
 */
export async function requestLocalEmailChange(
  db: Database,
  input: { userId: string; email: string; newEmail: string; origin: string; redirectTo?: string },
) {
  const newEmail = input.newEmail.toLowerCase();
  const statements: Parameters<Database["batch"]>[0][number][] = [];
  const mail = new LocalMail(db);
  if (!(await findByEmail(db, newEmail)) && (await mayMail(db, newEmail))) {
    const token = randomToken();
    const link = pageLink(input.origin, "email_change", token, input.redirectTo);
    statements.push(
      db.insert(authOneTimeTokens).values({
        userId: input.userId,
        kind: "email_change",
        tokenHash: await sha256(token),
        newEmail,
        redirectTo: input.redirectTo ?? null,
        expiresAt: new Date(Date.now() + EMAIL_CHANGE_TOKEN_TTL_HOURS * 3600_000).toISOString(),
      }),
      mail.insert({
        to: newEmail,
        subject: "Confirm your new email",
        text: `Confirm this address as the new sign-in email of your account:\n\n${link}\n\nThe link is valid for ${EMAIL_CHANGE_TOKEN_TTL_HOURS} hours. Until you follow it, the account keeps its current email.`,
        link,
        kind: "email_change",
      }),
    );
  }
  if (await mayMail(db, input.email)) {
    statements.push(
      mail.insert({
        to: input.email,
        subject: "Email change requested",
        text: `Someone signed in to your account asked to change its email to ${maskEmail(newEmail)}. The change happens only once the new address confirms it.\n\nIf this was not you, reset your password now: it signs every other session out.`,
        kind: "email_change_notice",
      }),
    );
  }
  if (statements.length) await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
}

/**
 * Spends an email-change token (POST /auth/v1/verify): the account (and its profile) take the new address in one batch.
 * When another account took the address meanwhile (two changes to one address, or a sign-up), the
 * unique index refuses it and the answer is `taken`, never a 500.
 */
export async function verifyEmailChangeToken(db: Database, token: string) {
  const spent = await spendToken(db, token, "email_change");
  if (!spent.ok) return spent;
  const { userId, newEmail } = spent.row;
  if (!newEmail) return { ok: false as const, reason: "invalid" as const };
  const now = new Date().toISOString();
  try {
    await db.batch([
      db.update(authUsers).set({ email: newEmail, emailConfirmedAt: sql`coalesce(${authUsers.emailConfirmedAt}, ${now})`, updatedAt: now }).where(eq(authUsers.id, userId)),
      db.update(profiles).set({ email: newEmail, updatedAt: now }).where(eq(profiles.id, userId)),
      // Other pending changes of this account end with this one.
      db
        .update(authOneTimeTokens)
        .set({ usedAt: now })
        .where(and(eq(authOneTimeTokens.userId, userId), eq(authOneTimeTokens.kind, "email_change"), isNull(authOneTimeTokens.usedAt))),
    ]);
  } catch (e) {
    if (isUniqueViolation(e)) return { ok: false as const, reason: "taken" as const };
    throw e;
  }
  const user = await db.query.authUsers.findFirst({ where: eq(authUsers.id, userId) });
  if (!user) return { ok: false as const, reason: "invalid" as const };
  return { ok: true as const, email: newEmail, user, redirectTo: spent.row.redirectTo };
}
