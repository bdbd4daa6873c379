// zod validation for every endpoint: bad input becomes a 400 naming the field.
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import type { ApiErrorIssue } from "@shared/api-error";
import { ApiError } from "./errors";

/**
 * zod issues as the error contract's 400: the first names the field and the message, all are listed.
 * An issue about the input as a whole (a body that is not an object, say) names the input itself:
 * `whole` ("body" unless the query or the path was read).
 */
export function issuesToError(issues: readonly z.core.$ZodIssue[], whole = "body"): ApiError {
  const first = issues[0];
  const fieldOf = (i: z.core.$ZodIssue) => i.path.map(String).join(".") || whole;
  const field = first ? fieldOf(first) : whole;
  const message = `${field}: ${first?.message ?? "Invalid input"}`;
  const listed: ApiErrorIssue[] = issues.map((i) => ({ field: fieldOf(i), message: i.message }));
  return new ApiError(400, message, "validation_error", field, { issues: listed });
}

/** What an issue without a path is about, per validated part of the request. */
const WHOLE_INPUT: Partial<Record<keyof ValidationTargets, string>> = { json: "body", form: "body", query: "query", param: "path" };

export const validate = <T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
  zValidator(target, schema, (result) => {
    if (!result.success) throw issuesToError(result.error.issues, WHOLE_INPUT[target] ?? String(target));
  });
