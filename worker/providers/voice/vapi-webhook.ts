// VAPI's webhook protocol in one place (ADR 003): authenticity on the raw body, the message types we
// subscribe to, their parsing and their event ids. Real VAPI and the local simulator post the same
// messages, so both voice adapters are read by this one function.
import type { z } from "zod";
import { safeEqual } from "../../lib/crypto";
import { badRequest, unauthorized, type ApiError } from "../../lib/errors";
import { issuesToError } from "../../lib/validate";
import type { CallEvent, PlatformCall } from "./port";
import {
  callFromEndOfCallReport,
  callFromStatusUpdate,
  vapiEndOfCallReportSchema,
  vapiServerEnvelopeSchema,
  vapiStatusUpdateSchema,
} from "./vapi-shapes";

/** Signed requests older (or newer) than this are refused, so a captured one cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** zod issues inside `message` name the field from the top of the body (e.g. 'message.call.id'). */
function messageError(error: z.ZodError): ApiError {
  return issuesToError(error.issues.map((i) => ({ ...i, path: ["message", ...i.path] })));
}

function parsed<T extends z.ZodType>(schema: T, message: unknown): z.infer<T> {
  const result = schema.safeParse(message);
  if (!result.success) throw messageError(result.error);
  return result.data;
}

/**
 * The server messages we subscribe to, and how each becomes a call event. VAPI sends one status
 * update per status, so a status update's id names its status; a call has one end-of-call report.
 */
const HANDLERS = {
  "end-of-call-report": (message: unknown) => ({ call: callFromEndOfCallReport(parsed(vapiEndOfCallReportSchema, message)), suffix: "" }),
  "status-update": (message: unknown) => {
    const m = parsed(vapiStatusUpdateSchema, message);
    return { call: callFromStatusUpdate(m), suffix: `:${m.status}` };
  },
} satisfies Record<string, (message: unknown) => { call: PlatformCall; suffix: string }>;

type HandledType = keyof typeof HANDLERS;

/** What the adapters ask VAPI to post (an assistant's `serverMessages`); exactly what readEvent handles. */
export const VAPI_SERVER_MESSAGES = Object.keys(HANDLERS) as HandledType[];

const isHandled = (type: string): type is HandledType => Object.hasOwn(HANDLERS, type);

const enc = new TextEncoder();

async function hmacSha256(secret: string, payload: string) {
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(payload)));
  const hex = [...mac].map((b) => b.toString(16).padStart(2, "0")).join("");
  let bin = "";
  for (const b of mac) bin += String.fromCharCode(b);
  return { hex, base64: btoa(bin) };
}

/**
 * True when the request carries our secret in one of the forms VAPI sends it, compared in constant time:
 * - `x-vapi-secret: <secret>` (the header we ask VAPI to send with every server message);
 * - `Authorization: Bearer <secret>` (a VAPI bearer credential);
 * - an HMAC-SHA256 credential: `x-vapi-signature` (or VAPI's default `x-signature`), hex or base64,
 *   optionally prefixed 'sha256=', over the raw body, or over '<timestamp>.<body>' when a timestamp
 *   header (`x-vapi-timestamp` / `x-timestamp`) is sent, which must then be recent.
 */
export async function isAuthenticVapiRequest(headers: Headers, rawBody: string, secret: string | null, now = Date.now()): Promise<boolean> {
  if (!secret) return false;
  const checks: Promise<boolean>[] = [];
  const plain = headers.get("x-vapi-secret");
  if (plain !== null) checks.push(safeEqual(plain, secret));
  const auth = headers.get("authorization");
  if (auth?.toLowerCase().startsWith("bearer ")) checks.push(safeEqual(auth.slice(7).trim(), secret));
  const signature = headers.get("x-vapi-signature") ?? headers.get("x-signature");
  if (signature !== null) {
    checks.push(
      (async () => {
        const timestamp = headers.get("x-vapi-timestamp") ?? headers.get("x-timestamp");
        if (timestamp !== null) {
          const n = Number(timestamp);
          if (!Number.isFinite(n)) return false;
          const ms = n < 1e12 ? n * 1000 : n;
          if (Math.abs(now - ms) > SIGNATURE_TOLERANCE_SECONDS * 1000) return false;
        }
        const given = signature.trim().replace(/^sha256=/i, "");
        const { hex, base64 } = await hmacSha256(secret, timestamp !== null ? `${timestamp}.${rawBody}` : rawBody);
        const [okHex, okB64] = await Promise.all([safeEqual(given.toLowerCase(), hex), safeEqual(given, base64)]);
        return okHex || okB64;
      })(),
    );
  }
  if (checks.length === 0) return false;
  return (await Promise.all(checks)).some(Boolean);
}

/**
 * Reads one VAPI server message: authenticates it on the raw body before anything is parsed (401),
 * parses it (400 naming the field), and names its event id. Null for an authentic message of a type
 * we do not handle: it is acknowledged, so VAPI does not retry it, and changes nothing.
 */
export async function readEvent(headers: Headers, rawBody: string, secret: string | null, now: number): Promise<CallEvent | null> {
  if (!(await isAuthenticVapiRequest(headers, rawBody, secret, now))) throw unauthorized("Invalid webhook signature");
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw badRequest("body: Malformed JSON", "body");
  }
  const envelope = vapiServerEnvelopeSchema.safeParse(json);
  if (!envelope.success) throw issuesToError(envelope.error.issues);
  const message = envelope.data.message;
  if (!isHandled(message.type)) return null;
  const { call, suffix } = HANDLERS[message.type](message);
  return { id: `vapi:${call.id}:${message.type}${suffix}`, provider: "vapi", type: message.type, call };
}
