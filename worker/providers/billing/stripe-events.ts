// Stripe's webhook signature scheme (`Stripe-Signature: t=…,v1=…`, HMAC-SHA256 of "t.body"),
// checked and produced with the official SDK's SubtleCrypto provider, so it runs inside workerd.
import Stripe from "stripe";
import { ApiError } from "../../lib/errors";
import type { BillingEvent } from "./port";

/** Stripe's default tolerance: a signature older (or newer) than this is refused. */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;
/** Development-only webhook secret the local checkout signs with when STRIPE_WEBHOOK_SECRET is unset. */
export const DEV_STRIPE_WEBHOOK_SECRET = "whsec_local_development_secret_0001";

const crypto = Stripe.createSubtleCryptoProvider();

export async function verifyStripeEvent(
  rawBody: string,
  signature: string | undefined,
  secret: string | null,
  now = Date.now(),
): Promise<BillingEvent> {
  if (!secret) throw new ApiError(503, "Stripe webhooks are not configured", "not_configured");
  if (!signature) throw new ApiError(400, "Missing Stripe-Signature header", "invalid_signature", "stripe-signature");
  // One timestamp only: the SDK verifies against the last t=, and the future check below must read
  // the same one, so a header with two cannot pair a current stamp with a far-future signature.
  const stamps = signature.split(",").filter((part) => part.trim().startsWith("t="));
  if (stamps.length !== 1) {
    throw new ApiError(400, "Webhook signature verification failed: the header must carry exactly one timestamp", "invalid_signature", "stripe-signature");
  }
  let event: { id: string; type: string; created: number; data: { object: Record<string, unknown> } };
  try {
    event = (await Stripe.webhooks.constructEventAsync(
      rawBody,
      signature,
      secret,
      STRIPE_SIGNATURE_TOLERANCE_SECONDS,
      crypto,
    )) as unknown as typeof event;
  } catch (e) {
    throw new ApiError(400, `Webhook signature verification failed: ${(e as Error).message}`, "invalid_signature", "stripe-signature");
  }
  // The SDK refuses only old signatures; one stamped in the future could be replayed until then.
  const stamped = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1]);
  if (!(stamped <= Math.floor(now / 1000) + STRIPE_SIGNATURE_TOLERANCE_SECONDS)) {
    throw new ApiError(400, "Webhook signature verification failed: timestamp is in the future", "invalid_signature", "stripe-signature");
  }
  const object = event.data?.object ?? {};
  if (typeof event.id !== "string" || typeof object.id !== "string") {
    throw new ApiError(400, "Event has no id", "validation_error", "body");
  }
  return { id: event.id, type: event.type, created: event.created, objectId: object.id, object };
}

/** The Stripe-Signature header for a payload, as Stripe would send it (local checkout, tests). */
export function signStripePayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
  return Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret, timestamp, cryptoProvider: crypto });
}
