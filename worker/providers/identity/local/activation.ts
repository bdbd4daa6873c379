// Account activation in the local identity service (ADR 021): an account created for a buyer has no
// password; its single-use activation link (256 random bits, stored hashed, valid 72 hours) opens
// /activate-account with the token in the fragment, and the page spends it (POST /auth/v1/verify)
// for a session when the password is submitted. Activation mail counts against the hourly cap of
// account mail to one address (MAIL_PER_EMAIL), and a new link ends the older ones.
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../../../db/client";
import { authOneTimeTokens, authUsers } from "../../../db/schema";
import type { AppConfig } from "../../../env";
import { randomToken, sha256 } from "../../../lib/crypto";
import { mayMail } from "../../../db/rate-limit";
import { LocalMail } from "../../mail/local";
import { openSession, pageLink, spendToken } from "./auth";

export const ACTIVATION_TOKEN_TTL_HOURS = 72;
export const ACTIVATION_PATH = "/activate-account";

/**
 * Mails a new activation link, unless the address has had its hourly share of account mail (then
 * nothing is sent, and the caller answers the same: the links already sent still work). The new
 * link ends every older unused one, so only the newest mail activates.
 */
export async function sendLocalActivation(db: Database, input: { userId: string; email: string; origin: string; capAllows?: boolean }) {
  // The cap's verdict when the caller counted this mail in its own batch; else counted here.
  if (!(input.capAllows ?? (await mayMail(db, input.email)))) return;
  const token = randomToken(32);
  const landing = new URL(ACTIVATION_PATH, input.origin);
  landing.searchParams.set("email", input.email);
  const link = pageLink(input.origin, "invite", token, landing.toString());
  const now = new Date().toISOString();
  await db.batch([
    db
      .update(authOneTimeTokens)
      .set({ usedAt: now })
      .where(and(eq(authOneTimeTokens.userId, input.userId), eq(authOneTimeTokens.kind, "activation"), isNull(authOneTimeTokens.usedAt))),
    db.insert(authOneTimeTokens).values({
      userId: input.userId,
      kind: "activation",
      tokenHash: await sha256(token),
      redirectTo: ACTIVATION_PATH,
      expiresAt: new Date(Date.now() + ACTIVATION_TOKEN_TTL_HOURS * 3600_000).toISOString(),
    }),
    new LocalMail(db).insert({
      to: input.email,
      subject: "Activate your account",
      text: `Your account is ready. Choose a password to activate it:\n\n${link}\n\nThe link is valid for ${ACTIVATION_TOKEN_TTL_HOURS} hours and works once.`,
      link,
      kind: "activation",
    }),
  ]);
}

/**
 * Consumes an activation token (POST /auth/v1/verify): confirms the email and opens a session, so the
 * page can set the first password as the signed-in user. Only for an account that has no password yet.
 */
export async function verifyActivationToken(db: Database, config: AppConfig, token: string) {
  const spent = await spendToken(db, token, "activation");
  if (!spent.ok) return spent;
  const { row } = spent;
  const now = row.usedAt!;
  const user = await db.query.authUsers.findFirst({ where: eq(authUsers.id, row.userId) });
  if (!user || user.passwordHash) return { ok: false as const, reason: "invalid" as const };
  await db
    .update(authUsers)
    .set({ emailConfirmedAt: sql`coalesce(${authUsers.emailConfirmedAt}, ${now})`, updatedAt: now })
    .where(eq(authUsers.id, user.id));
  const session = await openSession(db, config, { ...user, emailConfirmedAt: user.emailConfirmedAt ?? now }, "password");
  return { ok: true as const, session, email: user.email };
}

/** The newest activation link mailed to an address (tests and journeys read the outbox instead). */
export const latestActivation = (db: Database, userId: string) =>
  db.query.authOneTimeTokens.findFirst({
    where: and(eq(authOneTimeTokens.userId, userId), eq(authOneTimeTokens.kind, "activation")),
    orderBy: desc(authOneTimeTokens.id),
  });
