// One error type for every expected failure; `onError` turns it into the JSON error shape.
import type { ContentfulStatusCode } from "hono/utils/http-status";

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly code: string = "error",
    readonly field?: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string) => new ApiError(400, message, "validation_error", field);
export const unauthorized = (message = "Authentication required") => new ApiError(401, message, "unauthorized");
export const forbidden = (message = "You do not have permission to do this") => new ApiError(403, message, "forbidden");
export const notFound = (message = "Not found") => new ApiError(404, message, "not_found");
export const conflict = (message: string, field?: string) => new ApiError(409, message, "conflict", field);
export const tooManyRequests = (message = "Too many requests. Please wait a minute and try again.") =>
  new ApiError(429, message, "rate_limited");
/** A configured real provider failed: the error reaches the user, never a silent local fallback. */
export const providerError = (provider: string, message: string) =>
  new ApiError(502, `${provider}: ${message}`, "provider_error");
