import { describe, expect, it } from "vitest";
import { callOutcome, isKnownEndedReason } from "./call-outcomes";

describe("callOutcome", () => {
  it.each([
    ["customer-ended-call", "connected"],
    ["assistant-ended-call", "connected"],
    ["assistant-said-end-call-phrase", "connected"],
    ["exceeded-max-duration", "connected"],
    ["voicemail", "voicemail"],
    ["assistant-forwarded-call", "forwarded"],
    ["customer-did-not-answer", "other"],
    ["customer-busy", "other"],
    ["silence-timed-out", "other"],
    ["pipeline-error-openai-llm-failed", "other"],
  ])("%s is %s", (reason, outcome) => {
    expect(callOutcome(reason)).toBe(outcome);
  });

  it("puts a call that has not ended in the total only", () => {
    expect(callOutcome(null)).toBe("other");
    expect(callOutcome(undefined)).toBe("other");
    expect(callOutcome("")).toBe("other");
  });
});

describe("isKnownEndedReason", () => {
  it("knows the placed reasons and the error families", () => {
    for (const r of ["voicemail", "customer-busy", "pipeline-error-openai-llm-failed", "call.start.error-get-org", "twilio-failed-to-connect-call", "assistant-join-timed-out"]) {
      expect(isKnownEndedReason(r), r).toBe(true);
    }
  });

  it("flags a reason the platform added later, so it gets placed", () => {
    expect(isKnownEndedReason("customer-hung-up-on-hold")).toBe(false);
  });
});
