import { describe, expect, it } from "vitest";
import { toPlatformCall, vapiCallSchema } from "./vapi-shapes";

const read = (call: Record<string, unknown>) => toPlatformCall(vapiCallSchema.parse({ id: "call_1", ...call }));

describe("toPlatformCall: the call fields docs/product/README.md#records reads", () => {
  it("takes the number from customer.number first", () => {
    expect(read({ customer: { number: "+15550001" }, phoneNumber: "+15550002" }).customer.number).toBe("+15550001");
  });

  it.each([
    ["a bare phoneNumber", { phoneNumber: "+15550002" }, "+15550002"],
    ["phoneNumber.number", { phoneNumber: { id: "pn_1", number: "+15550003" } }, "+15550003"],
    ["from.phoneNumber", { from: { phoneNumber: "+15550004" } }, "+15550004"],
    ["recipient.phone_number", { recipient: { phone_number: "+15550005" } }, "+15550005"],
  ])("falls back to %s", (_, fields, number) => {
    expect(read(fields).customer.number).toBe(number);
  });

  it("keeps the order of the spec when several are present, and skips empty ones", () => {
    expect(read({ customer: { number: "" }, from: { phoneNumber: "+15550004" }, recipient: { phone_number: "+15550005" } }).customer.number).toBe(
      "+15550004",
    );
    expect(read({}).customer.number).toBeNull();
  });

  it("uses duration when the platform gives it, else the start and end times, else durationSeconds", () => {
    const times = { startedAt: "2026-11-20T10:00:00.000Z", endedAt: "2026-11-20T10:01:30.000Z" };
    expect(read({ ...times, duration: 88.6 }).duration).toBe(89);
    expect(read({ ...times, durationSeconds: 12 }).duration).toBe(90);
    expect(read({ durationSeconds: 12 }).duration).toBe(12);
    expect(read({}).duration).toBeNull();
  });
});
