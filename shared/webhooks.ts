// Custom webhooks (docs/webhooks.md): the events an account's endpoints can subscribe to, and the
// figures of their delivery. One list, read by the worker (what it sends) and the Settings screen
// (what a user ticks).

/**
 * Every event type a webhook endpoint can receive. `call.ended` carries the summary, the ended reason
 * and the transcript: the voice platform sends them together in its end-of-call report, so there is
 * no separate `call.transcript_ready` (it would always arrive with `call.ended`).
 */
export const WEBHOOK_EVENT_TYPES = ["call.started", "call.ended", "daily_report.ready", "alert.triggered", "alert.resolved", "test"] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What each event means, as the Settings screen and docs/webhooks.md describe it. */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  "call.started": "A call is in progress (the voice platform's status update).",
  "call.ended": "A call ended: its summary, ended reason, duration and transcript.",
  "daily_report.ready": "Yesterday's daily report is stored and ready to download.",
  "alert.triggered": "One of the account's alerts fired.",
  "alert.resolved": "An alert that fired is back to normal.",
  test: "Sent by \"Send test event\"; every endpoint receives it.",
};

/** At most this many endpoints per account. */
export const MAX_WEBHOOK_ENDPOINTS = 10;

/**
 * Seconds before each attempt of a delivery, from the event: Standard Webhooks' suggested schedule
 * (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), about 27.5 hours in all. After the last
 * attempt fails the delivery is marked failed.
 */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [0, 5, 300, 1800, 7200, 18000, 36000, 36000] as const;

/** One attempt waits at most this long for the receiver's answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Deliveries (and their attempts) are kept this many days. */
export const WEBHOOK_LOG_DAYS = 30;
/** An endpoint whose every delivery failed for this many days is disabled and its owner mailed. */
export const WEBHOOK_DISABLE_AFTER_DAYS = 5;
/** "Send test event" per account, the dashboard's and /v1's together: at most this many a minute (429 past it). */
export const WEBHOOK_TEST_RATE = { limit: 10, windowSeconds: 60 } as const;
/** Resends per account, the dashboard's and /v1's together: at most this many a minute (429 past it). */
export const WEBHOOK_RESEND_RATE = { limit: 30, windowSeconds: 60 } as const;
/** After a rotation the previous secret still signs for this many hours. */
export const WEBHOOK_ROTATION_OVERLAP_HOURS = 24;
/**
 * At most this many secrets sign at once: the current one and the two rotated out most recently,
 * each until its own expiry. A rotation that would make a fourth is refused until the oldest expires.
 */
export const WEBHOOK_MAX_SIGNING_SECRETS = 3;
/** The first bytes of a receiver's answer kept in the delivery log. */
export const WEBHOOK_LOGGED_BODY_BYTES = 1024;
/** The most of a receiver's answer read at all. */
export const WEBHOOK_MAX_READ_BYTES = 64 * 1024;
/** Where the local receiver takes deliveries (outside production only), followed by an inbox name. */
export const WEBHOOK_INBOX_PATH = "/api/local/webhook-inbox";
