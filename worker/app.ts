// Every route mounted in one place, behind the middleware every request passes.
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./app-env";
import { ApiError, notFoundHandler, onError } from "./lib/errors";
import { authenticate } from "./middleware/auth";
import { requestContext } from "./middleware/context";
import { serverTiming } from "./middleware/server-timing";
import { log } from "./lib/log";
import { contentSources } from "./content-sources";
import { SIM_RECORDING_PATH } from "./providers";
import { healthRoutes } from "./routes/health";
import { configRoutes } from "./routes/config";
import { localAuthRoutes } from "./routes/local-auth";
import { publicAccountRoutes } from "./routes/public-account";
import { localMailboxRoutes } from "./routes/local-mailbox";
import { localWebhookInboxRoutes } from "./routes/local-webhook-inbox";
import { webhookEndpointRoutes } from "./routes/webhook-endpoints";
import { profileRoutes, profileUpdateRoutes } from "./routes/profile";
import { callLogRoutes, platformCallRoutes } from "./routes/call-logs";
import { vapiWebhookRoutes } from "./routes/vapi-webhook";
import { aircallWebhookRoutes } from "./routes/aircall-webhook";
import { localAircallRoutes } from "./routes/local-aircall";
import { phoneLimitRoutes } from "./routes/phone-limit";
import { adminRoutes } from "./routes/admin";
import { adminShardRoutes } from "./routes/admin-shards";
import { phoneNumberRoutes } from "./routes/phone-numbers";
import { agentActionRoutes, agentRoutes } from "./routes/agents";
import { analyticsRoutes } from "./routes/analytics";
import { reportRoutes } from "./routes/reports";
import { dailyReportRoutes } from "./routes/daily-reports";
import { reportMailRoutes } from "./routes/report-mail";
import { alertRoutes } from "./routes/alerts";
import { ingestRoutes } from "./routes/ingest";
import { callLogCountRoutes } from "./routes/call-log-counts";
import { aircallCountRoutes } from "./routes/aircall-counts";
import { appointmentCountRoutes } from "./routes/appointment-counts";
import { leadCountRoutes } from "./routes/lead-counts";
import { storeFunnelRoutes } from "./routes/store-funnel";
import { billingRoutes } from "./routes/billing";
import { leadRoutes } from "./routes/leads";
import { stripeWebhookRoutes } from "./routes/stripe-webhook";
import { localCheckoutRoutes } from "./routes/local-checkout";
import { voiceSimulatorRoutes } from "./routes/voice-simulator";
import { liveRoutes } from "./live/routes";
import { batchRoutes } from "./routes/batch";
import { openApiRoutes } from "./routes/openapi";
import { apiKeyRoutes } from "./routes/api-keys";
import { v1Routes } from "./routes/v1";
import { serveShell } from "./shell/serve-shell";

// Every sub-app serves full paths of its declared routes (shared/api/routes.ts), so they are mounted
// side by side: no two declarations overlap (worker/routes/declarations.test.ts), and the order of
// the mounts changes nothing.
const routes = [
  healthRoutes,
  configRoutes,
  openApiRoutes,
  publicAccountRoutes,
  profileUpdateRoutes,
  localMailboxRoutes,
  localWebhookInboxRoutes,
  webhookEndpointRoutes,
  profileRoutes,
  localAircallRoutes,
  callLogCountRoutes,
  aircallCountRoutes,
  appointmentCountRoutes,
  leadCountRoutes,
  storeFunnelRoutes,
  callLogRoutes,
  platformCallRoutes,
  phoneLimitRoutes,
  adminRoutes,
  adminShardRoutes,
  phoneNumberRoutes,
  agentRoutes,
  analyticsRoutes,
  reportRoutes,
  dailyReportRoutes,
  reportMailRoutes,
  alertRoutes,
  apiKeyRoutes,
  ingestRoutes,
  billingRoutes,
  leadRoutes,
  liveRoutes,
  // Several reads in one request (decision 064): each is dispatched through the app itself, with the
  // caller's token and the batch's confirmation of it, and answered as if sent alone.
  batchRoutes((request, env, ctx) => Promise.resolve(app.fetch(request, env, ctx))),
  agentActionRoutes,
  localAuthRoutes,
  vapiWebhookRoutes,
  aircallWebhookRoutes,
  voiceSimulatorRoutes,
  stripeWebhookRoutes,
  localCheckoutRoutes,
  // The public API (docs/api.md): its own declarations (shared/api/v1-routes.ts), keys and errors.
  ...v1Routes,
];

