// Environment: parsed with zod at the start of every fetch and scheduled run.
import { z } from "zod";
import type { Database } from "./db/client";
import type { D1Timer } from "./db/timed-d1";
import type { Providers } from "./providers";
import type { CurrentUser } from "./services/profiles";

const optional = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== "" ? v.trim() : undefined));

export const envSchema = z.object({
  /**
   * Production unless a local command says otherwise: wrangler's named environments (`--env staging`)
   * do not inherit `[vars]`, so a default of development would turn on the development secrets,
   * the public mailbox and the public token secret on such a deploy.
   */
  APP_ENV: z.enum(["development", "test", "production"]).default("production"),
  /** Signs local-mode access tokens. A fixed development value is used when unset outside production. */
  LOCAL_AUTH_SECRET: optional,
  SUPABASE_URL: optional,
  SUPABASE_ANON_KEY: optional,
  SUPABASE_SERVICE_ROLE_KEY: optional,
  SUPABASE_JWT_SECRET: optional,
  VAPI_PRIVATE_KEY: optional,
  VAPI_BASE_URL: optional,
  VAPI_WEBHOOK_SECRET: optional,
  VAPI_PHONE_NUMBER_ID: optional,
  /** Voice simulator only: milliseconds from a test call's start to its end-of-call report (default 4000). */
  VAPI_SIM_DELAY_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  TWILIO_ACCOUNT_SID: optional,
  TWILIO_AUTH_TOKEN: optional,
  TWILIO_BASE_URL: optional,
  /** Milliseconds one request to a vendor (VAPI, Twilio, Aircall, Stripe, Supabase) may take (default 10000). */
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1).max(120_000).optional(),
  STRIPE_SECRET_KEY: optional,
  STRIPE_PUBLISHABLE_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  /** Stripe API base, default Stripe's own (tests point it at a stand-in). */
  STRIPE_API_BASE: optional,
  AIRCALL_API_ID: optional,
  AIRCALL_API_TOKEN: optional,
  AIRCALL_WEBHOOK_TOKEN: optional,
  AIRCALL_BASE_URL: optional,
  /** Days of Aircall history the first backfill run starts from (default 7). */
  AIRCALL_BACKFILL_DAYS: z.coerce.number().int().min(1).max(366).optional(),
  /** Key of POST /api/ingest/*. A fixed development key is used when unset outside production; production refuses ingestion without it. */
  INGEST_API_KEY: optional,
  /** Comma-separated origins call recordings are played from (default: VAPI's storage host when VAPI is configured). */
  RECORDING_ORIGINS: optional,
  /** Shown in the mail sent by the local identity service when requests have no usable origin. */
  PUBLIC_URL: optional,
});

/** Shortest token-signing secret accepted in production: 32 characters of a random string is 190+ bits. */
export const MIN_PRODUCTION_SECRET_LENGTH = 32;

export type AppConfig = z.infer<typeof envSchema>;

export type Bindings = {
  DB: D1Database;
  ASSETS?: Fetcher;
  AI?: unknown;
} & Record<string, unknown>;

export type AppEnv = {
  Bindings: Bindings;
  Variables: {
    requestId: string;
    config: AppConfig;
    db: Database;
    /** Measures the request's D1 queries for Server-Timing. */
    dbTimer: D1Timer;
    providers: Providers;
    user: CurrentUser | null;
    authError: string | null;
  };
};

export function parseConfig(env: Record<string, unknown>): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid environment: ${issue.path.join(".")}: ${issue.message}`);
  }
  const config = parsed.data;
  if (config.APP_ENV === "production" && !config.SUPABASE_URL) {
    if (!config.LOCAL_AUTH_SECRET) {
      throw new Error("Invalid environment: LOCAL_AUTH_SECRET is required in production without Supabase");
    }
    if (config.LOCAL_AUTH_SECRET.length < MIN_PRODUCTION_SECRET_LENGTH) {
      throw new Error(
        `Invalid environment: LOCAL_AUTH_SECRET must be at least ${MIN_PRODUCTION_SECRET_LENGTH} characters in production`,
      );
    }
  }
  if (config.APP_ENV === "production" && config.VAPI_PRIVATE_KEY && !config.VAPI_WEBHOOK_SECRET) {
    throw new Error("Invalid environment: VAPI_WEBHOOK_SECRET is required in production with VAPI");
  }
  return config;
}
