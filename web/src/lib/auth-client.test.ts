import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appConfigResponse } from "@shared/schemas/config";
import { readAppConfig } from "./auth-client";

describe("readAppConfig", () => {
  // Values near the shape: right and wrong types for every field, extra fields, arrays, null.
  const anyValue = fc.oneof(fc.string(), fc.constantFrom("local", "supabase"), fc.integer(), fc.constant(null), fc.constant(undefined), fc.boolean());
  const auth = fc.oneof(
    fc.record({ mode: anyValue, url: anyValue, anonKey: anyValue, extra: anyValue }, { requiredKeys: [] }),
    fc.array(anyValue, { maxLength: 2 }),
    anyValue,
  );
  const candidate = fc.oneof(
    fc.record({ auth, localMailbox: anyValue, other: anyValue }, { requiredKeys: [] }),
    fc.array(anyValue, { maxLength: 2 }),
    anyValue,
  );

  it("accepts exactly what the shared zod schema accepts, and gives what it gives", () => {
    fc.assert(
      fc.property(candidate, (value) => {
        const parsed = appConfigResponse.safeParse(value);
        expect(readAppConfig(value)).toEqual(parsed.success ? parsed.data : null);
      }),
      { numRuns: 2000 },
    );
  });

  it("reads the answer the worker sends and drops fields it does not know", () => {
    const config = { auth: { mode: "local", url: "http://127.0.0.1:8787", anonKey: "k" }, localMailbox: true };
    expect(readAppConfig({ ...config, extra: 1, auth: { ...config.auth, more: 2 } })).toEqual(config);
    expect(readAppConfig({ ...config, auth: { ...config.auth, mode: "other" } })).toBeNull();
    expect(readAppConfig({ auth: config.auth })).toBeNull();
  });
});
