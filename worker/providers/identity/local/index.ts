// Local identity adapter: verifies tokens issued by the Worker's own /auth/v1 service.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { jwtVerify } from "jose";
import type { Database } from "../../../db/client";
import type { BatchItem } from "drizzle-orm/batch";
import type { AccountFlags } from "@shared/schemas/admin";
import { requestLocalEmailChange } from "./account-links";
import { sessionExpired } from "./auth";
import { authOneTimeTokens, authRefreshTokens, authSessions, authUsers, profiles } from "../../../db/schema";
import { isUniqueViolation, jsonList } from "../../../db/client";
import { hashPassword } from "../../../lib/crypto";
import { sendLocalActivation } from "./activation";
import { unauthorized } from "../../../lib/errors";
import type { EmailChangeRequest, IdentityConfirmation, IdentityPort, TokenClaims, VerifiedIdentity } from "../port";
import { LOCAL_AUDIENCE, LOCAL_ISSUER } from "./tokens";

type AuthUserRow = typeof authUsers.$inferSelect;
type SessionRow = { user: AuthUserRow; session: { createdAt: string; updatedAt: string } };

/** The identity of an account as the local service holds it now (no issue time: nothing is older than the row). */
const identityOf = (user: AuthUserRow): VerifiedIdentity => ({ id: user.id, email: user.email, appMetadata: user.appMetadata, userMetadata: user.userMetadata });

export { DEV_AUTH_SECRET, LOCAL_AUDIENCE, LOCAL_ISSUER } from "./tokens";

export class LocalIdentity implements IdentityPort {
  readonly kind = "local" as const;
  readonly key: Uint8Array;

