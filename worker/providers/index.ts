// The one place that chooses each port's adapter from the environment (DESIGN.md §2):
// the real adapter when its secrets are set, otherwise the faithful local one.
import type { Database } from "../db/client";
import type { AppConfig } from "../env";
import { DEV_AUTH_SECRET, LocalIdentity } from "./identity/local";
import type { IdentityPort } from "./identity/port";
import { SupabaseIdentity } from "./identity/supabase";
import { LocalMail } from "./mail/local";
import type { MailPort } from "./mail/port";
import { SupabaseMail } from "./mail/supabase";

export type AdapterKind = "local" | "real";

export type Providers = {
  identity: IdentityPort;
  mail: MailPort;
};

export function localAuthSecret(config: AppConfig) {
  return config.LOCAL_AUTH_SECRET ?? DEV_AUTH_SECRET;
}

export function usesSupabase(config: AppConfig) {
  return Boolean(config.SUPABASE_URL);
}

/** Which adapter each port uses; reported by GET /api/health. */
export function adapterKinds(config: AppConfig): Record<string, AdapterKind> {
  return {
    identity: usesSupabase(config) ? "real" : "local",
    mail: usesSupabase(config) ? "real" : "local",
  };
}

export type ProviderHooks = {
  /** Local identity: sends the sign-up confirmation again (implemented by the local auth service). */
  resendLocalSignup?: (email: string, redirectTo: string | undefined) => Promise<void>;
};

export function createProviders(config: AppConfig, db: Database, hooks: ProviderHooks = {}): Providers {
  const identity: IdentityPort = usesSupabase(config)
    ? new SupabaseIdentity({
        url: config.SUPABASE_URL!,
        anonKey: config.SUPABASE_ANON_KEY,
        serviceRoleKey: config.SUPABASE_SERVICE_ROLE_KEY,
        jwtSecret: config.SUPABASE_JWT_SECRET,
      })
    : new LocalIdentity(db, localAuthSecret(config), hooks.resendLocalSignup);
  const mail: MailPort = usesSupabase(config) ? new SupabaseMail() : new LocalMail(db);
  return { identity, mail };
}