export const app = new Hono<AppEnv>();

/** Paths of development-only routes: absent in production. */
export const isLocalOnlyPath = (path: string) =>
  /^\/(_local|api\/local|auth\/v1)(\/|$)/.test(path) || path.startsWith(`${SIM_RECORDING_PATH}/`);

// The context is given the app's own fetch because the voice simulator delivers its webhook reports
// in-process, through the same route and checks as VAPI's (a fetch to our own public URL would leave
// the Worker, and is not even reachable in tests); passed in rather than imported, to avoid a cycle.
app.use("*", requestContext((request, env, ctx) => Promise.resolve(app.fetch(request, env, ctx))));
// Development tools (the local checkout page, the mailbox, the simulators, the local identity
// service) are never served in production, whatever else is configured (docs/product/design.md#providers, decision 040).
app.use("*", async (c, next) => {
  if (c.var.config.APP_ENV === "production" && isLocalOnlyPath(c.req.path)) return notFoundHandler(c);
  await next();
});
app.use("*", async (c, next) => {
  const started = Date.now();
  await next();
  if (c.var.config?.APP_ENV !== "test" && /^\/(api|auth|v1)(\/|$)/.test(c.req.path)) {
    log(c, "info", "request", { method: c.req.method, path: c.req.path, status: c.res.status, ms: Date.now() - started });
  }
});
// Outside the error handler's reach (onError answers inside it), so refusals carry it too.
app.use("/api/*", serverTiming);
app.use("/v1/*", serverTiming);
// The page's Content-Security-Policy follows the configuration: the Supabase project the auth client
// calls and the hosts the voice platform serves recordings from. One middleware per distinct policy.
// The public API's reference page (/v1/docs) sets a policy of its own, for its script alone.
const headerMiddlewares = new Map<string, MiddlewareHandler<AppEnv>>();
const OWN_POLICY_PATHS = new Set(["/v1/docs"]);
app.use("*", (c, next) => {
  const sources = contentSources(c.var.config);
  const ownPolicy = OWN_POLICY_PATHS.has(c.req.path);
  const key = JSON.stringify([sources, ownPolicy]);
  let middleware = headerMiddlewares.get(key);
  if (!middleware) {
    middleware = secureHeaders({
      contentSecurityPolicy: ownPolicy
        ? undefined
        : {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'"],
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", "data:"],
            fontSrc: ["'self'", "data:"],
            connectSrc: sources.connect,
            mediaSrc: sources.media,
            objectSrc: ["'none'"],
            baseUri: ["'self'"],
            formAction: ["'self'"],
            frameAncestors: ["'none'"],
          },
      permissionsPolicy: { camera: [], geolocation: [], payment: ["self"] },
      crossOriginOpenerPolicy: "same-origin",
    }) as MiddlewareHandler<AppEnv>;
    headerMiddlewares.set(key, middleware);
  }
  return middleware(c, next);
});
// API answers are per account: never stored by a shared cache, and a route that lets the browser
// reuse an answer (the platform call list, 30 s) still varies by the token it was asked with.
const perCaller: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (!c.res.headers.has("cache-control")) c.header("cache-control", "no-store");
  c.header("vary", "Authorization", { append: true });
};
app.use("/api/*", perCaller);
app.use("/v1/*", perCaller);
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
app.use("/v1/*", apiBodyLimit);
// Every webhook we take posts JSON; anything else is refused before its credential is even read.
app.use("/api/webhooks/*", async (c, next) => {
  const type = c.req.header("content-type")?.split(";")[0].trim().toLowerCase();
  if (type !== "application/json") throw new ApiError(415, "Content-Type must be application/json", "unsupported_media_type", "content-type");
  await next();
});
// Authentication runs on every /api path, webhooks included: it only resolves a bearer token when one
// is sent (public routes then simply ignore c.var.user); webhooks carry none and check their own secret.
// The identity is confirmed there, before any route's handler runs (worker/middleware/auth.ts).
app.use("/api/*", authenticate);

for (const sub of routes) app.route("/", sub);

app.all("/api/*", notFoundHandler);
app.all("/v1/*", notFoundHandler);
app.all("/auth/v1/*", notFoundHandler);
app.all("/_local/*", notFoundHandler);
// Every other path: a missing file's 404, or a screen of the SPA, its shell rewritten for the page's
// first paint (worker/shell/, docs/first-paint.md).
app.notFound(serveShell);
app.onError((err, c) => onError(err, c));
