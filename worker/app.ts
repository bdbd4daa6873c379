// Every route mounted in one place, behind the middleware every request passes.
import { FIRST_SCREENS_FILE, firstScreenHtml, firstScreenOf, pagePath } from "@shared/first-screen";
import { moduleKey, ROUTE_PRELOADS_FILE } from "@shared/route-preloads";
import { APP_CONFIG_ELEMENT_ID } from "@shared/shell";
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "./app-env";
import { ApiError, notFoundHandler, onError } from "./lib/errors";
import { authenticate, confirmingIdentity, errorOfAnswer } from "./middleware/auth";
import { requestContext } from "./middleware/context";
import { serverTiming } from "./middleware/server-timing";
import { log } from "./lib/log";
import { contentSources } from "./content-sources";
import { SIM_RECORDING_PATH } from "./providers";
import { healthRoutes } from "./routes/health";
import { appConfigOf, configRoutes } from "./routes/config";
import { localAuthRoutes } from "./routes/local-auth";
import { publicAccountRoutes } from "./routes/public-account";
import { localMailboxRoutes } from "./routes/local-mailbox";
import { profileRoutes, profileUpdateRoutes } from "./routes/profile";
import { callLogRoutes, platformCallRoutes } from "./routes/call-logs";
import { vapiWebhookRoutes } from "./routes/vapi-webhook";
import { aircallWebhookRoutes } from "./routes/aircall-webhook";
import { localAircallRoutes } from "./routes/local-aircall";
import { phoneLimitRoutes } from "./routes/phone-limit";
import { adminRoutes } from "./routes/admin";
import { phoneNumberRoutes } from "./routes/phone-numbers";
import { agentActionRoutes, agentRoutes } from "./routes/agents";
import { analyticsRoutes } from "./routes/analytics";
import { reportRoutes } from "./routes/reports";
import { dailyReportRoutes } from "./routes/daily-reports";
import { reportMailRoutes } from "./routes/report-mail";
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
  phoneNumberRoutes,
  agentRoutes,
  analyticsRoutes,
  reportRoutes,
  dailyReportRoutes,
  reportMailRoutes,
  ingestRoutes,
  billingRoutes,
  leadRoutes,
  liveRoutes,
  // Several reads in one request (decision 064): each is dispatched through the app itself, with the
  // caller's token, and answered as if sent alone.
  batchRoutes((request, env, ctx) => Promise.resolve(app.fetch(request, env, ctx))),
  agentActionRoutes,
  localAuthRoutes,
  vapiWebhookRoutes,
  aircallWebhookRoutes,
  voiceSimulatorRoutes,
  stripeWebhookRoutes,
  localCheckoutRoutes,
];

export const app = new Hono<AppEnv>();
// A request answered on its token's claims is answered again, identity confirmed first, when the
// confirmation contradicts them (worker/middleware/auth.ts, decision 051).
app.fetch = confirmingIdentity(app.fetch);

/** Paths of development-only routes: absent in production. */
export const isLocalOnlyPath = (path: string) =>
  /^\/(_local|api\/local|auth\/v1)(\/|$)/.test(path) || path.startsWith(`${SIM_RECORDING_PATH}/`);

