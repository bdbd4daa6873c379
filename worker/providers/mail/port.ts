/**
 * A mail to send. `text` is always there; `html` is the same content for mail programs that show
 * HTML; `headers` are extra headers (List-Unsubscribe...); `idempotencyKey` names the mail so a
 * retried send of it is delivered at most once (the vendor's and the local outbox's own dedup).
 */
export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
  link?: string;
  kind: string;
  idempotencyKey?: string;
};

/**
 * The product's own mail (the daily report): the local outbox in development and test, a
 * transactional mail vendor in production. Account mail is sent by the identity provider.
 */
export interface MailPort {
  readonly kind: "local" | "resend";
  send(mail: OutgoingMail): Promise<void>;
}
