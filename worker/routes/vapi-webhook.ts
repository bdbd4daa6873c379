// POST /api/webhooks/vapi: the voice platform's server messages (real VAPI and the simulator alike).
// Authenticity is checked on the raw body before anything is parsed; each event is applied once.
import { Hono } from "hono";
import type { z } from "zod";
import type { AppEnv } from "../env";
import { safeEqual } from "../lib/crypto";
import { ApiError, badRequest, unauthorized } from "../lib/errors";
import { issuesToError } from "../lib/validate";
import { vapiWebhookSecret } from "../providers";
import {
  callFromEndOfCallReport,
  callFromStatusUpdate,
  vapiEndOfCallReportSchema,
  vapiServerEnvelopeSchema,
  vapiStatusUpdateSchema,
} from "../providers/voice/vapi-shapes";
import { applyCallEvent, findCallOwner } from "../services/call-logs";

/** Signed requests older (or newer) than this are refused, so a captured one cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

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
 * True when the request carries our secret in one of the forms VAPI sends it:
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

/** zod issues inside `message` name the field from the top of the body (e.g. 'message.call.id'). */
function messageError(error: z.ZodError): ApiError {
  return issuesToError(error.issues.map((i) => ({ ...i, path: ["message", ...i.path] })));
}

export const vapiWebhookRoutes = new Hono<AppEnv>().post("/", async (c) => {
  const raw = await c.req.text();
  if (!(await isAuthenticVapiRequest(c.req.raw.headers, raw, vapiWebhookSecret(c.var.config)))) {
    throw unauthorized("Invalid webhook signature");
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw badRequest("body: Malformed JSON", "body");
  }
  const envelope = vapiServerEnvelopeSchema.safeParse(json);
  if (!envelope.success) throw issuesToError(envelope.error.issues);
  const message = envelope.data.message;

  let eventId: string;
  let call;
  if (message.type === "status-update") {
    const parsed = vapiStatusUpdateSchema.safeParse(message);
    if (!parsed.success) throw messageError(parsed.error);
    call = callFromStatusUpdate(parsed.data);
    eventId = `vapi:${call.id}:status-update:${parsed.data.status}`;
  } else if (message.type === "end-of-call-report") {
    const parsed = vapiEndOfCallReportSchema.safeParse(message);
    if (!parsed.success) throw messageError(parsed.error);
    call = callFromEndOfCallReport(parsed.data);
    eventId = `vapi:${call.id}:end-of-call-report`;
  } else {
    // Only the messages we subscribe to change anything; others are acknowledged so VAPI does not retry.
    return c.json({ received: true, ignored: true });
  }

  // A call of an assistant that is no agent's is kept with no owner: visible to no account (ADR 003).
  const owner = await findCallOwner(c.var.db, call.assistantId);
  const { duplicate } = await applyCallEvent(c.var.db, { eventId, eventType: message.type, provider: "vapi", call, owner });
  return c.json({ received: true, duplicate });
});
