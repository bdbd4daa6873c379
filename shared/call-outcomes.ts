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
