// The supabase-js client, configured from GET /api/config. In local mode the Worker itself
// serves a GoTrue-compatible /auth/v1, so the same client code runs in both modes.
import type { SupabaseClient } from "@supabase/supabase-js";
import { queryOptions } from "@tanstack/react-query";

export type AppConfig = {
  auth: { mode: "local" | "supabase"; url: string; anonKey: string };
  localMailbox: boolean;
};

let configPromise: Promise<AppConfig> | null = null;
let clientPromise: Promise<SupabaseClient> | null = null;

/** Fetched once per page load; a failed fetch is forgotten so a later call can try again. */
export function getAppConfig(): Promise<AppConfig> {
  configPromise ??= fetch("/api/config", { credentials: "include" })
    .then(async (res) => {
      if (!res.ok) throw new Error(`${res.status}: ${(await res.text().catch(() => "")) || res.statusText}`);
      return (await res.json()) as AppConfig;
    })
    .catch((err: unknown) => {
      configPromise = null;
      throw err;
    });
  return configPromise;
}

export function getAuthClient(): Promise<SupabaseClient> {
  // The library loads in parallel with the configuration, as its own chunk.
  clientPromise ??= Promise.all([getAppConfig(), import("@supabase/supabase-js")])
    .then(([{ auth }, { createClient }]) =>
      createClient(auth.url, auth.anonKey, {
        auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: false },
      }),
    )
    .catch((err: unknown) => {
      clientPromise = null;
      throw err;
    });
  return clientPromise;
}

/** For tests: forget the cached configuration and client. */
export function resetAuthClientForTests() {
  configPromise = null;
  clientPromise = null;
}

/** The same configuration for components, through the query cache. */
export const appConfigQueryOptions = () => queryOptions({ queryKey: ["app-config"], queryFn: getAppConfig });
