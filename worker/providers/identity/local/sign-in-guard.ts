// Brute-force guard of the local identity service ([013](../../docs/decisions/013-brute-force-limits.md)).
// Every password check against an email from one client address (its bucket: IPv4, or IPv6 /64)
// counts as a failure until it succeeds. After a few failures each further check from that address
// waits a growing delay, capped low; a new password (recovery) lifts every delay of the email. Counted
// per (email, address), so a stranger's failures delay only the stranger, never the owner signing in
// from elsewhere; and whether or not an account has the email, so a delay never tells that an account
// exists. A check during a delay does no PBKDF2 work at all.
import { eq, lt, sql } from "drizzle-orm";
import type { Database } from "../../../db/client";
import { authSignInFailures } from "../../../db/schema";
import { ApiError } from "../../../lib/errors";

/** Failures allowed before the first delay. */
export const SIGN_IN_FREE_FAILURES = 5;
/** The delay never grows past this. */
export const SIGN_IN_MAX_DELAY_SECONDS = 300;
/** Failures older than this are forgotten (the count starts again). */
export const SIGN_IN_FAILURE_MEMORY_SECONDS = 3600;

/** Seconds of delay after the `failures`-th failure: none for the first few, then 2, 4, 8... up to the cap. */
export function signInDelaySeconds(failures: number) {
  if (failures < SIGN_IN_FREE_FAILURES) return 0;
  return Math.min(SIGN_IN_MAX_DELAY_SECONDS, 2 ** (failures - SIGN_IN_FREE_FAILURES + 1));
}

export const signInLocked = (retryAfterSeconds: number) =>
  new ApiError(
    429,
    `Too many failed sign-in attempts. Try again in ${retryAfterSeconds} seconds or reset your password.`,
    "over_request_rate_limit",
    undefined,
    {
      msg: `Too many failed sign-in attempts. Try again in ${retryAfterSeconds} seconds or reset your password.`,
      error_code: "over_request_rate_limit",
      retry_after: retryAfterSeconds,
    },
  );

/** The counter row of (email, address bucket). */
export const signInFailureKey = (email: string, address: string) => `${email.toLowerCase()}|${address}`;

/**
 * Counts an attempt against `email` from the client address bucket `address` before its password is checked, in one statement: the counter
 * only moves while no delay is running, and the delay is set by the same write, so concurrent
 * guesses cannot slip past it. Throws 429 (no password check) while a delay runs.
 */
export async function beginSignInAttempt(db: Database, email: string, address: string, now = Date.now()) {
  const key = signInFailureKey(email, address);
  const forgetBefore = now - SIGN_IN_FAILURE_MEMORY_SECONDS * 1000;
  const free = SIGN_IN_FREE_FAILURES;
  const cap = SIGN_IN_MAX_DELAY_SECONDS;
  // The failure count after this attempt, and its delay (signInDelaySeconds in SQL).
  const next = sql`(case when auth_sign_in_failures.last_failed_at < ${forgetBefore} then 1 else auth_sign_in_failures.failures + 1 end)`;
  const row = await db.get<{ failures: number }>(sql`
    insert into auth_sign_in_failures (email, failures, last_failed_at, locked_until)
    values (${key}, 1, ${now}, ${free <= 1 ? now + 2000 : null})
    on conflict(email) do update set
      failures = ${next},
      last_failed_at = ${now},
      locked_until = case when ${next} >= ${free} then ${now} + min(${cap}, 1 << (${next} - ${free} + 1)) * 1000 else null end
    where auth_sign_in_failures.locked_until is null or auth_sign_in_failures.locked_until <= ${now}
    returning failures`);
  if (!row) {
    const locked = await db.query.authSignInFailures.findFirst({ where: eq(authSignInFailures.email, key) });
    throw signInLocked(Math.max(1, Math.ceil(((locked?.lockedUntil ?? now) - now) / 1000)));
  }
}

/** A correct password clears the count of the address it came from (other addresses' counts stay). */
export async function clearSignInFailures(db: Database, email: string, address: string) {
  await db.delete(authSignInFailures).where(eq(authSignInFailures.email, signInFailureKey(email, address)));
}

/** Deletes the counts of `email` from every address (a new password lifts every delay). */
export const clearAllSignInFailures = (db: Database, email: string) => {
  const prefix = `${email.toLowerCase()}|`;
  return db.delete(authSignInFailures).where(sql`substr(${authSignInFailures.email}, 1, ${prefix.length}) = ${prefix}`);
};

/** Deletes counts no attempt has touched for a day; returns how many (daily job). */
export async function pruneSignInFailures(db: Database, now = Date.now()) {
  const gone = await db
    .delete(authSignInFailures)
    .where(lt(authSignInFailures.lastFailedAt, now - 86_400_000))
    .returning({ email: authSignInFailures.email });
  return gone.length;
}
