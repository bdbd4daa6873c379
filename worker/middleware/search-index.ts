// The search database of a request (decision 059), and the index step after a call-log write: run
// once the answer is sent (waitUntil), so a webhook or a test call is not slowed by a second database.
import type { Context } from "hono";
import { d1Of } from "../db/client";
import { SEARCH_BINDING } from "../db/search-index";
import { log } from "../lib/log";
import type { AppEnv } from "./app-env";
import { executionContext } from "./context";

/** The request's session of the search database, measured like every other D1 query of the request. */
export const searchDatabase = (c: Context<AppEnv>): D1Database => d1Of(c.var.databases.of(SEARCH_BINDING));

/**
 * Brings the search index in step after a call-log write has committed, without holding the answer.
 * A failure is logged and changes nothing else: the 10-minute healing pass indexes what it missed.
 * Without an execution context (a test's app.request) there is nothing to run it after the answer,
 * and it is left to the healing pass.
 */
export function indexAfterCommit(c: Context<AppEnv>, what: string, work: (search: D1Database) => Promise<unknown>) {
  const ctx = executionContext(c);
  if (!ctx) return;
  ctx.waitUntil(
    work(searchDatabase(c)).catch((e) => log(null, "warn", `search index step failed: ${what}`, { error: e instanceof Error ? e.message : String(e) })),
  );
}
