// Resend's transactional mail API (`POST /emails`, Bearer API key): the product's mail in production.
// Each mail carries its idempotency key in the `Idempotency-Key` header, so a retried send of it is
// delivered once (Resend keeps a key 24 hours).
import { providerError } from "../../lib/errors";
import { fetchFailure, providerSignal } from "../timeout";
import type { MailPort, OutgoingMail } from "./port";

export const RESEND_DEFAULT_BASE_URL = "https://api.resend.com";

export type ResendOptions = { apiKey: string; from: string; baseUrl?: string; timeoutMs?: number };

/** Resend's error body: { statusCode, name, message }. */
type ResendError = { statusCode?: number; name?: string; message?: string };

/**
 * Answers that say a mail with this key was already accepted: the key was used with another payload
 * (a retry's new unsubscribe token), or the first request is still being processed. The mail is on
 * its way either way, so sending again would duplicate it.
 */
const ALREADY_ACCEPTED = new Set(["invalid_idempotent_request", "concurrent_idempotent_requests"]);

export class ResendMail implements MailPort {
  readonly kind = "resend" as const;
  private readonly base: string;

  constructor(private readonly opts: ResendOptions) {
    this.base = (opts.baseUrl ?? RESEND_DEFAULT_BASE_URL).replace(/\/+$/, "");
  }

  async send(mail: OutgoingMail): Promise<void> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.opts.apiKey}`,
      "content-type": "application/json",
      accept: "application/json",
    };
    if (mail.idempotencyKey) headers["idempotency-key"] = mail.idempotencyKey;
    const body = {
      from: this.opts.from,
      to: [mail.to],
      subject: mail.subject,
      text: mail.text,
      ...(mail.html ? { html: mail.html } : {}),
      ...(mail.headers && Object.keys(mail.headers).length ? { headers: mail.headers } : {}),
    };
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.base}/emails`, { method: "POST", headers, body: JSON.stringify(body), signal: providerSignal(this.opts.timeoutMs) });
      text = await res.text();
    } catch (e) {
      throw providerError("Resend", `could not reach Resend (${fetchFailure(e)})`);
    }
    let answer: ({ id?: unknown } & ResendError) | null = null;
    try {
      answer = text ? (JSON.parse(text) as { id?: unknown } & ResendError) : null;
    } catch {
      answer = null;
    }
    if (res.ok) {
      if (typeof answer?.id !== "string") throw providerError("Resend", "the answer named no email id");
      return;
    }
    if (res.status === 409 && answer?.name && ALREADY_ACCEPTED.has(answer.name)) return;
    throw providerError("Resend", answer?.message ? `${answer.message} (HTTP ${res.status})` : `HTTP ${res.status}`);
  }
}
