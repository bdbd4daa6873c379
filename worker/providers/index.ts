// The one place that chooses each port's adapter from the environment (docs/product/design.md#providers):
// the real adapter when its secrets are set, otherwise the faithful local one in development and
// test, and in production an adapter that answers "not configured" (decision 040).
import type { Database } from "../db/client";
import type { AppConfig } from "../env";
import { LocalIdentity } from "./identity/local";
import { localAuthSecret } from "./identity/local/tokens";
import type { IdentityPort } from "./identity/port";
import { SupabaseIdentity } from "./identity/supabase";
import { LocalMail } from "./mail/local";
import type { MailPort } from "./mail/port";
import { ResendMail } from "./mail/resend";
import { LocalTelephony } from "./telephony/local";
import type { TelephonyPort } from "./telephony/port";
import { TwilioTelephony } from "./telephony/twilio";
import { LocalPromptWriter } from "./prompt/local";
import type { PromptWriterPort } from "./prompt/port";
import { isAiBinding, WorkersAiPromptWriter } from "./prompt/workers-ai";
import { DEV_VAPI_WEBHOOK_SECRET, LocalVoice } from "./voice/local";
import type { VoicePort } from "./voice/port";
import { VapiVoice } from "./voice/vapi";
import { AircallCallCentre } from "./callcentre/aircall";
import { DEV_AIRCALL_WEBHOOK_TOKEN } from "./callcentre/aircall-events";
import { LocalCallCentre } from "./callcentre/local";
import type { CallCentrePort } from "./callcentre/port";
import { LocalBilling } from "./billing/local";
import type { BillingPort } from "./billing/port";
import { StripeBilling } from "./billing/stripe";
import { DEV_STRIPE_WEBHOOK_SECRET } from "./billing/stripe-events";
import { readAircallEvent } from "./callcentre/aircall-events";
import { localAllowed, NOT_CONFIGURED, notConfiguredPort } from "./not-configured";

// The local identity service's signing secret as chosen here, and the local mail service's outbox for
// its HTTP surface (routes/local-mailbox.ts). The identity service's own parts are imported from
// providers/identity/local/ by its HTTP surface and the clean-up job (.dependency-cruiser.cjs).
export { localAuthSecret } from "./identity/local/tokens";
export { listOutbox } from "./mail/local-mailbox";
export type { MailPort, OutgoingMail } from "./mail/port";
// Where each provider posts its webhooks (app.ts mounts the webhook routes there), and the VAPI event
// reader of routes/vapi-webhook.ts (the voice simulator posts VAPI-shaped reports through it too).
export { STRIPE_WEBHOOK_PATH } from "./billing/local";
export { AIRCALL_WEBHOOK_PATH } from "./callcentre/aircall-events";
export { readEvent as readVoiceEvent } from "./voice/vapi-webhook";
// What the local checkout page and the voice simulator's recordings serve (routes/local-checkout.ts,
// routes/voice-simulator.ts), and the paths app.ts mounts them at.
export { findActivePrice, LOCAL_CATALOGUE } from "./billing/catalogue";
export { LOCAL_CHECKOUT_PATH, type LocalBilling } from "./billing/local";
export { SIM_RECORDING_PATH, simulatedRecordingWav } from "./voice/local";
// How far the Aircall backfill job may page through Aircall's call list.
export { AIRCALL_MAX_LISTED, AIRCALL_PER_PAGE } from "./callcentre/aircall";

export type AdapterKind = "local" | "real" | typeof NOT_CONFIGURED;

export type Providers = {
  identity: IdentityPort;
  mail: MailPort;
  telephony: TelephonyPort;
  prompt: PromptWriterPort;
  voice: VoicePort;
  callCentre: CallCentrePort;
  billing: BillingPort;
};

/** Worker bindings some adapters use directly (not secrets, so not part of the parsed config). */
export type ProviderBindings = { AI?: unknown };


/** The settings each port needs for its real adapter, as named in "not configured" answers. */
const SETTINGS = {
  identity: ["SUPABASE_URL"],
  telephony: ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN"],
  prompt: ["the AI binding (Workers AI)"],
  voice: ["VAPI_PRIVATE_KEY", "VAPI_WEBHOOK_SECRET"],
  callCentre: ["AIRCALL_API_ID", "AIRCALL_API_TOKEN"],
  billing: ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"],
  mail: ["RESEND_API_KEY", "MAIL_FROM"],
};

