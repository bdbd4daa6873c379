// Public client configuration: where the SPA's auth client points and which mode it runs in.
// Only publishable values go here; nothing secret reaches the browser.
import { Hono } from "hono";
import type { AppConfigResponse } from "@shared/schemas/config";
import type { AppEnv } from "../env";
import { usesSupabase } from "../providers";

/** The local identity service accepts any apikey; supabase-js just needs a non-empty one. */
export const LOCAL_ANON_KEY = "local-anon-key";

export const configRoutes = new Hono<AppEnv>().get("/", (c) => {
  const config = c.var.config;
  const supabase = usesSupabase(config);
  const body: AppConfigResponse = {
    auth: {
      mode: supabase ? "supabase" : "local",
      url: supabase ? config.SUPABASE_URL! : new URL(c.req.url).origin,
      anonKey: supabase ? (config.SUPABASE_ANON_KEY ?? "") : LOCAL_ANON_KEY,
    },
    localMailbox: !supabase,
  };
  return c.json(body);
});
