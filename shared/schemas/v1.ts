// The public API's inputs and answers (/v1; docs/api.md). Field names are snake_case, ids are
// strings, timestamps ISO-8601 UTC; a list answers { data, next_cursor }, one object answers itself,
// and every failure answers the one error shape below.
import { z } from "zod";
import { daysInRange, MAX_RANGE_DAYS } from "../ny-time";
import { isoDay } from "./counts";
import { transcript } from "./call-logs";

/** Stable codes of /v1 errors (docs/api.md#errors). */
export const V1_ERROR_CODES = [
  "validation_error",
  "unauthorized",
  "insufficient_scope",
  "subscription_required",
  "forbidden",
  "not_found",
  "rate_limited",
  "payload_too_large",
  "minutes_limit_reached",
  "conflict",
  "provider_error",
  "not_configured",
  "internal_error",
] as const;

/** Every failed /v1 call: a stable code, a message for people, the field of a validation error, the request's id. */
export const v1ErrorBody = z.object({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    field: z.string().optional(),
    request_id: z.string(),
  }),
});
export type V1ErrorBody = z.infer<typeof v1ErrorBody>;

/** A list page: its items and the cursor of the next page (null on the last). */
const page = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), next_cursor: z.string().nullable() });

const instant = z.iso.datetime({ offset: true, error: "must be an ISO-8601 date-time, e.g. 2026-05-01T00:00:00Z" });

// ---------------------------------------------------------------- calls

export const V1_DIRECTIONS = ["inbound", "outbound", "web"] as const;

export const v1CallsQuery = z
  .object({
    /** Calls started at or after this instant. */
    from: instant.optional(),
    /** Calls started before this instant. */
    to: instant.optional(),
    direction: z.enum(V1_DIRECTIONS, { error: `must be one of ${V1_DIRECTIONS.join(", ")}` }).optional(),
    agent_id: z.string().regex(/^\d{1,12}$/, "must be an agent id").optional(),
    status: z.string().trim().min(1, "must not be empty").max(40, "must be at most 40 characters").optional(),
    limit: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").max(100, "must be at most 100").default(25),
    cursor: z.string().max(200, "is not a cursor").optional(),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && Date.parse(q.to) <= Date.parse(q.from)) ctx.addIssue({ code: "custom", path: ["to"], message: "must be after from" });
  });
export type V1CallsQuery = z.infer<typeof v1CallsQuery>;

export const v1Call = z.object({
  id: z.string(),
  agent_id: z.string().nullable(),
  direction: z.enum(V1_DIRECTIONS),
  status: z.string(),
  ended_reason: z.string().nullable(),
  phone_number: z.string().nullable(),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  duration_seconds: z.number(),
  cost: z.number().nullable(),
});
export type V1Call = z.infer<typeof v1Call>;
export const v1CallList = page(v1Call);
export type V1CallList = z.infer<typeof v1CallList>;

export const v1CallDetail = v1Call.extend({
  summary: z.string().nullable(),
  transcript: transcript.nullable(),
  recording_url: z.string().nullable(),
});
export type V1CallDetail = z.infer<typeof v1CallDetail>;

export const v1CallIdParam = z.object({ id: z.string().min(1, "is required").max(200, "is not a call id") });

// ---------------------------------------------------------------- counts

export const V1_COUNT_DIRECTIONS = ["inbound", "outbound", "both"] as const;

export const v1CountsQuery = z
  .object({
    start_date: isoDay,
    end_date: isoDay,
    direction: z.enum(V1_COUNT_DIRECTIONS, { error: `must be one of ${V1_COUNT_DIRECTIONS.join(", ")}` }).default("both"),
  })
  .superRefine((q, ctx) => {
    const days = daysInRange(q.start_date, q.end_date);
    if (days < 1) ctx.addIssue({ code: "custom", path: ["end_date"], message: "must not be before start_date" });
    else if (days > MAX_RANGE_DAYS) ctx.addIssue({ code: "custom", path: ["end_date"], message: `must be at most ${MAX_RANGE_DAYS} days after start_date` });
  });
export type V1CountsQuery = z.infer<typeof v1CountsQuery>;

/** The dashboard's Call Logs figures over New York days (docs/decisions/009-count-definitions.md). */
export const v1Counts = z.object({
  start_date: z.string(),
  end_date: z.string(),
  direction: z.enum(V1_COUNT_DIRECTIONS),
  total: z.number(),
  connected: z.number(),
  voicemail: z.number(),
  forwarded: z.number(),
});
export type V1Counts = z.infer<typeof v1Counts>;

// ---------------------------------------------------------------- agents

export const v1Agent = z.object({
  id: z.string(),
  name: z.string(),
  /** active: it has an assistant on the voice platform and answers calls. */
  status: z.enum(["active", "inactive"]),
  assistant_id: z.string().nullable(),
  phone_number: z.string().nullable(),
  store: z.string().nullable(),
  voice_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type V1Agent = z.infer<typeof v1Agent>;
export const v1AgentList = page(v1Agent);
export type V1AgentList = z.infer<typeof v1AgentList>;

export const v1AgentIdParam = z.object({ id: z.string().regex(/^\d{1,12}$/, "must be an agent id").transform(Number) });
