// Per-request context: request id, parsed config, database and provider ports.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { parseConfig } from "../env";
import { createDb } from "../db/client";
import { createProviders } from "../providers";
import { resendLocalSignup } from "../services/local-auth";

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
    }),
  );
  await next();
});
