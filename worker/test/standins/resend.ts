// Resend stand-in for the mail adapter's tests: POST /emails with a Bearer API key and a JSON body
// ({ from, to, subject, html, text, headers }), answering { id } or Resend's error JSON
// ({ statusCode, name, message }); an Idempotency-Key seen before answers the first email's id
// without sending again, or 409 invalid_idempotent_request when the payload differs. Every API key
// starting with "re_" is its own account; GET /__sent/<key> lists the emails that account sent.
import type { StandinHandler, StandinResponse } from "./server";

export const RESEND_STANDIN = { keyPrefix: "re_" } as const;

type Sent = { id: string; from: string; to: string[]; subject: string; html?: string; text?: string; headers?: Record<string, string>; idempotencyKey: string | null };

const error = (statusCode: number, name: string, message: string): StandinResponse => ({ status: statusCode, json: { statusCode, name, message } });

export async function resendStandin(): Promise<StandinHandler> {
  const sent = new Map<string, Sent[]>();
  const keys = new Map<string, { id: string; payload: string }>();
  let next = 0;
  return (req) => {
    const listed = /^\/__sent\/([^/]+)$/.exec(req.path);
    if (listed && req.method === "GET") return { json: { emails: sent.get(decodeURIComponent(listed[1])) ?? [] } };
    if (req.path !== "/emails" || req.method !== "POST") return error(404, "not_found", "The requested endpoint does not exist.");
    const auth = req.headers.authorization;
    const apiKey = typeof auth === "string" && auth.startsWith("Bearer ") ? auth.slice(7) : "";
    if (!apiKey) return error(401, "missing_api_key", "Missing API key in the authorization header.");
    if (!apiKey.startsWith(RESEND_STANDIN.keyPrefix)) return error(403, "invalid_api_key", "API key is invalid");
    let body: Partial<Sent> & { to?: string | string[] };
    try {
      body = req.json();
    } catch {
      return error(422, "validation_error", "Invalid JSON body");
    }
    if (typeof body.from !== "string" || !body.from) return error(422, "validation_error", "The `from` field is missing.");
    if (typeof body.subject !== "string" || !body.subject) return error(422, "validation_error", "The `subject` field is missing.");
    const to = typeof body.to === "string" ? [body.to] : body.to;
    if (!Array.isArray(to) || to.length === 0) return error(422, "validation_error", "The `to` field is missing.");
    const idem = req.headers["idempotency-key"];
    const idempotencyKey = typeof idem === "string" ? idem : null;
    if (idempotencyKey) {
      const seen = keys.get(`${apiKey}|${idempotencyKey}`);
      if (seen) {
        if (seen.payload !== req.rawBody) return error(409, "invalid_idempotent_request", "Same idempotency key used with a different request payload.");
        return { json: { id: seen.id } };
      }
    }
    const id = `standin-email-${++next}`;
    const list = sent.get(apiKey) ?? [];
    list.push({ id, from: body.from, to, subject: body.subject, html: body.html, text: body.text, headers: body.headers, idempotencyKey });
    sent.set(apiKey, list);
    if (idempotencyKey) keys.set(`${apiKey}|${idempotencyKey}`, { id, payload: req.rawBody });
    return { json: { id } };
  };
}
