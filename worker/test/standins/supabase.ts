// Supabase Auth stand-in for the real identity adapter's tests: the JWKS document, the admin
// user endpoints, a direct sign-up and the user's own update, with Supabase's paths, key headers,
// answer shapes and password settings.
// Every path may carry a prefix (`/p/<name>/auth/v1/...`): each prefix is its own project with its
// own users and request counts, so tests stay independent while sharing one server.
// Test-only calls live under /test: sign claims with the project keys, seed users, read the state.
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose";
import type { StandinHandler, StandinResponse } from "./server";

/** Fixed keys the stand-in expects; tests import these (this module does no I/O when imported). */
export const SUPABASE_STANDIN = {
  serviceRoleKey: "standin-service-role-key",
  anonKey: "standin-anon-key",
  esKid: "standin-es256",
  rsKid: "standin-rs256",
} as const;

/**
 * The Supabase Auth password settings the README's deploy section asks for (decision 039), as the
 * Management API names them. Hosted Supabase offers a few fixed character sets; the one here refuses
 * every password the product's policy (8+ characters, an uppercase letter and a digit) refuses, and an
 * all-capitals one besides. Every stand-in project enforces them unless a test sets others
 * (POST /test/password-policy), such as self-hosted GoTrue's exact `ABCDEFGHIJKLMNOPQRSTUVWXYZ:0123456789`.
 */
export const SUPABASE_PASSWORD_SETTINGS = {
  password_min_length: 8,
  password_required_characters: "abcdefghijklmnopqrstuvwxyz:ABCDEFGHIJKLMNOPQRSTUVWXYZ:0123456789",
} as const;

type PasswordPolicy = { minLength: number; requiredCharacters: string[] };

/** GoTrue's reading of GOTRUE_PASSWORD_REQUIRED_CHARACTERS: sets separated by `:`, a `\:` being a colon inside a set. */
export function requiredCharacterSets(value: string): string[] {
  const parts = value.split(":");
  for (let i = 0; i < parts.length - 1; i++) {
    if (parts[i].endsWith("\\")) {
      parts[i] = `${parts[i].slice(0, -1)}:${parts[i + 1]}`;
      parts[i + 1] = "";
    }
  }
  return parts.filter(Boolean);
}

/**
 * GoTrue's checkPasswordStrength: the reasons (`length`, `characters`) and its messages, or null.
 * The length is counted in bytes, as Go's len() counts a string.
 */
export function passwordWeakness(policy: PasswordPolicy, password: string): { reasons: string[]; message: string } | null {
  const reasons: string[] = [];
  const messages: string[] = [];
  if (new TextEncoder().encode(password).length < policy.minLength) {
    reasons.push("length");
    messages.push(`Password should be at least ${policy.minLength} characters.`);
  }
  if (policy.requiredCharacters.some((set) => ![...set].some((ch) => password.includes(ch)))) {
    reasons.push("characters");
    messages.push(`Password should contain at least one character of each: ${policy.requiredCharacters.join(", ")}.`);
  }
  return reasons.length ? { reasons, message: messages.join(" ") } : null;
}

type StandinUser = {
  id: string;
  aud: string;
  role: string;
  email: string;
  email_confirmed_at: string | null;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  last_sign_in_at?: string | null;
  invited_at?: string | null;
  /** Stand-in only: whether a password was set through the admin API. */
  has_password?: boolean;
};

type Project = {
  users: Map<string, StandinUser>;
  counts: { jwks: number; adminList: number; adminUpdate: number; adminDelete: number };
  /** Email changes asked through PUT /auth/v1/user: Supabase would mail `new_email` a confirmation link. */
  emailChanges: { id: string; new_email: string; redirect_to: string | null }[];
  /** Invite mails Supabase would have sent: the address and the redirect. */
  invites?: { email: string; redirectTo: string | null }[];
  /** Confirmation mails Supabase would have sent after a sign-up. */
  confirmations?: { email: string; redirectTo: string | null }[];
  /** The project's password settings (SUPABASE_PASSWORD_SETTINGS unless a test set others). */
  password: PasswordPolicy;
};

