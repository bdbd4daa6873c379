// Identity port: who the bearer of a token is, and the account operations the product needs.
import type { BatchItem } from "drizzle-orm/batch";
import type { AccountFlags } from "@shared/schemas/admin";
import type { Database } from "../../db/client";
export type VerifiedIdentity = {
  id: string;
  email: string;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
  /** When the token was issued (seconds since the epoch), if it says. */
  issuedAt?: number;
};

/** What a token says about its bearer, its signature checked (no database read). */
export type TokenClaims = VerifiedIdentity & {
  /** The session the token belongs to (the local identity's sessions can end before the token does). */
  sessionId?: string;
};

/**
 * How a token's claims are confirmed against the database now: statements to send in one D1 batch
 * (with the caller's own, such as the profile read), and what their results mean.
 */
export type IdentityConfirmation = {
  statements: BatchItem<"sqlite">[];
  /** The identity as it stands now, from the statements' results; throws ApiError 401 when the token no longer holds. */
  read(results: unknown[]): VerifiedIdentity;
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
  /**
   * Checks an access token's signature and claims without reading the database; throws ApiError 401
   * when it is not a user token. Together with `confirmation` it is verifyAccessToken in two steps.
   */
  readClaims(token: string): Promise<TokenClaims>;
  /** The statements (built on `db`) that confirm the claims now (the local identity: its session is live). */
  confirmation(claims: TokenClaims, db: Database): IdentityConfirmation;
  /** Whether an account with this email exists (case-insensitive). */
  userExists(email: string): Promise<boolean>;
  /**
   * Whether the account `userId` has this email (case-insensitive) and has confirmed it; false for
   * an id that is not there or has another email, so only who holds the id its sign-up answered
   * with learns anything.
   */
  emailConfirmed(userId: string, email: string): Promise<boolean>;
  /**
   * Starts a change of the signed-in account's email: a confirmation link goes to the new address
   * and the old one is told; the email changes only when the link is followed. Resolves the same
   * whether or not the new address already has an account.
   */
  requestEmailChange(request: EmailChangeRequest): Promise<void>;

  // ---- admin operations (the Admin Dashboard, docs/decisions/018-admin-users.md) ----
  // Each returns the database statements that make the change, for the caller to commit in the same
  // batch as its own (the audit entry, the profile mirror): the local service's accounts live in D1.
  // A remote service (Supabase) has made the change when the promise resolves and returns none.
  /** Grants (true) or revokes (false) flags in the account's app_metadata; other keys are kept. */
  setAppFlags(userId: string, flags: Partial<AccountFlags>): Promise<BatchItem<"sqlite">[]>;
  /** Deletes the sign-in account and its sessions; an account already gone is not an error. */
  deleteUser(userId: string): Promise<BatchItem<"sqlite">[]>;

  // Buyer accounts (plans and payments): created without a password, activated once (ADR 021).
  /** Finds or creates the account of this email with no password; `created` when it is new. */
  inviteAccount(input: { email: string; name?: string; company?: string }): Promise<{ userId: string; created: boolean }>;
  /**
   * Emails the single-use activation link (to /activate-account) of an account without a password,
   * unless the hourly cap of account mail to the address is reached. `capAllows` is the cap's verdict
   * when the caller has counted this mail already (in its own batch); without it, the adapter counts.
   */
  sendActivation(input: { userId: string; email: string; origin: string; capAllows?: boolean }): Promise<void>;
  /** Whether the account has a password already (or has signed in). */
  hasPassword(userId: string): Promise<boolean>;
  /** Sets an account's first password and confirms its email; the caller has checked the proof. */
  setFirstPassword(userId: string, password: string): Promise<void>;

  /**
   * The account's app_metadata as the provider holds it now (a token carries it as of its issue),
   * or null when the provider has no such account. Read before a profile is created with a flag on.
   */
  currentAppMetadata(userId: string): Promise<Record<string, unknown> | null>;

  /**
   * Of these account ids, those the provider no longer has (deleted there); throws when it cannot
   * tell, so that a provider that did not answer never makes an account look deleted.
   */
  missingAccounts(userIds: string[]): Promise<string[]>;
}
