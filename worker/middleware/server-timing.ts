// Server-Timing on every API answer: the request's database time (all of its D1 queries, auth
// included), and in development the rows D1 read and the queries sent, so cost is visible in the
// browser's network panel and in the bench. A streamed answer (CSV) reports what ran before its
// headers left: the first page.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";

export const serverTiming = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const timer = c.var.dbTimer;
  if (!timer) return;
  const value = timer.serverTiming(c.var.config?.APP_ENV === "development");
  try {
    c.res.headers.set("Server-Timing", value);
  } catch {
    // Headers of a response passed through from elsewhere are immutable: answer a copy.
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set("Server-Timing", value);
  }
});
