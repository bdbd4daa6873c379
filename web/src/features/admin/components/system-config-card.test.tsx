// The phone-limit input at its edges (docs/product/errors-and-texts.md#validation-messages): 1 to 100, empty falls back to 1.
import { describe, expect, it } from "vitest";
import { parseLimitInput } from "./system-config-card";

describe("parseLimitInput", () => {
  it("takes whole numbers from 1 to 100 and reads empty as 1", () => {
    expect(parseLimitInput("")).toBe(1);
    expect(parseLimitInput("  ")).toBe(1);
    expect(parseLimitInput("1")).toBe(1);
    expect(parseLimitInput("100")).toBe(100);
    expect(parseLimitInput("9")).toBe(9);
  });

  it("refuses 0, 101, negatives, fractions and text", () => {
    for (const text of ["0", "101", "-1", "2.5", "abc", "1e3"]) expect(parseLimitInput(text), text).toBeNull();
  });
});
