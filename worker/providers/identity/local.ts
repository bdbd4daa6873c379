// Local identity adapter: verifies tokens issued by the Worker's own /auth/v1 service.
import { eq, sql } from "drizzle-orm";
import { jwtVerify } from "jose";
import type { Database } from "../../db/client";
import { authUsers } from "../../db/schema";
import { unauthorized } from "../../lib/errors";
import type { IdentityPort, VerifiedIdentity } from "./port";

export const LOCAL_ISSUER = "voice-agent-ops/local-auth";
export const LOCAL_AUDIENCE = "authenticated";
/** Development-only signing secret, used when LOCAL_AUTH_SECRET is unset outside production. */
export const DEV_AUTH_SECRET = "local-development-secret-not-for-production-use-0001";

export class LocalIdentity implements IdentityPort {
  readonly kind = "local" as const;
  readonly key: Uint8Array;

  constructor(
    private db: Database,
    secret: string,
    private onResend: (email: string, redirectTo: string | undefined) => Promise<void> = async () => {},
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async verifyAccessToken(token: string): Promise<VerifiedIdentity> {
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
      // Signed-out sessions end at once, not at token expiry.
      const row = await this.db.run(
        sql`select 1 from auth_sessions where id = ${sessionId} and user_id = ${payload.sub} and revoked_at is null`,
      );
      if (!row.results?.length) throw new Error("session ended");
      const user = await this.db.query.authUsers.findFirst({ where: eq(authUsers.id, payload.sub) });
      if (!user) throw new Error("unknown user");
      return { id: user.id, email: user.email, appMetadata: user.appMetadata, userMetadata: user.userMetadata };
    } catch {
      throw unauthorized("Invalid or expired access token");
    }
  }

  async userExists(email: string) {
    const row = await this.db
      .select({ id: authUsers.id })
      .from(authUsers)
      .where(sql`lower(${authUsers.email}) = ${email.toLowerCase()}`)
      .get();
    return Boolean(row);
  }

  async resendSignupConfirmation(email: string, redirectTo: string | undefined) {
    await this.onResend(email, redirectTo);
  }

  async updateEmail(userId: string, newEmail: string) {
    await this.db
      .update(authUsers)
      .set({ email: newEmail.toLowerCase(), updatedAt: new Date().toISOString() })
      .where(eq(authUsers.id, userId));
  }
}
