// How long one request to a vendor may take before it is abandoned (PROVIDER_TIMEOUT_MS): a provider
// that accepts the connection and never answers must not hold the user's request open forever.
export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

/** The abort signal of one vendor request. */
export const providerSignal = (timeoutMs: number | undefined) => AbortSignal.timeout(timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS);

/** The message a timed-out or failed fetch is reported with (the abort's own text names no provider). */
export const fetchFailure = (e: unknown) =>
  e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError") ? "no answer in time" : `network error: ${(e as Error).message}`;
