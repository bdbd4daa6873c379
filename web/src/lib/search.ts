// Search-parameter parsers for route validateSearch. They are plain functions, not zod: the route
// tree (and so every route's validateSearch) is part of the entry chunk, and keeping a schema
// library out of it keeps the first page light (decision 023). Unknown or malformed values are
// dropped, never thrown: a hand-edited address still opens its screen.
import { CALL_LOG_OUTCOMES } from "@shared/call-outcomes";

/** One parameter: its value when well formed, else undefined. */
export type SearchField<T> = (value: unknown) => T | undefined;

/** A trimmed text value; the router parses `?email=123` as a number, so numbers are taken as text. */
export const searchText =
  (max = 254): SearchField<string> =>
  (value) =>
    typeof value === "string" || typeof value === "number" ? String(value).trim().slice(0, max) || undefined : undefined;

/** A `=1` flag: the router parses `?login=1` as the number 1; hand-written links may carry "1" or true. */
export const searchFlag = (): SearchField<1> => (value) => (value === 1 || value === "1" || value === true ? 1 : undefined);

/** One of a fixed set of words. */
export const searchEnum =
  <const T extends string>(values: readonly T[]): SearchField<T> =>
  (value) =>
    typeof value === "string" && (values as readonly string[]).includes(value) ? (value as T) : undefined;

export type SearchOf<S extends Record<string, SearchField<unknown>>> = {
  [K in keyof S]?: S[K] extends SearchField<infer T> ? T : never;
};

/** A route's search: each named field parsed, the others (and malformed ones) left out. */
export function searchSchema<S extends Record<string, SearchField<unknown>>>(fields: S) {
  return (search: Record<string, unknown>): SearchOf<S> => {
    const out: Record<string, unknown> = {};
    for (const [key, parse] of Object.entries(fields)) {
      const value = parse(search[key]);
      if (value !== undefined) out[key] = value;
    }
    return out as SearchOf<S>;
  };
}

export const emailSearchSchema = searchSchema({ email: searchText() });

/** An instant (`2026-11-20T14:00:00Z`, or with an offset), as its UTC ISO-8601 form. */
export const searchInstant = (): SearchField<string> => (value) => {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
};

/**
 * /call-logs?q=: the transcript search in effect (decision 059); ?from=&to=&agent=&outcome=: the
 * list's filters (GET /api/call-logs), as an alert's link to its calls sets them. A `to` not after
 * `from` is dropped, as the server would refuse it.
 */
const callLogsFields = searchSchema({ q: searchText(200), from: searchInstant(), to: searchInstant(), agent: searchText(200), outcome: searchEnum(CALL_LOG_OUTCOMES) });
export type CallLogsSearch = ReturnType<typeof callLogsFields>;
export const callLogsSearchSchema = (search: Record<string, unknown>): CallLogsSearch => {
  const out = callLogsFields(search);
  if (out.from && out.to && out.to <= out.from) delete out.to;
  return out;
};
