// Aircall's webhook protocol, owned here and used by both adapters (the local simulator posts the
// same deliveries): authenticity, parsing, the event id, and the one list of handled events.
import { z } from "zod";
import { safeEqual } from "../../lib/crypto";
import { badRequest, unauthorized } from "../../lib/errors";
import { issuesToError } from "../../lib/validate";
import { aircallCallSchema, toCentreCall } from "./aircall-shapes";
import type { CentreEvent } from "./port";

/** Where Aircall posts its events (the URL registered in Aircall's dashboard). */
export const AIRCALL_WEBHOOK_PATH = "/api/webhooks/aircall";

/** Webhook token of local mode when AIRCALL_WEBHOOK_TOKEN is unset; refused in production. */
export const DEV_AIRCALL_WEBHOOK_TOKEN = "local-development-aircall-webhook-token-0001";

/**
 * The call events the product applies, each with the status a call has when Aircall sends it (used
 * only when the payload carries no status). Every event carries the whole call object, so any of
 * them can create the row; other events (and other resources) are acknowledged and ignored.
 */
export const AIRCALL_CALL_EVENTS = {
  "call.created": "initial",
  "call.ringing_on_agent": "initial",
  "call.answered": "answered",
  "call.transferred": "answered",
  "call.hungup": "done",
  "call.ended": "done",
  "call.voicemail_left": "done",
} as const satisfies Record<string, string>;
export type AircallCallEvent = keyof typeof AIRCALL_CALL_EVENTS;

/**
 * Events stamped further ahead of our clock than this are refused: the stamp orders a call's
 * events, so one from the future would freeze the row against every real later event.
 */
export const FUTURE_TOLERANCE_SECONDS = 600;

const envelopeSchema = z.looseObject({
  resource: z.string().min(1),
  event: z.string().min(1),
  timestamp: z.number().int().nonnegative(),
  data: z.unknown(),
});

const isHandled = (event: string): event is AircallCallEvent => Object.hasOwn(AIRCALL_CALL_EVENTS, event);

/**
 * Reads one Aircall delivery. Aircall signs nothing: every body carries the webhook's `token`, which
 * is compared to ours in constant time before any other field is looked at. Only then is the body
 * validated. Errors are the API's 401/400, thrown before anything is written.
 *
 * Event id: Aircall sends none, so it is `aircall:<event>:<call id>:<timestamp>`. A retry repeats
 * the same body, so it repeats the id; two different events of one call differ in name or second.
 */
export async function readAircallEvent(_headers: Headers, rawBody: string, token: string | null, now: Date): Promise<CentreEvent> {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw badRequest("body: Malformed JSON", "body");
  }
  const given = body && typeof body === "object" && !Array.isArray(body) ? (body as { token?: unknown }).token : undefined;
  // Both sides are compared even when ours is missing, so timing says nothing about configuration.
  const ok = await safeEqual(typeof given === "string" ? given : "", token ?? "");
  if (!token || typeof given !== "string" || !ok) throw unauthorized("Invalid webhook token");

  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) throw issuesToError(envelope.error.issues);
  const { resource, event, timestamp } = envelope.data;
  if (resource !== "call" || !isHandled(event)) return { kind: "ignored", eventType: `${resource}:${event}` };
  if (timestamp > now.getTime() / 1000 + FUTURE_TOLERANCE_SECONDS) throw badRequest("timestamp: Event is stamped in the future", "timestamp");

  const data = aircallCallSchema.safeParse(envelope.data.data);
  if (!data.success) {
    // Field names from the top of the body, e.g. 'data.direction'.
    throw issuesToError(data.error.issues.map((i) => ({ ...i, path: ["data", ...i.path] })));
  }
  const call = toCentreCall(data.data, AIRCALL_CALL_EVENTS[event]);
  return {
    kind: "call",
    eventId: `aircall:${event}:${call.id}:${timestamp}`,
    eventType: event,
    occurredAt: new Date(timestamp * 1000).toISOString(),
    call,
  };
}
