// Server-Timing on the API answers of signed-in routes (those behind requireUser, requireAdmin or
// requireFlag, whose user was found): the request's database time (all of its D1 queries, auth
// included), and outside production or for an admin the rows D1 read, the queries sent and the
// sequential round trips (`db-trips`), so cost is visible in the browser's network panel, in the bench
// and with curl. A public route gets none, whatever token comes with it, and neither does a request
// no signed-in route answered (a 401, an unknown path): its timings and counts would tell a stranger
// what the server found (an email with a pending account costs more queries than one without). A
// streamed answer (CSV) reports what ran before its headers left: the first page.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";

export const serverTiming = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const timer = c.var.dbTimer;
  const user = c.var.user;
  if (!timer || !user || !c.var.signedInRoute) return;
  const value = timer.serverTiming(c.var.config?.APP_ENV !== "production" || user.isAdmin);
  try {
    c.res.headers.set("Server-Timing", value);
  } catch {
    // Headers of a response passed through from elsewhere are immutable: answer a copy.
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set("Server-Timing", value);
  }
});
