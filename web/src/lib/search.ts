// Search-parameter parsers for route validateSearch. They are plain functions, not zod: the route
// tree (and so every route's validateSearch) is part of the entry chunk, and keeping a schema
// library out of it keeps the first page light (decision 023). Unknown or malformed values are
// dropped, never thrown: a hand-edited address still opens its screen.

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

/** /call-logs?q=: the transcript search in effect (decision 059). */
export const callLogsSearchSchema = searchSchema({ q: searchText(200) });
