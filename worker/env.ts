// Environment: parsed with zod at the start of every fetch and scheduled run.
import { z } from "zod";

const optional = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== "" ? v.trim() : undefined));

/** A D1 binding's name, as wrangler.toml writes it. */

export const envSchema = z.object({
  /**
   * Production unless a local command says otherwise: wrangler's named environments (`--env staging`)
   * do not inherit `[vars]`, so a default of development would turn on the development secrets,
   * the public mailbox and the public token secret on such a deploy.
   */
  APP_ENV: z.enum(["development", "test", "production"]).default("production"),
  /** Signs local-mode access tokens outside production (a fixed development value when unset); production uses Supabase. */
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
  /**
   * Outside production only: milliseconds waited before every D1 round trip, a simulated distance to
   * the database (`npm run bench -- --d1-rtt 50`). Ignored with APP_ENV=production, where the distance
   * is real (worker/middleware/context.ts).
   */
  D1_RTT_MS: z.coerce.number().int().min(0).max(1000).optional(),
  /**
   * Outside production only: comma-separated seconds before each webhook retry, replacing the
   * schedule (the webhook bench compresses it). Ignored with APP_ENV=production.
   */
  WEBHOOK_RETRY_DELAYS: optional.pipe(z.string().regex(/^\d+(,\d+)*$/, "must be comma-separated seconds").optional()),
  /** Resend's API key: with MAIL_FROM, the product's mail (the daily report) goes through Resend. */
  RESEND_API_KEY: optional,
  /** The sender of the product's mail, e.g. "Reports <reports@example.com>" (a domain verified at Resend). */
  MAIL_FROM: optional,
  /** Resend's API base, default Resend's own (tests point it at a stand-in). */
  RESEND_BASE_URL: optional,
  /**
   * The DNS-over-HTTPS JSON endpoint a webhook URL's host name is resolved with, on every deployment,
   * before the URL is saved and before each attempt; default Cloudflare's (tests point it at a stand-in).
   */
  DNS_OVER_HTTPS_URL: optional,
  /** Shown in the mail sent by the local identity service when requests have no usable origin. */
  PUBLIC_URL: optional,
});

export type AppConfig = z.infer<typeof envSchema>;

export type Bindings = {
  DB: D1Database;
  /** Each call's transcript, one object per call under its account (decision 077, worker/services/call-text.ts). */
  CALL_TEXT: R2Bucket;
  ASSETS?: Fetcher;
  AI?: unknown;
  /** Custom webhooks' deliveries (decision 070): absent where a deployment has no queue bound. */
  WEBHOOK_QUEUE?: Queue;
} & Record<string, unknown>;

/**
 * Settings production cannot run without: Supabase signs the users in and sends their mail (the
 * service-role key for the admin calls, the anon key for the browser), Stripe takes the payments
 * and signs their events.
 */
export const PRODUCTION_REQUIRED = [
  "SUPABASE_URL",
  "SUPABASE_ANON_KEY",
  "SUPABASE_SERVICE_ROLE_KEY",
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
] as const satisfies readonly (keyof AppConfig)[];

/** The environment cannot run the app: every request answers 503 with this message, every job fails with it. */
export class ConfigError extends Error {
  constructor(detail: string) {
    super(`Invalid environment: ${detail}`);
  }
}

export function parseConfig(env: Record<string, unknown>): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${issue.path.join(".")}: ${issue.message}`);
  }
  const config = parsed.data;
  if (config.APP_ENV === "production") {
    // In production a local adapter is never used (docs/product/design.md#providers, decision 040): the app cannot work
    // without its identity and billing providers, so without their secrets it serves nothing.
    const missing = PRODUCTION_REQUIRED.filter((name) => !config[name]);
    if (missing.length > 0) throw new ConfigError(`${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} required in production`);
  }
  if (config.APP_ENV === "production" && config.VAPI_PRIVATE_KEY && !config.VAPI_WEBHOOK_SECRET) {
    throw new ConfigError("VAPI_WEBHOOK_SECRET is required in production with VAPI");
  }
  return config;
}
