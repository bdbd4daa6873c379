import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
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

describe("the configuration from the page's shell", () => {
  const config = { auth: { mode: "local", url: "http://127.0.0.1:8787", anonKey: "local-anon-key" }, localMailbox: true };

  function shellWith(text: string | null) {
    document.getElementById("app-config")?.remove();
    if (text === null) return;
    const el = document.createElement("script");
    el.type = "application/json";
    el.id = "app-config";
    el.textContent = text;
    document.head.append(el);
  }

  afterEach(() => {
    shellWith(null);
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it("reads the Worker's script element, and nothing when it is missing, malformed or of another shape", async () => {
    const { shellAppConfig } = await import("./auth-client");
    shellWith(JSON.stringify(config));
    expect(shellAppConfig()).toEqual(config);
    for (const text of [null, "", "{not json", JSON.stringify({ auth: { mode: "other" } })]) {
      shellWith(text);
      expect(shellAppConfig(), String(text)).toBeNull();
    }
  });

  it("answers getAppConfig from the shell without asking the server, and asks when the shell has none", async () => {
    const fetchMock = vi.fn(async () => Response.json({ ...config, localMailbox: false }));
    vi.stubGlobal("fetch", fetchMock);
    shellWith(JSON.stringify(config));
    expect(await (await import("./auth-client")).getAppConfig()).toEqual(config);
    expect(fetchMock).not.toHaveBeenCalled();

    vi.resetModules();
    shellWith(null);
    expect(await (await import("./auth-client")).getAppConfig()).toEqual({ ...config, localMailbox: false });
    expect(fetchMock).toHaveBeenCalledWith("/api/config", { credentials: "include" });
  });
});
