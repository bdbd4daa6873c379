// Every route mounted in one place, behind the middleware every request passes.
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./env";
import { ApiError, notFoundHandler, onError } from "./lib/errors";
import { authenticate } from "./middleware/auth";
import { requestContext } from "./middleware/context";
import { serverTiming } from "./middleware/server-timing";
import { log } from "./lib/log";
import { voiceSimulatorRoutes } from "./providers/voice/local-routes";
import { healthRoutes } from "./routes/health";
import { configRoutes } from "./routes/config";
import { localAuthRoutes } from "./routes/local-auth";
import { publicAccountRoutes } from "./routes/public-account";
import { localMailboxRoutes } from "./routes/local-mailbox";
import { profileRoutes, profileUpdateRoutes } from "./routes/profile";
import { callLogRoutes, platformCallRoutes } from "./routes/call-logs";
import { vapiWebhookRoutes } from "./routes/vapi-webhook";
import { aircallWebhookRoutes } from "./routes/aircall-webhook";
import { localAircallRoutes } from "./routes/local-aircall";
import { phoneLimitRoutes } from "./routes/phone-limit";
import { phoneNumberRoutes } from "./routes/phone-numbers";
import { agentActionRoutes, agentRoutes } from "./routes/agents";
import { analyticsRoutes } from "./routes/analytics";
import { reportRoutes } from "./routes/reports";
import { dailyReportRoutes } from "./routes/daily-reports";
import { ingestRoutes } from "./routes/ingest";
import { countRoutes } from "./routes/counts";

const api = new Hono<AppEnv>()
  .route("/health", healthRoutes)
  .route("/config", configRoutes)
  .route("/admin/public", publicAccountRoutes)
  .route("/admin/public", profileUpdateRoutes)
  .route("/local", localMailboxRoutes)
  .route("/profile", profileRoutes)
  .route("/local/aircall", localAircallRoutes)
  // Before /call-logs: its count is a path of its own, never an id of the call-log list.
  .route("/", countRoutes)
  .route("/call-logs", callLogRoutes)
  .route("/vapi", platformCallRoutes)
  .route("/admin/config/phone-limit", phoneLimitRoutes)
  .route("/twilio", phoneNumberRoutes)
  .route("/agents", agentRoutes)
  .route("/analytics", analyticsRoutes)
  .route("/", reportRoutes)
  .route("/", dailyReportRoutes)
  .route("/ingest", ingestRoutes)
  .route("/", agentActionRoutes);

export const app = new Hono<AppEnv>();

// The context is given the app's own fetch because the voice simulator delivers its webhook reports
// in-process, through the same route and checks as VAPI's (a fetch to our own public URL would leave
// the Worker, and is not even reachable in tests); passed in rather than imported, to avoid a cycle.
app.use("*", requestContext((request, env, ctx) => Promise.resolve(app.fetch(request, env, ctx))));
app.use("*", async (c, next) => {
  const started = Date.now();
  await next();
  if (c.var.config?.APP_ENV !== "test" && (c.req.path.startsWith("/api") || c.req.path.startsWith("/auth"))) {
    log(c, "info", "request", { method: c.req.method, path: c.req.path, status: c.res.status, ms: Date.now() - started });
  }
});
// Outside the error handler's reach (onError answers inside it), so refusals carry it too.
app.use("/api/*", serverTiming);
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
// Webhook reports carry whole transcripts and ingestion up to 1,000 records; every other API body is small.
const webhookBodyLimit = limit(2 * 1024 * 1024);
const apiBodyLimit = limit(256 * 1024);
app.use("/api/*", (c, next) => (/^\/api\/(webhooks|ingest)\//.test(c.req.path) ? webhookBodyLimit : apiBodyLimit)(c, next));
app.use("/auth/*", limit(64 * 1024));
// Authentication runs on every /api path, webhooks included: it only resolves a bearer token when one
// is sent (public routes then simply ignore c.var.user); webhooks carry none and check their own secret.
app.use("/api/*", authenticate);

app
  .route("/api", api)
  .route("/auth/v1", localAuthRoutes)
  .route("/", vapiWebhookRoutes)
  .route("/", aircallWebhookRoutes)
  .route("/", voiceSimulatorRoutes);

app.all("/api/*", notFoundHandler);
app.all("/auth/*", notFoundHandler);
app.notFound((c) => {
  // Everything that is not API is the SPA (assets answer first in deployment).
  if (c.env.ASSETS) return c.env.ASSETS.fetch(c.req.raw);
  return notFoundHandler(c);
});
app.onError(onError);
