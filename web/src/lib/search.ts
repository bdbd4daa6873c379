// Search-parameter schemas for route validateSearch. zod/mini keeps these out of the first
// page's bundle weight (the full zod build loads with the forms that need it).
import * as z from "zod/mini";

/** A trimmed text value; the router parses `?email=123` as a number, so numbers are taken as text. */
export const searchText = (max = 254) =>
  z.catch(
    z.optional(
      z.pipe(
        z.union([z.string(), z.number()]),
        z.transform((v) => String(v).trim().slice(0, max) || undefined),
      ),
    ),
    undefined,
  );

/** A `=1` flag: the router parses `?login=1` as the number 1; hand-written links may carry "1" or true. */
export const searchFlag = () =>
  z.catch(
    z.optional(
      z.pipe(
        z.union([z.literal(1), z.literal("1"), z.literal(true)]),
        z.transform(() => 1 as const),
      ),
    ),
    undefined,
  );

export const emailSearchSchema = z.object({ email: searchText() });
