// zod validation for every endpoint: bad input becomes a 400 naming the field.
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import type { ApiErrorIssue } from "@shared/api-error";
import { ApiError } from "./errors";

/** zod issues as the error contract's 400: the first names the field and the message, all are listed. */
export function issuesToError(issues: readonly z.core.$ZodIssue[]): ApiError {
  const first = issues[0];
  const field = first?.path.length ? first.path.map(String).join(".") : undefined;
  const message = field ? `${field}: ${first.message}` : (first?.message ?? "Invalid input");
  const listed: ApiErrorIssue[] = issues.map((i) => ({ field: i.path.map(String).join("."), message: i.message }));
  return new ApiError(400, message, "validation_error", field, { issues: listed });
}

export const validate = <T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
  zValidator(target, schema, (result) => {
    if (!result.success) throw issuesToError(result.error.issues);
  });
