import { describe, expect, it } from "vitest";
import { statusVariant } from "./subscription-section";

describe("subscription status colours (docs/product/README.md#states-and-flows)", () => {
  it("active green, canceled red, past_due yellow, other grey", () => {
    expect(statusVariant("active")).toBe("success");
    expect(statusVariant("canceled")).toBe("destructive");
    expect(statusVariant("past_due")).toBe("pending");
    expect(statusVariant("trialing")).toBe("default");
    expect(statusVariant("incomplete")).toBe("default");
  });
});