export function usesSupabase(config: AppConfig) {
  return Boolean(config.SUPABASE_URL);
}

/** Twilio is used when both its account SID and auth token are set. */
export function usesTwilio(config: AppConfig) {
  return Boolean(config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN);
}

/** VAPI is used when its private key is set; otherwise the voice simulator. */
export function usesVapi(config: AppConfig) {
  return Boolean(config.VAPI_PRIVATE_KEY);
}

/**
 * The secret voice-platform webhooks must carry: VAPI_WEBHOOK_SECRET, or outside production a fixed
 * development secret. Null in production without one, so every webhook is refused.
 */
export function vapiWebhookSecret(config: AppConfig): string | null {
  if (config.VAPI_WEBHOOK_SECRET) return config.VAPI_WEBHOOK_SECRET;
  return config.APP_ENV === "production" ? null : DEV_VAPI_WEBHOOK_SECRET;
}

/** Aircall is used when both its API ID and API token are set; otherwise the seeded calls and the simulator. */
export function usesAircall(config: AppConfig) {
  return Boolean(config.AIRCALL_API_ID && config.AIRCALL_API_TOKEN);
}

/**
 * The token Aircall webhooks must carry: AIRCALL_WEBHOOK_TOKEN, or outside production a fixed
 * development token. Null in production without one, so every webhook is refused.
 */
export function aircallWebhookToken(config: AppConfig): string | null {
  if (config.AIRCALL_WEBHOOK_TOKEN) return config.AIRCALL_WEBHOOK_TOKEN;
  return config.APP_ENV === "production" ? null : DEV_AIRCALL_WEBHOOK_TOKEN;
}

/** The call-centre adapter; also built on its own by the backfill job, which has no request. */
export function createCallCentre(config: AppConfig, hooks: Pick<ProviderHooks, "origin" | "deliverWebhook"> = {}): CallCentrePort {
  if (!usesAircall(config) && !localAllowed(config)) {
    // Webhooks need only AIRCALL_WEBHOOK_TOKEN (refused without it); the API and the simulator are off.
    return notConfiguredPort<CallCentrePort>("Aircall", SETTINGS.callCentre, { readEvent: readAircallEvent, simulator: null });
  }
  return usesAircall(config)
    ? new AircallCallCentre({
        apiId: config.AIRCALL_API_ID!,
        apiToken: config.AIRCALL_API_TOKEN!,
        baseUrl: config.AIRCALL_BASE_URL,
        timeoutMs: config.PROVIDER_TIMEOUT_MS,
      })
    : new LocalCallCentre({
        origin: hooks.origin ?? config.PUBLIC_URL ?? "http://localhost",
        webhookToken: aircallWebhookToken(config),
        deliver: hooks.deliverWebhook,
      });
}

/** Resend sends the product's mail when its API key and the sender address are set; otherwise the local outbox. */
export function usesResend(config: AppConfig) {
  return Boolean(config.RESEND_API_KEY && config.MAIL_FROM);
}

/**
 * The product's mail (the daily report by email, decision 060); also built on its own by the report
 * mail job, which has no request. Account mail is the identity provider's (Supabase sends its own).
 */
export function createMail(config: AppConfig, db: Database): MailPort {
  if (usesResend(config)) {
    return new ResendMail({ apiKey: config.RESEND_API_KEY!, from: config.MAIL_FROM!, baseUrl: config.RESEND_BASE_URL, timeoutMs: config.PROVIDER_TIMEOUT_MS });
  }
  return localAllowed(config) ? new LocalMail(db) : notConfiguredPort<MailPort>("Mail (Resend)", SETTINGS.mail);
}

/** Stripe is used when its secret key is set; otherwise the local catalogue and checkout page. */
export function usesStripe(config: AppConfig) {
  return Boolean(config.STRIPE_SECRET_KEY);
}

/**
 * The secret Stripe events are signed with: STRIPE_WEBHOOK_SECRET, or outside production (local
 * checkout) a fixed development secret. Null in production without one, so every event is refused.
 */
export function stripeWebhookSecret(config: AppConfig): string | null {
  if (config.STRIPE_WEBHOOK_SECRET) return config.STRIPE_WEBHOOK_SECRET;
  return config.APP_ENV === "production" ? null : DEV_STRIPE_WEBHOOK_SECRET;
}

