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

  // Buyer accounts (plans and payments): created without a password, activated once (ADR 021).
  /** Finds or creates the account of this email with no password; `created` when it is new. */
  inviteAccount(input: { email: string; name?: string; company?: string }): Promise<{ userId: string; created: boolean }>;
  /** Emails the single-use activation link (to /activate-account) of an account without a password. */
  sendActivation(input: { userId: string; email: string; origin: string }): Promise<void>;
  /** Whether the account has a password already (or has signed in). */
  hasPassword(userId: string): Promise<boolean>;
  /** Sets an account's first password and confirms its email; the caller has checked the proof. */
  setFirstPassword(userId: string, password: string): Promise<void>;
}
