// Identity port: who the bearer of a token is, and the account operations the product needs.
export type VerifiedIdentity = {
  id: string;
  email: string;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
};

export interface IdentityPort {
  readonly kind: "local" | "supabase";
  /** Verifies an access token; throws ApiError 401 when it is not a valid user token. */
  verifyAccessToken(token: string): Promise<VerifiedIdentity>;
  /** Whether an account with this email exists (case-insensitive). */
  userExists(email: string): Promise<boolean>;
  /** Changes the sign-in email of an account (admin operation). */
  updateEmail(userId: string, newEmail: string): Promise<void>;
}