/** A path naming a file (its last segment has an extension, or it is under /assets/), not a screen. */
export const isFilePath = (path: string) => path.startsWith("/assets/") || /\.[a-z0-9]+$/i.test(path.slice(path.lastIndexOf("/")));

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
  if (c.var.config?.APP_ENV !== "test" && (c.req.path.startsWith("/api") || c.req.path.startsWith("/auth"))) {
    log(c, "info", "request", { method: c.req.method, path: c.req.path, status: c.res.status, ms: Date.now() - started });
  }
});
// Outside the error handler's reach (onError answers inside it), so refusals carry it too.
app.use("/api/*", serverTiming);
// The page's Content-Security-Policy follows the configuration: the Supabase project the auth client
// calls and the hosts the voice platform serves recordings from. One middleware per distinct policy.
const headerMiddlewares = new Map<string, MiddlewareHandler<AppEnv>>();
app.use("*", (c, next) => {
  const sources = contentSources(c.var.config);
  const key = JSON.stringify(sources);
  let middleware = headerMiddlewares.get(key);
  if (!middleware) {
    middleware = secureHeaders({
      contentSecurityPolicy: {
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
app.use("/api/*", async (c, next) => {
  await next();
  if (!c.res.headers.has("cache-control")) c.header("cache-control", "no-store");
  c.header("vary", "Authorization", { append: true });
});
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
// Every webhook we take posts JSON; anything else is refused before its credential is even read.
app.use("/api/webhooks/*", async (c, next) => {
  const type = c.req.header("content-type")?.split(";")[0].trim().toLowerCase();
  if (type !== "application/json") throw new ApiError(415, "Content-Type must be application/json", "unsupported_media_type", "content-type");
  await next();
});
// Authentication runs on every /api path, webhooks included: it only resolves a bearer token when one
// is sent (public routes then simply ignore c.var.user); webhooks carry none and check their own secret.
app.use("/api/*", authenticate);

for (const sub of routes) app.route("/", sub);

app.all("/api/*", notFoundHandler);
app.all("/auth/v1/*", notFoundHandler);
app.all("/_local/*", notFoundHandler);
app.notFound(async (c) => {
  if (!c.env.ASSETS) return notFoundHandler(c);
  // A file that is not there (an old hashed bundle a stale tab asks for after a deploy): 404, so the
  // page fails cleanly instead of running HTML as a script.
  if (isFilePath(c.req.path)) return c.text("Not found", 404, { "cache-control": "no-store" });
  // Any other path is a screen of the SPA: its shell, which the router resolves (its own 404 page
  // included). A copy: the asset store's headers are immutable, and the header middleware writes them.
  const shell = await c.env.ASSETS.fetch(new URL("/", c.req.url));
  const copy = new Response(c.req.method === "HEAD" ? null : shell.body, { status: shell.status, headers: shell.headers });
  if (c.req.method === "HEAD" || !shell.ok) return copy;
  // A signed-in page's first screen is painted from the HTML, before the JavaScript (decision 030).
  // What the page waits for is preloaded with the entry (decision 032): its own code and, on a
  // signed-in page, the identity library that restores the session (the configuration comes in
  // the shell).
  const page = pagePath(c.req.path);
  const firstScreen = firstScreenOf(page);
  // A signed-out page's first screen is the build's render of its components (decision 033); only
  // a bare path has one, as search parameters pick another view.
  const wantsRendered = !firstScreen && !new URL(c.req.url).search;
  const [screens, table] = await Promise.all([
    wantsRendered ? assetTable(c.env.ASSETS, FIRST_SCREENS_FILE, c.req.url) : {},
    assetTable(c.env.ASSETS, ROUTE_PRELOADS_FILE, c.req.url),
  ]);
  const rendered = ownEntry(screens, page);
  const rootHtml = firstScreen ? firstScreenHtml(firstScreen) : typeof rendered === "string" ? rendered : null;
  const keys = firstScreen ? [moduleKey("identity-client"), page] : [page];
  const preloads = [...new Set(keys.flatMap((key) => assetScripts(ownEntry(table, key))))];
  const config = JSON.stringify(appConfigOf(c.var.config, c.req.url)).replace(/</g, "\\u003c");
  return new HTMLRewriter()
    .on("head", {
      element(head) {
        const links = preloads.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`).join("");
        head.append(`<script type="application/json" id="${APP_CONFIG_ELEMENT_ID}">${config}</script>${links}`, { html: true });
      },
    })
    .on("div#root", {
      element(root) {
        if (rootHtml !== null) root.setInnerContent(rootHtml, { html: true });
      },
    })
    .transform(copy);
});

/** A table's own entry for a key (never one inherited from Object.prototype). */
const ownEntry = (table: Record<string, unknown>, key: string): unknown => (Object.hasOwn(table, key) ? table[key] : undefined);

/**
 * A JSON table the build writes beside the SPA (route-preloads.json, first-screens.json), read once
 * per asset store; {} when absent or malformed. Its values are checked where they are used.
 */
const assetTables = new WeakMap<object, Map<string, Promise<Record<string, unknown>>>>();

function assetTable(assets: Fetcher, file: string, url: string): Promise<Record<string, unknown>> {
  let tables = assetTables.get(assets);
  if (!tables) assetTables.set(assets, (tables = new Map()));
  let table = tables.get(file);
  if (!table) {
    table = assets
      .fetch(new URL(`/${file}`, url))
      .then(async (res) => (res.ok ? ((await res.json()) as unknown) : {}))
      .then((value) => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}))
      .catch(() => ({}));
    tables.set(file, table);
  }
  return table;
}

/** Only files the build wrote go into a page's head. */
const ASSET_SCRIPT = /^\/assets\/[\w.-]+\.js$/;
const assetScripts = (files: unknown): string[] =>
  Array.isArray(files) ? files.filter((f): f is string => typeof f === "string" && ASSET_SCRIPT.test(f)) : [];
app.onError((err, c) => onError(errorOfAnswer(c, err), c));
