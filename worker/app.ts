// Routes mounted in one place; AppType exported for the typed client.
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./env";
import { ApiError } from "./lib/errors";
import { authenticate } from "./middleware/auth";
import { requestContext } from "./middleware/context";
import { notFoundHandler, onError } from "./middleware/errors";
import { log } from "./lib/log";
import { healthRoutes } from "./routes/health";
import { configRoutes } from "./routes/config";
import { localAuthRoutes } from "./routes/auth-v1";
import { publicAccountRoutes } from "./routes/public-account";
import { localMailboxRoutes } from "./routes/local-mailbox";
import { profileRoutes } from "./routes/profile";
import { callLogRoutes, vapiRoutes } from "./routes/call-logs";
import { vapiWebhookRoutes } from "./routes/vapi-webhook";
import { phoneLimitRoutes } from "./routes/phone-limit";
import { twilioRoutes } from "./routes/twilio";
import { agentActionRoutes, agentRoutes } from "./routes/agents";
import { countRoutes } from "./routes/counts";

const api = new Hono<AppEnv>()
  .route("/health", healthRoutes)
  .route("/config", configRoutes)
  .route("/admin/public", publicAccountRoutes)
  .route("/local", localMailboxRoutes)
  .route("/profile", profileRoutes)
  .route("/webhooks/vapi", vapiWebhookRoutes)
  // Before /call-logs: its count is a path of its own, never an id of the call-log list.
  .route("/", countRoutes)
  .route("/call-logs", callLogRoutes)
  .route("/vapi", vapiRoutes)
  .route("/admin/config/phone-limit", phoneLimitRoutes)
  .route("/twilio", twilioRoutes)
  .route("/agents", agentRoutes)
  .route("/", agentActionRoutes);

export const app = new Hono<AppEnv>();

app.use("*", requestContext((request, env, ctx) => Promise.resolve(app.fetch(request, env, ctx))));
app.use("*", async (c, next) => {
  const started = Date.now();
  await next();
  if (c.var.config?.APP_ENV !== "test" && (c.req.path.startsWith("/api") || c.req.path.startsWith("/auth"))) {
    log(c, "info", "request", { method: c.req.method, path: c.req.path, status: c.res.status, ms: Date.now() - started });
  }
});
app.use(
  "*",
  secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:"],
      fontSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
      frameAncestors: ["'none'"],
      mediaSrc: ["'self'", "https:"],
    },
  }),
);
const limit = (maxSize: number) =>
  bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError(413, "Request body too large", "payload_too_large", "body");
    },
  });
// Webhook reports carry whole transcripts; every other API body is small.
const webhookBodyLimit = limit(2 * 1024 * 1024);
const apiBodyLimit = limit(256 * 1024);
app.use("/api/*", (c, next) => (c.req.path.startsWith("/api/webhooks/") ? webhookBodyLimit : apiBodyLimit)(c, next));
app.use("/auth/*", limit(64 * 1024));
app.use("/api/*", authenticate);

export const routes = app.route("/api", api).route("/auth/v1", localAuthRoutes);

app.all("/api/*", notFoundHandler);
app.all("/auth/*", notFoundHandler);
app.notFound((c) => {
  // Everything that is not API is the SPA (assets answer first in deployment).
  if (c.env.ASSETS) return c.env.ASSETS.fetch(c.req.raw);
  return notFoundHandler(c);
});
app.onError(onError);

export type AppType = typeof routes;
