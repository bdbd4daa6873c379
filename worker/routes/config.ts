// Public client configuration: where the SPA's auth client points and which mode it runs in.
// Only publishable values go here; nothing secret reaches the browser.
import type { AppConfigResponse } from "@shared/schemas/config";
import type { AppEnv } from "../app-env";
import { usesSupabase } from "../providers";
import { DeclaredRoutes } from "./serve";

/** The local identity service accepts any apikey; supabase-js just needs a non-empty one. */
export const LOCAL_ANON_KEY = "local-anon-key";

/** The client configuration for this deployment and origin: GET /api/config, and the same in every page's shell. */
export function appConfigOf(config: AppEnv["Variables"]["config"], requestUrl: string): AppConfigResponse {
  const supabase = usesSupabase(config);
  return {
    auth: {
      mode: supabase ? "supabase" : "local",
      url: supabase ? config.SUPABASE_URL! : new URL(requestUrl).origin,
      anonKey: supabase ? (config.SUPABASE_ANON_KEY ?? "") : LOCAL_ANON_KEY,
    },
    localMailbox: !supabase,
  };
}

export const configRoutes = new DeclaredRoutes().serve("GET /api/config", (c) => c.json(appConfigOf(c.var.config, c.req.url)));
