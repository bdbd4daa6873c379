// Per-request context: request id, parsed config, database and provider ports.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { parseConfig } from "../env";
import { createDb } from "../db/client";
import { createProviders } from "../providers";
import { resendLocalSignup } from "../services/local-auth";

/** The request's ExecutionContext, or undefined when there is none (app.request() in tests). */
function executionContext(c: Context<AppEnv>): Context<AppEnv>["executionCtx"] | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}

export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const incoming = c.req.header("x-request-id");
  const requestId = incoming && /^[\w.-]{8,64}$/.test(incoming) ? incoming : crypto.randomUUID();
  c.set("requestId", requestId);
  c.header("x-request-id", requestId);
  const config = parseConfig(c.env);
  const db = createDb(c.env.DB);
  c.set("config", config);
  c.set("db", db);
  const origin = new URL(c.req.url).origin;
  c.set(
    "providers",
    createProviders(config, db, {
      resendLocalSignup: (email, redirectTo) => resendLocalSignup(db, config, origin, email, redirectTo),
      origin,
      // The voice simulator posts its reports to our own webhook route, in-process; the app is
      // imported lazily because it imports this middleware.
      deliverWebhook: async (request) => (await import("../app")).app.fetch(request, c.env, executionContext(c)),
      defer: (promise) => {
        const ctx = executionContext(c);
        if (ctx) ctx.waitUntil(promise);
        else promise.catch(() => undefined);
      },
    }, { AI: c.env.AI }),
  );
  await next();
});