  constructor(
    private db: Database,
    secret: string,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /** The claims of a local access token, its signature, issuer, audience and expiry checked; throws 401 otherwise. */
  async readClaims(token: string): Promise<TokenClaims & { sessionId: string }> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ["HS256"],
        issuer: LOCAL_ISSUER,
        audience: LOCAL_AUDIENCE,
        requiredClaims: ["sub", "exp", "role"],
      });
      if (payload.role !== "authenticated" || typeof payload.sub !== "string") throw new Error("not a user token");
      const sessionId = payload.session_id;
      if (typeof sessionId !== "string") throw new Error("no session");
      const record = (v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
      return {
        id: payload.sub,
        email: typeof payload.email === "string" ? payload.email : "",
        appMetadata: record(payload.app_metadata),
        userMetadata: record(payload.user_metadata),
        issuedAt: typeof payload.iat === "number" ? payload.iat : undefined,
        sessionId,
      };
    } catch {
      throw unauthorized("Invalid or expired access token");
    }
  }

  /**
   * One lookup confirms a local token: the user, and that the session was not signed out (signed-out
   * sessions end at once, not at token expiry) nor past its lifetime or idle too long.
   */
  #sessionLookup(claims: TokenClaims, db: Database) {
    return db
      // Aliased: in a batch, D1 answers rows as objects, where the session's created_at and
      // updated_at would overwrite the user's.
      .select({
        user: authUsers,
        session: {
          createdAt: sql<string>`${authSessions.createdAt}`.as("session_created_at"),
          updatedAt: sql<string>`${authSessions.updatedAt}`.as("session_updated_at"),
        },
      })
      .from(authUsers)
      .innerJoin(authSessions, and(eq(authSessions.userId, authUsers.id), eq(authSessions.id, claims.sessionId ?? ""), isNull(authSessions.revokedAt)))
      .where(eq(authUsers.id, claims.id));
  }

  #liveUser(row: SessionRow | undefined): AuthUserRow {
    if (!row || sessionExpired(row.session)) throw unauthorized("Invalid or expired access token");
    return row.user;
  }

  /** The user and session behind a local access token; throws 401 unless both are live. */
  async verifySession(token: string): Promise<{ user: AuthUserRow; sessionId: string }> {
    const claims = await this.readClaims(token);
    let row;
    try {
      row = await this.#sessionLookup(claims, this.db).get();
    } catch {
      throw unauthorized("Invalid or expired access token");
    }
    return { user: this.#liveUser(row), sessionId: claims.sessionId };
  }

  async verifyAccessToken(token: string): Promise<VerifiedIdentity> {
    const { user } = await this.verifySession(token);
    return identityOf(user);
  }

  confirmation(claims: TokenClaims, db: Database): IdentityConfirmation {
    return {
      statements: [this.#sessionLookup(claims, db).limit(1)],
      // The flags and email are the account's as they stand now, as verifyAccessToken gives them.
      read: ([rows]) => identityOf(this.#liveUser((rows as SessionRow[])[0])),
    };
  }

  async userExists(email: string) {
    const row = await this.db
      .select({ id: authUsers.id })
      .from(authUsers)
      .where(sql`lower(${authUsers.email}) = ${email.toLowerCase()}`)
      .get();
    return Boolean(row);
  }

  async emailConfirmed(userId: string, email: string) {
    const row = await this.db
      .select({ email: authUsers.email, confirmedAt: authUsers.emailConfirmedAt })
      .from(authUsers)
      .where(eq(authUsers.id, userId))
      .get();
    return Boolean(row?.confirmedAt) && row?.email.toLowerCase() === email.toLowerCase();
  }

  async requestEmailChange(request: EmailChangeRequest) {
    await requestLocalEmailChange(this.db, request);
  }

  // ---- admin operations ----

  async setAppFlags(userId: string, flags: Partial<AccountFlags>): Promise<BatchItem<"sqlite">[]> {
    // json_set keeps every other app_metadata key; the token check reads this row on every request,
    // so the change holds from the account's next request.
    const sets = Object.entries(flags).flatMap(([k, v]) => [sql`${"$." + k}`, sql`json(${v ? "true" : "false"})`]);
    if (sets.length === 0) return [];
    return [
      this.db
        .update(authUsers)
        .set({ appMetadata: sql`json_set(${authUsers.appMetadata}, ${sql.join(sets, sql`, `)})`, updatedAt: new Date().toISOString() })
        .where(eq(authUsers.id, userId)),
    ];
  }

  async deleteUser(userId: string): Promise<BatchItem<"sqlite">[]> {
    // Sessions and one-time tokens cascade from auth_users; refresh tokens carry no foreign key.
    return [
      this.db.delete(authRefreshTokens).where(eq(authRefreshTokens.userId, userId)),
      this.db.delete(authOneTimeTokens).where(eq(authOneTimeTokens.userId, userId)),
      this.db.delete(authSessions).where(eq(authSessions.userId, userId)),
      this.db.delete(authUsers).where(eq(authUsers.id, userId)),
    ];
  }

  async inviteAccount(input: { email: string; name?: string; company?: string }) {
    const email = input.email.toLowerCase();
    const existing = await this.db.select({ id: authUsers.id }).from(authUsers).where(sql`lower(${authUsers.email}) = ${email}`).get();
    if (existing) return { userId: existing.id, created: false };
    const id = crypto.randomUUID();
    const userMetadata = { username: input.name ?? null, name: input.name ?? null, company: input.company ?? null };
    try {
      await this.db.batch([
        this.db.insert(authUsers).values({ id, email, passwordHash: null, userMetadata, appMetadata: {} }),
        this.db.insert(profiles).values({ id, email, username: input.name ?? null, company: input.company ?? null, isAdmin: false }).onConflictDoNothing(),
      ]);
      return { userId: id, created: true };
    } catch (e) {
      // A concurrent delivery created it first (auth_users_email_uq).
      if (!isUniqueViolation(e)) throw e;
      const row = await this.db.select({ id: authUsers.id }).from(authUsers).where(sql`lower(${authUsers.email}) = ${email}`).get();
      if (!row) throw e;
      return { userId: row.id, created: false };
    }
  }

  async sendActivation(input: { userId: string; email: string; origin: string; capAllows?: boolean }) {
    await sendLocalActivation(this.db, input);
  }

  async hasPassword(userId: string) {
    const row = await this.db.select({ hash: authUsers.passwordHash }).from(authUsers).where(eq(authUsers.id, userId)).get();
    return Boolean(row?.hash);
  }

  async currentAppMetadata(userId: string) {
    const row = await this.db.select({ appMetadata: authUsers.appMetadata }).from(authUsers).where(eq(authUsers.id, userId)).get();
    return row ? row.appMetadata : null;
  }

  async missingAccounts(userIds: string[]) {
    if (userIds.length === 0) return [];
    // The list as one JSON parameter: any number of ids under D1's bound parameters.
    const present = await this.db.select({ id: authUsers.id }).from(authUsers).where(inArray(authUsers.id, jsonList(userIds)));
    const have = new Set(present.map((r) => r.id));
    return userIds.filter((id) => !have.has(id));
  }

  async setFirstPassword(userId: string, password: string) {
    const now = new Date().toISOString();
    await this.db
      .update(authUsers)
      .set({ passwordHash: await hashPassword(password), emailConfirmedAt: sql`coalesce(${authUsers.emailConfirmedAt}, ${now})`, updatedAt: now })
      .where(eq(authUsers.id, userId));
  }
}
