import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig, PRODUCTION_REQUIRED } from "./env";
import { localAuthSecret, stripeWebhookSecret, vapiWebhookSecret } from "./providers";
import { DEV_AUTH_SECRET } from "./providers/identity/local";
import { PRODUCTION_BINDINGS } from "./test/production";

const { APP_ENV: _production, ...productionSettings } = PRODUCTION_BINDINGS;

describe("parseConfig: production unless told otherwise", () => {
  it("treats an environment without APP_ENV as production (a named wrangler environment inherits no [vars])", () => {
    const config = parseConfig(productionSettings);
    expect(config.APP_ENV).toBe("production");
    // so no development webhook secret is in force
    expect(vapiWebhookSecret(config)).toBeNull();
    expect(stripeWebhookSecret(config)).toBe(PRODUCTION_BINDINGS.STRIPE_WEBHOOK_SECRET);
  });

  it("refuses to start in production without Supabase and Stripe, naming every missing setting", () => {
    const err = (() => {
      try {
        parseConfig({});
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ConfigError);
    for (const name of PRODUCTION_REQUIRED) expect((err as Error).message).toContain(name);
  });

  it("refuses production without any one of them, a local token secret being no substitute", () => {
    for (const name of PRODUCTION_REQUIRED) {
      const settings: Record<string, unknown> = { ...PRODUCTION_BINDINGS, LOCAL_AUTH_SECRET: "s".repeat(48) };
      delete settings[name];
      expect(() => parseConfig(settings), name).toThrow(new RegExp(`${name} is required in production`));
      // blank counts as missing
      expect(() => parseConfig({ ...settings, [name]: "  " }), name).toThrow(ConfigError);
    }
    expect(parseConfig(PRODUCTION_BINDINGS).SUPABASE_URL).toBe(PRODUCTION_BINDINGS.SUPABASE_URL);
  });

  it("needs none of them in development and test", () => {
    expect(parseConfig({ APP_ENV: "development" }).APP_ENV).toBe("development");
    expect(parseConfig({ APP_ENV: "test" }).APP_ENV).toBe("test");
  });

  it("takes a simulated D1 round trip of 0 to 1000 whole milliseconds, or none", () => {
    expect(parseConfig({ APP_ENV: "development", D1_RTT_MS: "50" }).D1_RTT_MS).toBe(50);
    expect(parseConfig({ APP_ENV: "development" }).D1_RTT_MS).toBeUndefined();
    for (const bad of ["-1", "1001", "2.5", "far"]) {
      expect(() => parseConfig({ APP_ENV: "development", D1_RTT_MS: bad }), bad).toThrow(/D1_RTT_MS/);
    }
  });

  it("uses the development token secret only when a local command says development or test, never in production", () => {
    expect(localAuthSecret(parseConfig({ APP_ENV: "development" }))).toBe(DEV_AUTH_SECRET);
    expect(localAuthSecret(parseConfig({ APP_ENV: "test" }))).toBe(DEV_AUTH_SECRET);
    expect(() => localAuthSecret(parseConfig(PRODUCTION_BINDINGS))).toThrow(/LOCAL_AUTH_SECRET/);
  });
});
