// Supabase identity adapter: verifies Supabase access tokens and calls the Auth admin API.
import { sql } from "drizzle-orm";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from "jose";
import type { Database } from "../../db/client";
import { profiles } from "../../db/schema";
import { providerError, unauthorized } from "../../lib/errors";
import type { IdentityPort, VerifiedIdentity } from "./port";

export type SupabaseSettings = {
  url: string;
  anonKey?: string;
  serviceRoleKey?: string;
  jwtSecret?: string;
  fetch?: typeof fetch;
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
    // The anon and service-role keys are JWTs of the same project: only user tokens pass.
    if (payload.role !== "authenticated" || typeof payload.sub !== "string" || !payload.sub) {
      throw unauthorized("Invalid or expired access token");
    }
    return {
      id: payload.sub,
      email: String(payload.email ?? ""),
      appMetadata: (payload.app_metadata as Record<string, unknown>) ?? {},
      userMetadata: (payload.user_metadata as Record<string, unknown>) ?? {},
    };
  }

  private async admin(path: string, init: RequestInit = {}) {
    const key = this.settings.serviceRoleKey;
    if (!key) throw providerError("Supabase", "SUPABASE_SERVICE_ROLE_KEY is not set");
    const res = await (this.settings.fetch ?? fetch)(`${this.issuer}${path}`, {
      ...init,
      headers: { apikey: key, authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers },
    });
    if (!res.ok) throw providerError("Supabase", `${res.status} ${await res.text()}`);
    return res.status === 204 ? null : res.json();
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
    // Accounts that never signed in exist only at Supabase. The admin API has no exact lookup by email;
    // `filter` narrows the list to emails containing the text, and the exact match is checked here.
    const filter = encodeURIComponent(wanted);
    for (let page = 1; page <= 50; page++) {
      const body = (await this.admin(`/admin/users?filter=${filter}&page=${page}&per_page=1000`)) as {
        users?: { email?: string }[];
      };
      const users = body?.users ?? [];
      if (users.some((u) => u.email?.toLowerCase() === wanted)) return true;
      if (users.length < 1000) return false;
    }
    return false;
  }

  async updateEmail(userId: string, newEmail: string) {
    await this.admin(`/admin/users/${encodeURIComponent(userId)}`, {
      method: "PUT",
      body: JSON.stringify({ email: newEmail, email_confirm: true }),
    });
  }

  // Buyer accounts: created with the admin API (no mail), activated through Supabase's invite mail.
  async inviteAccount(input: { email: string; name?: string; company?: string }) {
    const key = this.settings.serviceRoleKey;
    if (!key) throw providerError("Supabase", "SUPABASE_SERVICE_ROLE_KEY is not set");
    const res = await (this.settings.fetch ?? fetch)(`${this.issuer}/admin/users`, {
      method: "POST",
      headers: { apikey: key, authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        email: input.email,
        email_confirm: false,
        user_metadata: { username: input.name ?? null, name: input.name ?? null, company: input.company ?? null },
      }),
    });
    if (res.ok) return { userId: ((await res.json()) as { id: string }).id, created: true };
    const body = await res.text();
    if (res.status !== 422 && !/email_exists|already/i.test(body)) throw providerError("Supabase", `${res.status} ${body}`);
    const id = await this.findUserId(input.email);
    if (!id) throw providerError("Supabase", `${res.status} ${body}`);
    return { userId: id, created: false };
  }

  private async findUserId(email: string): Promise<string | null> {
    const wanted = email.toLowerCase();
    const filter = encodeURIComponent(wanted);
    for (let page = 1; page <= 50; page++) {
      const body = (await this.admin(`/admin/users?filter=${filter}&page=${page}&per_page=1000`)) as { users?: { id: string; email?: string }[] };
      const users = body?.users ?? [];
      const hit = users.find((u) => u.email?.toLowerCase() === wanted);
      if (hit) return hit.id;
      if (users.length < 1000) return null;
    }
    return null;
  }

  async sendActivation(input: { userId: string; email: string; origin: string }) {
    // Supabase mails the invite of an unconfirmed account again; its link returns to /activate-account.
    const redirect = encodeURIComponent(new URL(`/activate-account?email=${encodeURIComponent(input.email)}`, input.origin).toString());
    await this.admin(`/invite?redirect_to=${redirect}`, { method: "POST", body: JSON.stringify({ email: input.email }) });
  }

  async hasPassword(userId: string) {
    const user = (await this.admin(`/admin/users/${encodeURIComponent(userId)}`)) as { last_sign_in_at?: string | null };
    // Supabase does not say whether a password is set; an account that has signed in has one.
    return Boolean(user?.last_sign_in_at);
  }

  async setFirstPassword(userId: string, password: string) {
    await this.admin(`/admin/users/${encodeURIComponent(userId)}`, {
      method: "PUT",
      body: JSON.stringify({ password, email_confirm: true }),
    });
  }
}
