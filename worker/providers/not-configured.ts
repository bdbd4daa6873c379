// The adapter of a port whose secrets are missing in production (docs/product/design.md#providers, decision 040): every
// call answers 503 naming the settings to set, so the routes that need the provider say so and
// nothing falls back to its local stand-in.
import type { AppConfig } from "../env";
import { ApiError } from "../lib/errors";

export const NOT_CONFIGURED = "not_configured" as const;

/** Local adapters serve development and test only; production has the real one or none. */
export const localAllowed = (config: AppConfig) => config.APP_ENV !== "production";

/** The refusal of a port that is not configured, naming its provider and the settings it needs. */
export const notConfiguredError = (provider: string, settings: string[]) =>
  new ApiError(503, `${provider} is not configured on this deployment (${settings.join(", ")})`, "not_configured");

/**
 * A port whose every method rejects with notConfiguredError; `kept` supplies members that still work
 * without the provider's secrets (a webhook reader, an absent simulator). `kind` is "not_configured",
 * so code that serves a local adapter's own routes (kind === "local") never serves them.
 */
export function notConfiguredPort<T extends object>(provider: string, settings: string[], kept: Partial<T> = {}): T {
  const error = () => notConfiguredError(provider, settings);
  return new Proxy(kept as T, {
    get(target, prop) {
      if (prop in target) return target[prop as keyof T];
      if (prop === "kind") return NOT_CONFIGURED;
      // Not a promise: `await port` must not call a `then` of ours.
      if (typeof prop === "symbol" || prop === "then") return undefined;
      return () => Promise.reject(error());
    },
  });
}
