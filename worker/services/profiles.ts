// Profiles (docs/product/README.md#records, docs/product/api.md#api): the signed-in account's own profile, read and updated. Flags are
// mirrored from the identity's app_metadata, never from user_metadata or anything the client sends.
import { eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { CurrentUserView, UpdateUserProfileBody } from "@shared/schemas/auth";
import type { Database } from "../db/client";
import { deletedAccounts, profiles } from "../db/schema";
import { openShardWithMostRoom, placeAccount } from "../db/shards";
import { forbidden, unauthorized } from "../lib/errors";
import { log } from "../lib/log";
import type { IdentityPort, TokenClaims, VerifiedIdentity } from "../providers/identity/port";
import type { IsolateReads } from "./isolate-reads";

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
  /** The shard holding the account's calls, alerts and webhooks (decision 076): a D1 binding's name. */
  shard: string;
};

const flag = (v: unknown) => v === true || v === "true" || v === 1;

/**
 * A token issued before an admin last changed the account's flags carries the old app_metadata (the
 * identity provider copies it into the token when issuing it): the profile, written with the change,
 * is then the fresher state, so an admin's grant or revocation holds from the account's next request.
 */
function issuedBeforeFlagChange(who: VerifiedIdentity, flagsUpdatedAt: string | null) {
  if (!flagsUpdatedAt || who.issuedAt === undefined) return false;
  return who.issuedAt * 1000 < Date.parse(flagsUpdatedAt);
}

const flagsOf = (appMetadata: Record<string, unknown>) => ({
  isAdmin: flag(appMetadata.is_admin),
  shopwindowsInfo: flag(appMetadata.shopwindows_info),
  callApp: flag(appMetadata.call_app),
});

/** The account has been deleted (docs/decisions/040-no-local-adapter-in-production.md). */
export const ACCOUNT_DELETED = "This account has been deleted";

/**
 * The flags a new profile starts with: none unless the token grants one, and then those the identity
 * provider holds now; null when the provider no longer has the account. A provider that cannot
 * answer leaves them off.
 */
async function confirmedFlags(identity: IdentityPort, who: VerifiedIdentity) {
  const claimed = flagsOf(who.appMetadata);
  const off = flagsOf({});
  if (!claimed.isAdmin && !claimed.shopwindowsInfo && !claimed.callApp) return off;
  try {
    const current = await identity.currentAppMetadata(who.id);
    return current ? flagsOf(current) : null;
  } catch (e) {
    log(null, "warn", "flags of a new profile could not be confirmed: they start off", { userId: who.id, error: (e as Error).message });
    return off;
  }
}

type ProfileRow = typeof profiles.$inferSelect;

/**
 * What the profile must be told for this identity: the flags, when they follow the identity (unless
 * its token was issued before an admin changed them: then the profile, written by the admin, wins),
 * and the email once a confirmed change reaches it. null when the profile already says so.
 */
function profileChanges(who: VerifiedIdentity, row: ProfileRow) {
  const flags = flagsOf(who.appMetadata);
  const flagsChanged =
    (row.isAdmin !== flags.isAdmin || row.shopwindowsInfo !== flags.shopwindowsInfo || row.callApp !== flags.callApp) &&
    !issuedBeforeFlagChange(who, row.flagsUpdatedAt);
  const email = who.email ? who.email.toLowerCase() : row.email;
  return flagsChanged || email !== row.email ? { ...(flagsChanged ? flags : {}), email } : null;
}

const userOf = (row: ProfileRow & { shard: string }): CurrentUser => ({
  id: row.id,
  email: row.email,
  username: row.username,
  company: row.company,
  firstName: row.firstName,
  lastName: row.lastName,
  isAdmin: row.isAdmin,
  shopwindowsInfo: row.shopwindowsInfo,
  callApp: row.callApp,
  shard: row.shard,
});

/**
 * Reads the profile, creating or re-mirroring it from the verified identity when needed. A deleted
 * account's token (decision 040) is refused rather than given a profile again. `known` is the
 * profile row when the caller has read it already (in the batch that confirmed the identity).
 * A profile without a shard (made before the shards, or while the directory knew none) is placed
 * on one of `shardsBound`, the Worker's shard bindings.
 */