/** Supabase matches the admin `filter` with ILIKE '%filter%': `%` and `_` are wildcards, `\` escapes. */
function ilikeContains(text: string, pattern: string) {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\" && i + 1 < pattern.length) re += pattern[++i].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    else if (ch === "%") re += ".*";
    else if (ch === "_") re += ".";
    else re += ch.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(re, "is").test(text);
}

export async function supabaseStandin(): Promise<StandinHandler> {
  const es = await generateKeyPair("ES256", { extractable: true });
  const rs = await generateKeyPair("RS256", { extractable: true });
  // A key that is in no JWKS: tokens it signs must never be accepted.
  const stray = await generateKeyPair("ES256", { extractable: true });
  const keys = [
    { ...(await exportJWK(es.publicKey)), kid: SUPABASE_STANDIN.esKid, alg: "ES256", use: "sig" },
    { ...(await exportJWK(rs.publicKey)), kid: SUPABASE_STANDIN.rsKid, alg: "RS256", use: "sig" },
  ];
  const projects = new Map<string, Project>();
  const project = (name: string) => {
    let p = projects.get(name);
    if (!p) {
      p = {
        users: new Map(),
        counts: { jwks: 0, adminList: 0, adminUpdate: 0, adminDelete: 0 },
        emailChanges: [],
        password: {
          minLength: SUPABASE_PASSWORD_SETTINGS.password_min_length,
          requiredCharacters: requiredCharacterSets(SUPABASE_PASSWORD_SETTINGS.password_required_characters),
        },
      };
      projects.set(name, p);
    }
    return p;
  };
  const gotrueError = (status: number, code: string, msg: string): StandinResponse => ({
    status,
    json: { code: status, error_code: code, msg },
    headers: { "x-supabase-api-version": "2024-01-01" },
  });
  /** GoTrue's 422 for a password its settings refuse, with the reasons supabase-js reads. */
  const weakPassword = (p: Project, password: string): StandinResponse | null => {
    const weak = passwordWeakness(p.password, password);
    if (!weak) return null;
    return {
      status: 422,
      json: { code: 422, error_code: "weak_password", msg: weak.message, weak_password: { reasons: weak.reasons } },
      headers: { "x-supabase-api-version": "2024-01-01" },
    };
  };
  const bearer = (h: string | string[] | undefined) => (typeof h === "string" && h.startsWith("Bearer ") ? h.slice(7) : "");

  return async (req) => {
    if (req.path === "/test/sign" && req.method === "POST") {
      const { claims, alg = "ES256", kid, key = "project" } = req.json() as {
        claims: JWTPayload;
        alg?: "ES256" | "RS256";
        kid?: string | null;
        key?: "project" | "stray";
      };
      const signingKey = key === "stray" ? stray.privateKey : alg === "RS256" ? rs.privateKey : es.privateKey;
      const defaultKid = alg === "RS256" ? SUPABASE_STANDIN.rsKid : SUPABASE_STANDIN.esKid;
      const header = { alg, typ: "JWT", ...(kid === null ? {} : { kid: kid ?? defaultKid }) };
      return { json: { token: await new SignJWT(claims).setProtectedHeader(header).sign(signingKey) } };
    }
    if (req.path === "/test/users" && req.method === "POST") {
      const { project: name = "", users } = req.json() as { project?: string; users: Partial<StandinUser>[] };
      const p = project(name);
      const now = new Date().toISOString();
      for (const u of users) {
        const id = u.id ?? crypto.randomUUID();
        p.users.set(id, {
          id,
          aud: "authenticated",
          role: "authenticated",
          email: (u.email ?? `${id}@example.com`).toLowerCase(),
          email_confirmed_at: u.email_confirmed_at ?? now,
          app_metadata: { provider: "email", providers: ["email"], ...u.app_metadata },
          user_metadata: u.user_metadata ?? {},
          created_at: now,
          updated_at: now,
        });
      }
      return { json: { ok: true } };
    }
    if (req.path === "/test/state" && req.method === "GET") {
      const p = project(req.query.get("project") ?? "");
      return {
        json: { counts: p.counts, users: [...p.users.values()], emailChanges: p.emailChanges, invites: p.invites ?? [], confirmations: p.confirmations ?? [] },
      };
    }
    if (req.path === "/test/password-policy" && req.method === "POST") {
      const body = req.json() as { project?: string; password_min_length: number; password_required_characters: string };
      project(body.project ?? "").password = {
        minLength: body.password_min_length,
        requiredCharacters: requiredCharacterSets(body.password_required_characters),
      };
      return { json: { ok: true } };
    }

    const m = /^(.*?)\/auth\/v1(\/.*)$/.exec(req.path);
    if (!m) return { status: 404, json: { message: "no route" } };
    const p = project(m[1]);
    const route = m[2];

    if (route === "/.well-known/jwks.json" && req.method === "GET") {
      p.counts.jwks++;
      return { json: { keys } };
    }

    // Every Auth call needs a project API key in `apikey` (the API gateway answers 401 otherwise).
    const apikey = req.headers.apikey;
    if (apikey !== SUPABASE_STANDIN.anonKey && apikey !== SUPABASE_STANDIN.serviceRoleKey) {
      return { status: 401, json: { message: "Invalid API key" } };
    }

    if (route.startsWith("/admin/")) {
      // Admin endpoints need the service-role key as the bearer as well.
      if (apikey !== SUPABASE_STANDIN.serviceRoleKey || bearer(req.headers.authorization) !== SUPABASE_STANDIN.serviceRoleKey) {
        return gotrueError(403, "not_admin", "User not allowed");
      }
      if (route === "/admin/users" && req.method === "GET") {
        p.counts.adminList++;
        const page = Math.max(1, Number(req.query.get("page") ?? 1));
        const perPage = Math.min(1000, Math.max(1, Number(req.query.get("per_page") ?? 50)));
        const filter = req.query.get("filter") ?? "";
        // Like Supabase: ILIKE '%filter%' on the email.
        const all = [...p.users.values()].filter((u) => !filter || ilikeContains(u.email, filter));
        const users = all.slice((page - 1) * perPage, page * perPage);
        return { json: { users, aud: "authenticated" }, headers: { "x-total-count": String(all.length) } };
      }
      if (route === "/admin/users" && req.method === "POST") {
        const body = req.json() as { email: string; email_confirm?: boolean; user_metadata?: Record<string, unknown> };
        const email = body.email.toLowerCase();
        if ([...p.users.values()].some((u) => u.email === email)) {
          return gotrueError(422, "email_exists", "A user with this email address has already been registered");
        }
        const at = new Date().toISOString();
        const user: StandinUser = {
          id: crypto.randomUUID(),
          aud: "authenticated",
          role: "authenticated",
          email,
          email_confirmed_at: body.email_confirm ? at : null,
          app_metadata: { provider: "email", providers: ["email"] },
          user_metadata: body.user_metadata ?? {},
          created_at: at,
          updated_at: at,
          last_sign_in_at: null,
        };
        p.users.set(user.id, user);
        return { json: user };
      }
      const one = /^\/admin\/users\/([^/]+)$/.exec(route);
      if (one && req.method === "GET") {
        const user = p.users.get(decodeURIComponent(one[1]));
        return user ? { json: user } : gotrueError(404, "user_not_found", "User not found");
      }
      if (one && req.method === "PUT") {
        p.counts.adminUpdate++;
        const user = p.users.get(decodeURIComponent(one[1]));
        if (!user) return gotrueError(404, "user_not_found", "User not found");
        const body = req.json() as { email?: string; email_confirm?: boolean; password?: string };
        // Like GoTrue's admin update: a password is held to the project's password settings.
        const weak = body.password === undefined ? null : weakPassword(p, body.password);
        if (weak) return weak;
        if (body.email) {
          const email = body.email.toLowerCase();
          if ([...p.users.values()].some((u) => u.email === email && u.id !== user.id)) {
            return gotrueError(422, "email_exists", "A user with this email address has already been registered");
          }
          user.email = email;
        }
        if (body.email_confirm) user.email_confirmed_at ??= new Date().toISOString();
        // Like GoTrue: the app_metadata sent is merged into the stored one, key by key.
        const appMetadata = (body as { app_metadata?: Record<string, unknown> }).app_metadata;
        if (appMetadata) user.app_metadata = { ...user.app_metadata, ...appMetadata };
        if ((body as { password?: string }).password) user.has_password = true;
        user.updated_at = new Date().toISOString();
        return { json: user };
      }
      if (one && req.method === "DELETE") {
        p.counts.adminDelete++;
        const id = decodeURIComponent(one[1]);
        if (!p.users.delete(id)) return gotrueError(404, "user_not_found", "User not found");
        return { json: {} };
      }
    }
    // The user's own update: the bearer is the user's access token (its `sub` names the user).
    if (route === "/user" && req.method === "PUT") {
      let sub = "";
      try {
        sub = String(JSON.parse(atob(bearer(req.headers.authorization).split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))).sub ?? "");
      } catch {
        return gotrueError(401, "bad_jwt", "invalid JWT");
      }
      const user = p.users.get(sub);
      if (!user) return gotrueError(404, "user_not_found", "User from sub claim in JWT does not exist");
      const body = req.json() as { email?: string; password?: string };
      const weak = body.password === undefined ? null : weakPassword(p, body.password);
      if (weak) return weak;
      if (body.password !== undefined) user.has_password = true;
      if (body.email) {
        const email = body.email.toLowerCase();
        if ([...p.users.values()].some((u) => u.email === email && u.id !== user.id)) {
          return gotrueError(422, "email_exists", "A user with this email address has already been registered");
        }
        // Supabase keeps the email as it is and mails the new address; the change waits for the link.
        p.emailChanges.push({ id: user.id, new_email: email, redirect_to: req.query.get("redirect_to") });
      }
      return { json: { ...user, new_email: body.email ?? null } };
    }
    // A direct sign-up, as supabase-js sends it from the browser with the anon key ("Confirm email" on):
    // the password is held to the project's settings; a new account, or one still unconfirmed, is
    // (again) sent its confirmation mail, and a confirmed one gets an answer of the same shape with a
    // made-up id.
    if (route === "/signup" && req.method === "POST") {
      const body = req.json() as { email?: string; password?: string; data?: Record<string, unknown> };
      if (!body.email || !body.password) return gotrueError(400, "validation_failed", "Signup requires a valid password");
      const weak = weakPassword(p, body.password);
      if (weak) return weak;
      const email = body.email.toLowerCase();
      const at = new Date().toISOString();
      const user: StandinUser = {
        id: crypto.randomUUID(),
        aud: "authenticated",
        role: "authenticated",
        email,
        email_confirmed_at: null,
        app_metadata: { provider: "email", providers: ["email"] },
        user_metadata: body.data ?? {},
        created_at: at,
        updated_at: at,
        last_sign_in_at: null,
      };
      const existing = [...p.users.values()].find((u) => u.email === email);
      if (existing?.email_confirmed_at) return { json: user };
      if (!existing) p.users.set(user.id, { ...user, has_password: true });
      (p.confirmations ??= []).push({ email, redirectTo: req.query.get("redirect_to") });
      return { json: existing ?? user };
    }
    // Invites (an admin call at the top level): mails the link to an account not confirmed yet.
    if (route === "/invite" && req.method === "POST") {
      if (bearer(req.headers.authorization) !== SUPABASE_STANDIN.serviceRoleKey) return gotrueError(403, "not_admin", "User not allowed");
      const { email } = req.json() as { email: string };
      const user = [...p.users.values()].find((u) => u.email === email.toLowerCase());
      if (user?.email_confirmed_at) return gotrueError(422, "email_exists", "A user with this email address has already been registered");
      (p.invites ??= []).push({ email: email.toLowerCase(), redirectTo: req.query.get("redirect_to") });
      if (user) user.invited_at = new Date().toISOString();
      return { json: user ?? { email } };
    }
    return gotrueError(404, "not_found", "Not found");
  };
}
