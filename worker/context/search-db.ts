// The search database of a request (decision 059): the call-log search reads it, and the search
// index's subscribers to committed changes (worker/events/subscribers.ts) write it after the answer.
import type { Context } from "hono";
import { d1Of } from "../db/client";
import { SEARCH_BINDING } from "../db/search-index";
import type { AppEnv } from "../app-env";

/** The request's session of the search database, measured like every other D1 query of the request. */
export const searchDatabase = (c: Context<AppEnv>): D1Database => d1Of(c.var.databases.of(SEARCH_BINDING));