export async function loadProfile(
  db: Database,
  identity: IdentityPort,
  who: VerifiedIdentity,
  known: { row: ProfileRow | undefined } | undefined,
  shardsBound: readonly string[],
): Promise<CurrentUser> {
  let row = known ? known.row : await db.query.profiles.findFirst({ where: eq(profiles.id, who.id) });
  if (!row) {
    const deleted = await db.select({ id: deletedAccounts.userId }).from(deletedAccounts).where(eq(deletedAccounts.userId, who.id)).get();
    if (deleted) throw unauthorized(ACCOUNT_DELETED);
    const startFlags = await confirmedFlags(identity, who);
    if (!startFlags) throw unauthorized(ACCOUNT_DELETED);
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
          ...startFlags,
          // The token that creates the profile cannot switch flags on at its next request; a token
          // issued later carries the provider's state (decision 018).
          flagsUpdatedAt: new Date().toISOString(),
          // Placed in the same statement, so the row it returns names its shard (decision 076).
          shard: sql`(${openShardWithMostRoom(shardsBound)})`,
        })
        .onConflictDoNothing()
        .returning();
    } catch (e) {
      log(null, "warn", "profile insert failed", { userId: who.id, error: (e as Error).message });
    }
    row ??= await db.query.profiles.findFirst({ where: eq(profiles.id, who.id) });
  } else {
    const changes = profileChanges(who, row);
    if (changes) {
      await db.update(profiles).set({ ...changes, updatedAt: new Date().toISOString() }).where(eq(profiles.id, who.id));
      row = { ...row, ...changes };
    }
  }
  if (!row) throw unauthorized("No profile for this account");
  return userOf({ ...row, shard: row.shard ?? (await placeAccount(db, shardsBound, row.id)) });
}

/**
 * One D1 batch that confirms a token's claims: the identity's own statements and the profile read.
 * `read` gives the identity as it stands now (or throws 401 as verifyAccessToken would) and the row.
 */
export function identityCheck(db: Database, identity: IdentityPort, claims: TokenClaims) {
  const confirmation = identity.confirmation(claims, db);
  const statements: BatchItem<"sqlite">[] = [...confirmation.statements, db.select().from(profiles).where(eq(profiles.id, claims.id)).limit(1)];
  return {
    statements: statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]],
    read(results: unknown[]) {
      const who = confirmation.read(results.slice(0, confirmation.statements.length));
      const [row] = results[confirmation.statements.length] as ProfileRow[];
      return { who, row: row as ProfileRow | undefined };
    },
  };
}

/**
 * The signed-in user behind an access token, as the database has it now: the token's signature and
 * claims checked (no database), then the identity's confirmation (the local identity: its session is
 * live) and the profile read in one D1 batch, then loadProfile on that row (more round trips only to
 * create or re-mirror the profile). Throws ApiError 401 when the token does not hold.
 */
export async function confirmSignedIn(
  db: Database,
  identity: IdentityPort,
  token: string,
  shardsBound: readonly string[],
  /** Reads of the isolate's own (not the account's) to send in the same batch, after the confirmation's (services/warm-up.ts). */
  isolateReads?: (claims: TokenClaims) => IsolateReads | null,
): Promise<CurrentUser> {
  const claims = await identity.readClaims(token);
  const check = identityCheck(db, identity, claims);
  const alsoRead = isolateReads?.(claims);
  const results = await db.batch([...check.statements, ...(alsoRead?.statements ?? [])]);
  const { who, row } = check.read(results.slice(0, check.statements.length));
  alsoRead?.read(results.slice(check.statements.length));
  return loadProfile(db, identity, who, { row }, shardsBound);
}

export function toCurrentUserView(u: CurrentUser): CurrentUserView {
  return {
    id: u.id,
    email: u.email,
    username: u.username,
    company: u.company,
    first_name: u.firstName,
    last_name: u.lastName,
    is_admin: u.isAdmin,
    shopwindows_info: u.shopwindowsInfo,
    call_app: u.callApp,
  };
}

/** Whether the body asks to move the account to another email. */
export const asksEmailChange = (user: CurrentUser, body: UpdateUserProfileBody) =>
  Boolean(body.newEmail && body.newEmail.toLowerCase() !== user.email.toLowerCase());

/**
 * Updates the signed-in account's own profile, whatever email the body names (another email is
 * refused). A new email is not written: the identity provider mails a confirmation link to it, and
 * the email changes when the link is followed. The answer is the same whether or not the new address
 * already has an account.
 */
export async function updateOwnProfile(
  deps: { db: Database; identity: IdentityPort },
  user: CurrentUser,
  body: UpdateUserProfileBody,
  session: { accessToken: string; origin: string },
) {
  if (body.email.toLowerCase() !== user.email.toLowerCase()) throw forbidden("You can only update your own profile");
  const emailChangeSent = asksEmailChange(user, body);
  if (emailChangeSent) {
    await deps.identity.requestEmailChange({ userId: user.id, email: user.email, newEmail: body.newEmail!, ...session });
  }
  const [row] = await deps.db
    .update(profiles)
    .set({
      username: body.username,
      ...(body.company !== undefined ? { company: body.company } : {}),
      updatedAt: new Date().toISOString(),
    })
    .where(eq(profiles.id, user.id))
    .returning();
  return { profile: { username: row.username, company: row.company, email: row.email }, emailChangeSent };
}
