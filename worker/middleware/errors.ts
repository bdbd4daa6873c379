// The one place that turns failures into the JSON error shape:
// { error: "<message>", code, field?, issues?, requestId }.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";
import { log } from "../lib/log";

export function errorBody(c: Context<AppEnv>, err: ApiError) {
  return {
    error: err.message,
    code: err.code,
    ...(err.field ? { field: err.field } : {}),
    ...(err.extra ?? {}),
    requestId: c.get("requestId"),
  };
}

export function onError(err: Error, c: Context<AppEnv>) {
  if (err instanceof ApiError) {
    if (err.status >= 500) log(c, "error", err.message, { code: err.code });
    return c.json(errorBody(c, err), err.status);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const message =
      status === 413 ? "Request body too large" : err.message || (status === 400 ? "Malformed request" : "Request failed");
    const field = /json/i.test(message) ? "body" : undefined;
    return c.json(errorBody(c, new ApiError(status as 400, message, status === 413 ? "payload_too_large" : "bad_request", field)), status);
  }
  log(c, "error", "unhandled error", { error: err.message, stack: err.stack });
  return c.json(errorBody(c, new ApiError(500, "Internal server error", "internal_error")), 500);
}

export function notFoundHandler(c: Context<AppEnv>) {
  return c.json(errorBody(c, new ApiError(404, `No route for ${c.req.method} ${c.req.path}`, "not_found")), 404);
}
