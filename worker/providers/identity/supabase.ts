// Supabase identity adapter: verifies Supabase access tokens and calls the Auth admin API.
import { sql } from "drizzle-orm";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from "jose";
import type { BatchItem } from "drizzle-orm/batch";
import type { AccountFlags } from "@shared/schemas/admin";
import type { Database } from "../../db/client";
import { profiles } from "../../db/schema";
import { ApiError, tooManyRequests, unauthorized } from "../../lib/errors";
import { log } from "../../lib/log";
import { mayMail } from "../../db/rate-limit";
import { fetchFailure, providerSignal } from "../timeout";
import type { EmailChangeRequest, IdentityConfirmation, IdentityPort, TokenClaims, VerifiedIdentity } from "./port";

/** What callers see when Supabase refuses an admin call; the raw answer goes to the log only. */
export const SUPABASE_GENERIC_ERROR = "The account service could not complete the request. Please try again.";
const accountServiceError = () => new ApiError(502, SUPABASE_GENERIC_ERROR, "provider_error");

/** Supabase's 422 weak_password answer (either API version's shape) as a refusal of the password field; null for any other answer. */
function weakPasswordOf(text: string): ApiError | null {
  let body: { error_code?: unknown; code?: unknown; msg?: unknown; message?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return null;
  }
  if (body.error_code !== "weak_password" && body.code !== "weak_password") return null;
  const message = typeof body.msg === "string" ? body.msg : typeof body.message === "string" ? body.message : "";
  return new ApiError(422, message || WEAK_PASSWORD_FALLBACK, "weak_password", "password");
}

/** The refusal's text when Supabase's answer carries none. */
const WEAK_PASSWORD_FALLBACK = "The password does not meet the account service's password requirements.";

/** Admin user-list pages the existence check reads at most (1,000 users a page). */
export const USER_EXISTS_MAX_PAGES = 3;
/** Pages of 1,000 accounts the provider sync reads before asking for the ids it has not seen one by one. */
export const ACCOUNT_LIST_MAX_PAGES = 100;

/**
 * Supabase's admin `filter` is matched with ILIKE '%filter%': `%` and `_` are wildcards and `\` the
 * escape character, so an email is escaped to match only itself (as a substring).
 */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

export type SupabaseSettings = {
  url: string;
  anonKey?: string;
  serviceRoleKey?: string;
  jwtSecret?: string;
  fetch?: typeof fetch;
  /** Milliseconds one request may take (default DEFAULT_PROVIDER_TIMEOUT_MS). */
  timeoutMs?: number;
};

// Key sets are cached per isolate so JWKS is fetched once, not per request.
const jwksCache = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

export class SupabaseIdentity implements IdentityPort {
  readonly kind = "supabase" as const;
  private readonly base: string;
  private readonly issuer: string;

  constructor(
    private settings: SupabaseSettings,
    private db?: Database,
  ) {
    this.base = settings.url.replace(/\/+$/, "");
    this.issuer = `${this.base}/auth/v1`;
  }

  private jwks() {
    let set = jwksCache.get(this.issuer);
    if (!set) {
      set = createRemoteJWKSet(new URL(`${this.issuer}/.well-known/jwks.json`), { cacheMaxAge: 10 * 60_000 });
      jwksCache.set(this.issuer, set);
    }
    return set;
  }

  async verifyAccessToken(token: string): Promise<VerifiedIdentity> {
    const { sessionId: _, ...identity } = await this.readClaims(token);
    return identity;
  }

  /** Nothing in D1 to confirm: Supabase's token is the identity, as verifyAccessToken gives it. */
  confirmation(claims: TokenClaims): IdentityConfirmation {
    const { sessionId: _, ...identity } = claims;
    return { statements: [], read: () => identity };
  }

  async readClaims(token: string): Promise<TokenClaims> {
    let payload: JWTPayload;
    try {
      const { alg } = decodeProtectedHeader(token);
      const options = { issuer: this.issuer, audience: "authenticated", requiredClaims: ["sub", "exp", "role"] };
      if (alg === "HS256") {
        if (!this.settings.jwtSecret) throw new Error("HS256 tokens need SUPABASE_JWT_SECRET");
        ({ payload } = await jwtVerify(token, new TextEncoder().encode(this.settings.jwtSecret), { ...options, algorithms: ["HS256"] }));
      } else if (alg === "ES256" || alg === "RS256") {
        ({ payload } = await jwtVerify(token, this.jwks(), { ...options, algorithms: [alg] }));
      } else {
        throw new Error("algorithm not accepted");
      }
    } catch {
      throw unauthorized("Invalid or expired access token");
    }
    // The anon and service-role keys are JWTs of the same project: only user tokens pass. Anonymous
    // sign-ins (is_anonymous) are users without an email or password, not customers: refused too.
    if (payload.role !== "authenticated" || typeof payload.sub !== "string" || !payload.sub || payload.is_anonymous === true) {
      throw unauthorized("Invalid or expired access token");
    }
    return {
      id: payload.sub,
      email: String(payload.email ?? ""),
      appMetadata: (payload.app_metadata as Record<string, unknown>) ?? {},
      userMetadata: (payload.user_metadata as Record<string, unknown>) ?? {},
      issuedAt: typeof payload.iat === "number" ? payload.iat : undefined,
    };
  }

