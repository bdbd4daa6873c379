// The Supabase auth client as supabase-js's createClient builds it, without the database,
// storage, realtime and functions clients the SPA never calls (about half of the library's
// weight; decision 023). Loaded lazily, as its own chunk, by auth-client.ts.
import { AuthClient } from "@supabase/supabase-js";
import type { AppConfigResponse } from "@shared/schemas/config";

export type IdentityClient = { auth: InstanceType<typeof AuthClient> };

export function createIdentityClient(
  { url, anonKey }: AppConfigResponse["auth"],
  detectSessionInUrl: (url: URL, params: Record<string, string>) => boolean,
): IdentityClient {
  // As createClient does: <url>/auth/v1, the publishable key as apikey and bearer, and its default
  // storage key, so a session stored by an earlier build (or by createClient) is still found.
  const base = new URL(url.endsWith("/") ? url : `${url}/`);
  return {
    auth: new AuthClient({
      url: new URL("auth/v1", base).href,
      headers: { Authorization: `Bearer ${anonKey}`, apikey: anonKey },
      storageKey: `sb-${base.hostname.split(".")[0]}-auth-token`,
      persistSession: true,
      autoRefreshToken: true,
      detectSessionInUrl,
    }),
  };
}
