// How a voice-platform call ended, in the dashboard's words (docs/decisions/009-count-definitions.md):
// the Call Logs counts, the roll-ups, the chart and the reports all read a call's outcome from here.

/** Ended reasons of a conversation that ended on the line. */
export const CONNECTED_ENDED_REASONS = [
  "assistant-ended-call",
  "assistant-said-end-call-phrase",
  "assistant-ended-call-with-hangup-task",
  "assistant-ended-call-after-message-spoken",
  "customer-ended-call",
  "exceeded-max-duration",
] as const;
export const VOICEMAIL_ENDED_REASONS = ["voicemail"] as const;
export const FORWARDED_ENDED_REASONS = ["assistant-forwarded-call"] as const;

/** Reasons that are known and deliberately in the total only (no one reached, or no one spoke). */
export const UNREACHED_ENDED_REASONS = [
  "customer-did-not-answer",
  "customer-busy",
  "silence-timed-out",
  "manually-canceled",
] as const;

export type CallOutcome = "connected" | "voicemail" | "forwarded" | "other";

const OUTCOME_BY_REASON: ReadonlyMap<string, CallOutcome> = new Map<string, CallOutcome>([
  ...CONNECTED_ENDED_REASONS.map((r) => [r, "connected"] as const),
  ...VOICEMAIL_ENDED_REASONS.map((r) => [r, "voicemail"] as const),
  ...FORWARDED_ENDED_REASONS.map((r) => [r, "forwarded"] as const),
]);

/** The outcome of a call from its ended reason; a call without one (still running) is "other". */
export function callOutcome(endedReason: string | null | undefined): CallOutcome {
  return (endedReason && OUTCOME_BY_REASON.get(endedReason)) || "other";
}

/**
 * Whether the reason is one this product has placed (a table row of decision 009). Error reasons
 * come in families (`pipeline-error-*`, `call.start.error-*`, ...), so they are matched by shape.
 */
export function isKnownEndedReason(endedReason: string): boolean {
  return (
    OUTCOME_BY_REASON.has(endedReason) ||
    (UNREACHED_ENDED_REASONS as readonly string[]).includes(endedReason) ||
    /(^|[.-])error([.-]|$)|^(twilio|vonage)-|timed-out$|failed/.test(endedReason)
  );
}

/**
 * The ended reasons that mean the call failed (the "calls ending in an error" alert metric, decision
 * 071), as SQL LIKE patterns so the worker's SQL and the screen read one list: every error family
 * (`pipeline-error-*`, `call.start.error-*`, `*-error`), every `*failed*` / `*fault*` reason, the
 * carriers' own failures (`twilio-*`, `vonage-*`) and the assistant or line that never came up.
 */
export const FAILURE_ENDED_REASON_PATTERNS = [
  "%error%",
  "%failed%",
  "%fault%",
  "twilio-%",
  "vonage-%",
  "assistant-not-found",
  "assistant-not-valid",
  "assistant-join-timed-out",
  "phone-call-provider-closed-websocket",
  "worker-shutdown",
] as const;

const likeToRegExp = (pattern: string) => new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/%/g, ".*")}$`);
const FAILURE_REGEXPS = FAILURE_ENDED_REASON_PATTERNS.map(likeToRegExp);

/** Whether a call that ended for this reason failed (see FAILURE_ENDED_REASON_PATTERNS). */
export function isFailureEndedReason(endedReason: string | null | undefined): boolean {
  return Boolean(endedReason && FAILURE_REGEXPS.some((r) => r.test(endedReason)));
}

/** What the call log's outcome filter keeps (GET /api/call-logs?outcome=): the failing reasons above, or the forwarded ones. */
export const CALL_LOG_OUTCOMES = ["error", "forwarded"] as const;
export type CallLogOutcome = (typeof CALL_LOG_OUTCOMES)[number];
