// "A store" wherever one is accepted (agent bodies, count filters, the analysis, ingestion): its code
// or its name, read as its code (shared/stores.ts); anything else is refused naming the field.
import { z } from "zod";
import { STORES } from "../constants";
import { storeOf } from "../stores";

export const STORE_ISSUE = `must be one of ${STORES.join(", ")}, or the store's name (e.g. Oklahoma City)`;

export const storeField = z.string({ error: STORE_ISSUE }).transform((value, ctx) => {
  const store = storeOf(value);
  if (store) return store;
  ctx.addIssue({ code: "custom", message: STORE_ISSUE });
  return z.NEVER;
});
