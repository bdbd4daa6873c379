// One error type for every expected failure, and the one handler that turns every failure into the
// error contract of shared/api-error.ts: { error, code, field?, issues?, requestId }.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ApiErrorBodyOut, ErrorCode } from "@shared/api-error";
import { log } from "./log";

/** What the error answers need of the request context: its id (set by the context middleware). */
type RequestScoped = { Variables: { requestId: string } };

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly code: ErrorCode,
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
/**
 * Shards (D1 databases holding accounts' data, decision 076) failed to answer where an answer cannot
 * leave their part out: 503 naming them (`shards`), so the admin knows which database to look at.
 */
export const shardUnavailable = (shards: readonly string[]) =>
  new ApiError(503, `The database ${shards.join(", ")} did not answer; try again shortly`, "shard_unavailable", undefined, { shards });
/** A configured real provider failed: the error reaches the user, never a silent local fallback. */
export const providerError = (provider: string, message: string) =>
  new ApiError(502, `${provider}: ${message}`, "provider_error");

/** Runs one step against a provider; an unexpected failure becomes its provider error, naming the step. */
export async function providerStep<T>(provider: string, step: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw providerError(provider, `${step} failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The error body every failure answers with; `extra` carries the fields its code documents. */
export function errorBody<E extends RequestScoped>(c: Context<E>, err: ApiError): ApiErrorBodyOut {
  return {
    error: err.message,
    code: err.code,
    ...(err.field ? { field: err.field } : {}),
    ...(err.extra ?? {}),
    requestId: c.get("requestId"),
  };
}

/** Whether a path is the public API's (/v1), whose errors have their own shape. */
export const isPublicApiPath = (path: string) => path === "/v1" || path.startsWith("/v1/");

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);

/**
 * The public API's error body (docs/api.md#errors): `{ error: { code, message, field?, request_id } }`,
 * plus the fields the code documents (the plan refusal's upgrade_url, a limit's figures), snake_case.
 */
export function publicErrorBody<E extends RequestScoped>(c: Context<E>, err: ApiError) {
  const extra = Object.fromEntries(Object.entries(err.extra ?? {}).map(([k, v]) => [snakeCase(k), v]));
  return { error: { code: err.code, message: err.message, ...(err.field ? { field: err.field } : {}), ...extra, request_id: c.get("requestId") } };
}

/** An expected failure as its path's error body: /v1's shape or the dashboard API's. */
function answerError<E extends RequestScoped>(c: Context<E>, err: ApiError): Response {
  const body: object = isPublicApiPath(c.req.path) ? publicErrorBody(c, err) : errorBody(c, err);
  return c.json(body, err.status);
}

/** The app's one error handler: expected failures as they were thrown, anything else as a logged 500. */
export function onError<E extends RequestScoped>(err: Error, c: Context<E>): Response {
  if (err instanceof ApiError) {
    if (err.status >= 500) log(c, "error", err.message, { code: err.code });
    return answerError(c, err);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const message =
      status === 413 ? "Request body too large" : err.message || (status === 400 ? "Malformed request" : "Request failed");
    const field = /json/i.test(message) ? "body" : undefined;
    return answerError(c, new ApiError(status as 400, message, status === 413 ? "payload_too_large" : "bad_request", field));
  }
  log(c, "error", "unhandled error", { error: err.message, stack: err.stack });
  return answerError(c, new ApiError(500, "Internal server error", "internal_error"));
}

export function notFoundHandler<E extends RequestScoped>(c: Context<E>): Response {
  return answerError(c, new ApiError(404, `No route for ${c.req.method} ${c.req.path}`, "not_found"));
}
