// Identity port: who the bearer of a token is, and the account operations the product needs.
export type VerifiedIdentity = {
  id: string;
  email: string;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
};

export type EmailChangeRequest = {
  userId: string;
  /** The account's current email (told about the change). */
  email: string;
  newEmail: string;
  /** The caller's own access token (Supabase sends its change mail for the user it names). */
  accessToken: string;
  /** Origin the confirmation link points at. */
  origin: string;
};

export interface IdentityPort {
  readonly kind: "local" | "supabase";
  /** Verifies an access token; throws ApiError 401 when it is not a valid user token. */
  verifyAccessToken(token: string): Promise<VerifiedIdentity>;
  /** Whether an account with this email exists (case-insensitive). */
  userExists(email: string): Promise<boolean>;
  /**
   * Starts a change of the signed-in account's email: a confirmation link goes to the new address
   * and the old one is told; the email changes only when the link is followed. Resolves the same
   * whether or not the new address already has an account.
   */
  requestEmailChange(request: EmailChangeRequest): Promise<void>;
}
