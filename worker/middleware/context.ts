// Per-request context: request id, parsed config, database and provider ports.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { ConfigError, parseConfig } from "../env";
import { ApiError } from "../lib/errors";
import { BOOKMARK_HEADER, formatBookmarks, parseBookmarks } from "@shared/d1-bookmarks";
import { DIRECTORY_BINDING, RequestDatabases, sessionStart } from "../db/sessions";
import { shardDatabase } from "../db/shards";
import { D1Timer } from "../db/timed-d1";
import { createProviders } from "../providers";
import { withLogScope } from "../lib/log";

/** The request's ExecutionContext, or undefined when there is none (app.request() in tests). */
/** The request's execution context, or undefined where there is none (a test's app.request()). */
export function executionContext(c: Context<AppEnv>): Context<AppEnv>["executionCtx"] | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}

/** Dispatches a request to the app itself (the voice simulator posts its reports through it). */
export type SelfDispatch = (request: Request, env: AppEnv["Bindings"], ctx: ExecutionContext | undefined) => Promise<Response>;

/**
 * Sets the request id, the parsed config, the database and the provider ports once per request.
 * `dispatch` is the app's own fetch, handed in by app.ts (importing the app here would be a cycle).
 */
export const requestContext = (dispatch: SelfDispatch) => createMiddleware<AppEnv>(async (c, next) => {
  const incoming = c.req.header("x-request-id");
  const requestId = incoming && /^[\w.-]{8,64}$/.test(incoming) ? incoming : crypto.randomUUID();
  c.set("requestId", requestId);
  c.header("x-request-id", requestId);
  let config: AppEnv["Variables"]["config"];
  try {
    config = parseConfig(c.env);
  } catch (e) {
    // A Worker cannot refuse to start: a deployment missing what it needs answers every request with
    // what is missing (setting names only, never values), and serves nothing else.
    if (e instanceof ConfigError) throw new ApiError(503, e.message, "not_configured");
    throw e;
  }
  // Every query of the request goes through one timer, reported by the Server-Timing middleware; the
  // simulated distance to D1 applies outside production only.
  const dbTimer = new D1Timer({ rttMs: config.APP_ENV === "production" ? 0 : config.D1_RTT_MS });
  // Every database is a D1 session (decision 052): a person's request starts from the bookmarks its
  // client sent back, so it reads its own writes from whichever replica answers; webhooks and
  // ingestion use the primary. `db` is the directory database; an account's calls, alerts and webhooks
  // are on its shard, read through accountDb (worker/context/account-db.ts).
  const databases = new RequestDatabases(
    (name) => (name === DIRECTORY_BINDING ? c.env.DB : shardDatabase(c.env, name)),
    dbTimer,
    sessionStart(c.req.path, parseBookmarks(c.req.header(BOOKMARK_HEADER))),
  );
  const db = databases.directory;
  c.set("dbTimer", dbTimer);
  c.set("config", config);
  c.set("databases", databases);
  c.set("db", db);
  const origin = new URL(c.req.url).origin;
  c.set(
    "providers",
    createProviders(config, db, {
      origin,
      // The voice simulator posts its reports to our own webhook route, in-process.
      deliverWebhook: (request) => dispatch(request, c.env, executionContext(c) as ExecutionContext | undefined),
      defer: (promise) => {
        const ctx = executionContext(c);
        if (ctx) ctx.waitUntil(promise);
        else promise.catch(() => undefined);
      },
    }, { AI: c.env.AI }),
  );
  // Every log line of the request, and of the work it defers, carries its id ([025](../../docs/decisions/025-job-runs-and-log-scope.md)).
  await withLogScope({ requestId }, next);
  // The newest point of each database the request saw, for the client's next request.
  const bookmarks = formatBookmarks(databases.bookmarks());
  if (bookmarks) {
    try {
      c.res.headers.set(BOOKMARK_HEADER, bookmarks);
    } catch {
      // Headers of a response passed through from elsewhere are immutable: answer a copy.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set(BOOKMARK_HEADER, bookmarks);
    }
  }
});