/** Which adapter each port uses; reported by GET /api/health. */
export function adapterKinds(config: AppConfig, bindings: ProviderBindings = {}): Record<string, AdapterKind> {
  const kind = (real: boolean): AdapterKind => (real ? "real" : localAllowed(config) ? "local" : NOT_CONFIGURED);
  return {
    identity: kind(usesSupabase(config)),
    mail: kind(usesResend(config)),
    telephony: kind(usesTwilio(config)),
    prompt: kind(isAiBinding(bindings.AI)),
    voice: kind(usesVapi(config)),
    callCentre: kind(usesAircall(config)),
    billing: kind(usesStripe(config)),
  };
}

export type ProviderHooks = {
  /** Origin of the current request: webhook URLs given to the voice platform are built from it. */
  origin?: string;
  /** Voice simulator: dispatches its webhook requests to the app in-process. */
  deliverWebhook?: (request: Request) => Promise<Response>;
  /** Voice simulator: keeps a delivery running after the response (ExecutionContext.waitUntil). */
  defer?: (promise: Promise<unknown>) => void;
};

export function createProviders(
  config: AppConfig,
  db: Database,
  hooks: ProviderHooks = {},
  bindings: ProviderBindings = {},
): Providers {
  const local = localAllowed(config);
  const identity: IdentityPort = usesSupabase(config)
    ? new SupabaseIdentity({
        url: config.SUPABASE_URL!,
        anonKey: config.SUPABASE_ANON_KEY,
        serviceRoleKey: config.SUPABASE_SERVICE_ROLE_KEY,
        jwtSecret: config.SUPABASE_JWT_SECRET,
        timeoutMs: config.PROVIDER_TIMEOUT_MS,
      }, db)
    : local
      ? new LocalIdentity(db, localAuthSecret(config))
      : notConfiguredPort<IdentityPort>("Supabase", SETTINGS.identity);
  const mail = createMail(config, db);
  const prompt: PromptWriterPort = isAiBinding(bindings.AI)
    ? new WorkersAiPromptWriter(bindings.AI)
    : local
      ? new LocalPromptWriter()
      : notConfiguredPort<PromptWriterPort>("The prompt writer", SETTINGS.prompt);
  const telephony: TelephonyPort = usesTwilio(config)
    ? new TwilioTelephony({
        accountSid: config.TWILIO_ACCOUNT_SID!,
        authToken: config.TWILIO_AUTH_TOKEN!,
        baseUrl: config.TWILIO_BASE_URL,
        timeoutMs: config.PROVIDER_TIMEOUT_MS,
      })
    : local
      ? new LocalTelephony(db)
      : notConfiguredPort<TelephonyPort>("Twilio", SETTINGS.telephony);
  const webhookSecret = vapiWebhookSecret(config);
  const voice: VoicePort = usesVapi(config)
    ? new VapiVoice({
        apiKey: config.VAPI_PRIVATE_KEY!,
        baseUrl: config.VAPI_BASE_URL,
        webhookSecret,
        origin: hooks.origin,
        defaultPhoneNumberId: config.VAPI_PHONE_NUMBER_ID,
        twilioAccountSid: config.TWILIO_ACCOUNT_SID,
        twilioAuthToken: config.TWILIO_AUTH_TOKEN,
        timeoutMs: config.PROVIDER_TIMEOUT_MS,
      })
    : local
      ? new LocalVoice(db, {
          origin: hooks.origin ?? config.PUBLIC_URL ?? "http://localhost",
          webhookSecret,
          deliver: hooks.deliverWebhook,
          defer: hooks.defer,
          delayMs: config.VAPI_SIM_DELAY_MS,
        })
      : notConfiguredPort<VoicePort>("VAPI", SETTINGS.voice);
  const billing: BillingPort = usesStripe(config)
    ? new StripeBilling({ secretKey: config.STRIPE_SECRET_KEY!, webhookSecret: stripeWebhookSecret(config), apiBase: config.STRIPE_API_BASE, timeoutMs: config.PROVIDER_TIMEOUT_MS })
    : local
      ? new LocalBilling(db, {
          origin: hooks.origin ?? config.PUBLIC_URL ?? "http://localhost",
          webhookSecret: stripeWebhookSecret(config),
          deliver: hooks.deliverWebhook,
        })
      : notConfiguredPort<BillingPort>("Stripe", SETTINGS.billing);
  return { identity, mail, prompt, telephony, voice, callCentre: createCallCentre(config, hooks), billing };
}
