// What the local identity service's tokens are signed with and say: shared by the adapter that
// verifies them (index.ts) and the service that issues them (auth.ts).
import type { AppConfig } from "../../../env";
import { localAllowed, notConfiguredError } from "../../not-configured";

export const LOCAL_ISSUER = "voice-agent-ops/local-auth";
export const LOCAL_AUDIENCE = "authenticated";
/** Development-only signing secret, used when LOCAL_AUTH_SECRET is unset outside production. */
export const DEV_AUTH_SECRET = "local-development-secret-not-for-production-use-0001";

/** The secret local access tokens are signed with; the development one never in production. */
export function localAuthSecret(config: AppConfig) {
  if (config.LOCAL_AUTH_SECRET) return config.LOCAL_AUTH_SECRET;
  if (!localAllowed(config)) throw notConfiguredError("The local identity service", ["LOCAL_AUTH_SECRET"]);
  return DEV_AUTH_SECRET;
}
