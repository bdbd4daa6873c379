import { describe, expect, it } from "vitest";
import { MIN_PRODUCTION_SECRET_LENGTH, parseConfig } from "./env";
import { localAuthSecret, vapiWebhookSecret } from "./providers";
import { DEV_AUTH_SECRET } from "./providers/identity/local";

const strong = "s".repeat(MIN_PRODUCTION_SECRET_LENGTH);

describe("parseConfig: production unless told otherwise", () => {
  it("treats an environment without APP_ENV as production (a named wrangler environment inherits no [vars])", () => {
    const config = parseConfig({ LOCAL_AUTH_SECRET: strong });
    expect(config.APP_ENV).toBe("production");
    // so no development webhook secret is in force and the real token secret signs
    expect(vapiWebhookSecret(config)).toBeNull();
    expect(localAuthSecret(config)).toBe(strong);
  });

  it("refuses to start without APP_ENV and without a token secret when Supabase is not configured", () => {
    expect(() => parseConfig({})).toThrow(/LOCAL_AUTH_SECRET is required in production/);
  });

  it("refuses a short token secret in production, at the edge of the minimum", () => {
    expect(() => parseConfig({ LOCAL_AUTH_SECRET: "s".repeat(MIN_PRODUCTION_SECRET_LENGTH - 1) })).toThrow(
      /at least 32 characters/,
    );
    expect(parseConfig({ LOCAL_AUTH_SECRET: strong }).LOCAL_AUTH_SECRET).toBe(strong);
  });

  it("needs no token secret in production when Supabase signs the tokens", () => {
    expect(parseConfig({ SUPABASE_URL: "https://x.supabase.co" }).APP_ENV).toBe("production");
  });

  it("uses the development secret only when a local command says development or test", () => {
    expect(localAuthSecret(parseConfig({ APP_ENV: "development" }))).toBe(DEV_AUTH_SECRET);
    expect(localAuthSecret(parseConfig({ APP_ENV: "test" }))).toBe(DEV_AUTH_SECRET);
  });
});
