import { describe, expect, it } from "vitest";

describe("zod-jitless", () => {
  it("turns zod's jitless setting on, as zod itself reads it, without the new Function probe", async () => {
    const probe = { calls: 0 };
    const RealFunction = globalThis.Function;
    // Counts `new Function(...)`, the probe a CSP reports.
    globalThis.Function = new Proxy(RealFunction, {
      construct(target, args) {
        probe.calls += 1;
        return Reflect.construct(target, args);
      },
    });
    try {
      await import("./zod-jitless");
      const { z } = await import("zod");
      expect(z.config().jitless).toBe(true);
      const schema = z.object({ a: z.string() });
      expect(schema.parse({ a: "x" })).toEqual({ a: "x" });
      expect(probe.calls).toBe(0);
    } finally {
      globalThis.Function = RealFunction;
    }
  });
});
