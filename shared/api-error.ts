// The one error contract of the API, used by the worker's error helpers and onError and by the
// SPA's request helper: every failed call answers `{error, code, field?, issues?, requestId}`,
// plus the extra fields a code documents (the limit figures of the two limit codes).
import { z } from "zod";

/** Codes of the product API (`/api/*`). */
export const API_ERROR_CODES = [
  "validation_error",
  "bad_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "duplicate_name",
  "agent_limit_reached",
  "phone_limit_reached",
  "number_unavailable",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "provider_error",
  "not_configured",
  "internal_error",
  "invalid_signature",
  "subscription_required",
  "minutes_limit_reached",
  "card_declined",
  "product_unavailable",
  "proof_required",
  "api_key_limit_reached",
  "insufficient_scope",
  "shard_unavailable",
] as const;

/** Codes of the local identity service (`/auth/v1/*`), named as GoTrue names them for supabase-js. */
export const AUTH_ERROR_CODES = [
  "email_not_confirmed",
  "invalid_credentials",
  "refresh_token_already_used",
  "refresh_token_not_found",
  "unsupported_grant_type",
  "validation_failed",
  "bad_jwt",
  "no_authorization",
  "user_not_found",
  "user_already_exists",
  "weak_password",
  "over_request_rate_limit",
  "reauthentication_needed",
  "session_expired",
  "otp_expired",
  "otp_invalid",
  "email_exists",
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
export type AuthErrorCode = (typeof AUTH_ERROR_CODES)[number];
export type ErrorCode = ApiErrorCode | AuthErrorCode;

export const apiErrorIssue = z.object({ field: z.string(), message: z.string() });
export type ApiErrorIssue = z.infer<typeof apiErrorIssue>;

/**
 * The error body as the SPA reads it. `code` stays a string on the reading side so an answer from
 * a newer server with a code this bundle does not know is still read, not discarded.
 */
export const apiErrorBody = z.looseObject({
  error: z.string(),
  code: z.string(),
  field: z.string().optional(),
  issues: z.array(apiErrorIssue).optional(),
  requestId: z.string().optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBody>;

/** The body as the worker writes it: the code is one of ours. */
export type ApiErrorBodyOut = Omit<ApiErrorBody, "code"> & { code: ErrorCode; [extra: string]: unknown };