  /** `missingOk`: an account the admin API does not know answers null instead of an error. */
  private async admin(path: string, init: RequestInit = {}, missingOk = false) {
    const key = this.settings.serviceRoleKey;
    if (!key) {
      log(null, "error", "Supabase admin call without SUPABASE_SERVICE_ROLE_KEY", { path: path.split("?")[0] });
      throw accountServiceError();
    }
    // Unreachable, too slow or unreadable: logged, and the caller gets the generic message (never a 500).
    const failed = (reason: string, extra: Record<string, unknown> = {}) => {
      log(null, "error", "Supabase admin call failed", { path: path.split("?")[0], reason, ...extra });
      return accountServiceError();
    };
    let res: Response;
    let text: string;
    try {
      res = await (this.settings.fetch ?? fetch)(`${this.issuer}${path}`, {
        ...init,
        headers: { apikey: key, authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers },
        signal: providerSignal(this.settings.timeoutMs),
      });
      text = await res.text();
    } catch (e) {
      throw failed(fetchFailure(e));
    }
    if (res.status === 404 && init.method === "DELETE") throw new ApiError(404, "User not found", "not_found");
    if (res.status === 404 && missingOk) return null;
    // A password the project's settings refuse (README, deploy): the caller is told which rule, in
    // Supabase's words, as GoTrue's own answer to a weak password names it.
    const weak = res.status === 422 ? weakPasswordOf(text) : null;
    if (weak) throw weak;
    if (!res.ok) {
      // The raw answer may name internals; it is logged, and the caller gets a generic message.
      throw failed(`HTTP ${res.status}`, { status: res.status, body: text.slice(0, 2000) });
    }
    if (res.status === 204 || !text) return null;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw failed("unreadable answer");
    }
  }

  async userExists(email: string) {
    const wanted = email.toLowerCase();
    // Every account that has signed in has a profile (created by the auth middleware): one indexed lookup.
    if (this.db) {
      const row = await this.db
        .select({ id: profiles.id })
        .from(profiles)
        .where(sql`lower(${profiles.email}) = ${wanted}`)
        .get();
      if (row) return true;
    }
    // Accounts that never signed in exist only at Supabase.
    return (await this.findUserId(wanted)) !== null;
  }

  async emailConfirmed(userId: string, email: string) {
    const user = (await this.admin(`/admin/users/${encodeURIComponent(userId)}`, {}, true)) as { email?: string; email_confirmed_at?: string | null } | null;
    return Boolean(user?.email_confirmed_at) && user?.email?.toLowerCase() === email.toLowerCase();
  }

  /**
   * The id of the Supabase account with this email, or null. The admin API has no exact lookup by
   * email; `filter` narrows the list to emails containing the text, and the exact match is checked
   * here. Escaped so that `_` or `%` in the text cannot widen the match, and bounded in pages.
   */
  private async findUserId(email: string): Promise<string | null> {
    const wanted = email.toLowerCase();
    const filter = encodeURIComponent(escapeLike(wanted));
    for (let page = 1; page <= USER_EXISTS_MAX_PAGES; page++) {
      const body = (await this.admin(`/admin/users?filter=${filter}&page=${page}&per_page=1000`)) as {
        users?: { id: string; email?: string }[];
      };
      const users = body?.users ?? [];
      const hit = users.find((u) => u.email?.toLowerCase() === wanted);
      if (hit) return hit.id;
      if (users.length < 1000) return null;
    }
    log(null, "warn", "account lookup stopped at its page bound", { pages: USER_EXISTS_MAX_PAGES });
    return null;
  }

  /**
   * Supabase's own email change: PUT /auth/v1/user as the user, so Supabase mails the confirmation to
   * the new address (and, with "Secure email change", to the old one). A taken address is answered
   * like a free one.
   */
  async requestEmailChange(request: EmailChangeRequest) {
    const key = this.settings.anonKey ?? this.settings.serviceRoleKey ?? "";
    const redirect = encodeURIComponent(new URL("/auth", request.origin).toString());
    let res: Response;
    let text: string;
    try {
      res = await (this.settings.fetch ?? fetch)(`${this.issuer}/user?redirect_to=${redirect}`, {
        method: "PUT",
        headers: { apikey: key, authorization: `Bearer ${request.accessToken}`, "content-type": "application/json" },
        body: JSON.stringify({ email: request.newEmail }),
        signal: providerSignal(this.settings.timeoutMs),
      });
      text = (await res.text()).slice(0, 2000);
    } catch (e) {
      log(null, "error", "Supabase email change failed", { reason: fetchFailure(e) });
      throw accountServiceError();
    }
    if (res.ok) return;
    let code = "";
    try {
      code = String((JSON.parse(text) as { error_code?: string; code?: string }).error_code ?? "");
    } catch {
      // not JSON: logged below
    }
    if (code === "email_exists" || code === "user_already_exists") return;
    if (res.status === 429) throw tooManyRequests();
    log(null, "error", "Supabase email change failed", { status: res.status, body: text });
    throw accountServiceError();
  }

  // ---- admin operations ----

  async setAppFlags(userId: string, flags: Partial<AccountFlags>): Promise<BatchItem<"sqlite">[]> {
    // GoTrue merges the app_metadata object it is sent into the stored one, so other keys stay.
    // Tokens issued before this still carry the old flags; the profile's flags_updated_at outranks them.
    await this.admin(`/admin/users/${encodeURIComponent(userId)}`, { method: "PUT", body: JSON.stringify({ app_metadata: flags }) });
    return [];
  }

  async deleteUser(userId: string): Promise<BatchItem<"sqlite">[]> {
    try {
      await this.admin(`/admin/users/${encodeURIComponent(userId)}`, { method: "DELETE" });
    } catch (e) {
      // Already gone (a retried cleanup): nothing left to delete.
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
    return [];
  }

  // Buyer accounts: created with the admin API (no mail), activated through Supabase's invite mail.
  async inviteAccount(input: { email: string; name?: string; company?: string }) {
    const existing = await this.findUserId(input.email);
    if (existing) return { userId: existing, created: false };
    try {
      const user = (await this.admin("/admin/users", {
        method: "POST",
        body: JSON.stringify({
          email: input.email,
          email_confirm: false,
          user_metadata: { username: input.name ?? null, name: input.name ?? null, company: input.company ?? null },
        }),
      })) as { id: string };
      return { userId: user.id, created: true };
    } catch (e) {
      // Created meanwhile by a concurrent request: that account is the one.
      const id = await this.findUserId(input.email);
      if (id) return { userId: id, created: false };
      throw e;
    }
  }

  /**
   * Supabase mails the invite of an unconfirmed account again; its link returns to /activate-account.
   * Capped like all account mail to one address (MAIL_PER_EMAIL, past it nothing is sent); Supabase
   * keeps one confirmation token per account, so a new invite ends the older links.
   */
  async sendActivation(input: { userId: string; email: string; origin: string; capAllows?: boolean }) {
    if (input.capAllows === false) return;
    if (input.capAllows === undefined && this.db && !(await mayMail(this.db, input.email))) return;
    const redirect = encodeURIComponent(new URL(`/activate-account?email=${encodeURIComponent(input.email)}`, input.origin).toString());
    await this.admin(`/invite?redirect_to=${redirect}`, { method: "POST", body: JSON.stringify({ email: input.email }) });
  }

  async hasPassword(userId: string) {
    const user = (await this.admin(`/admin/users/${encodeURIComponent(userId)}`)) as { last_sign_in_at?: string | null };
    // Supabase does not say whether a password is set; an account that has signed in has one.
    return Boolean(user?.last_sign_in_at);
  }

  async currentAppMetadata(userId: string) {
    const user = (await this.admin(`/admin/users/${encodeURIComponent(userId)}`, {}, true)) as { app_metadata?: Record<string, unknown> } | null;
    return user ? (user.app_metadata ?? {}) : null;
  }

  /**
   * The project's accounts are listed a page at a time (1,000 a page, at most
   * ACCOUNT_LIST_MAX_PAGES pages); an id the list did not show is then asked for by itself, since
   * an account created while the pages were read can shift one past a page's end. Only an id the
   * admin API answers 404 for is missing; any failure throws.
   */
  async missingAccounts(userIds: string[]) {
    if (userIds.length === 0) return [];
    const unseen = new Set(userIds);
    for (let page = 1; page <= ACCOUNT_LIST_MAX_PAGES && unseen.size > 0; page++) {
      const body = (await this.admin(`/admin/users?page=${page}&per_page=1000`)) as { users?: { id: string }[] };
      const users = body?.users ?? [];
      for (const u of users) unseen.delete(u.id);
      if (users.length < 1000) break;
    }
    const missing: string[] = [];
    for (const id of unseen) {
      if ((await this.admin(`/admin/users/${encodeURIComponent(id)}`, {}, true)) === null) missing.push(id);
    }
    return missing;
  }

  async setFirstPassword(userId: string, password: string) {
    await this.admin(`/admin/users/${encodeURIComponent(userId)}`, {
      method: "PUT",
      body: JSON.stringify({ password, email_confirm: true }),
    });
  }
}
