// The SPA's shell as the Worker serves it for every screen's path (docs/first-paint.md): the built
// index.html, rewritten with what the page's first paint needs before any JavaScript runs — the client
// configuration, the module preloads of the page's own code, and its first screen.
import { FIRST_SCREENS_FILE, firstScreenHtml, firstScreenOf, pagePath } from "@shared/first-paint/first-screen";
import { moduleKey, ROUTE_PRELOADS_FILE } from "@shared/first-paint/route-preloads";
import { APP_CONFIG_ELEMENT_ID } from "@shared/first-paint/shell";
import { isLocalToolPage } from "@shared/local-tools";
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { notFoundHandler } from "../lib/errors";
import { appConfigOf } from "../routes/config";

/** A path naming a file (its last segment has an extension, or it is under /assets/), not a screen. */
const isFilePath = (path: string) => path.startsWith("/assets/") || /\.[a-z0-9]+$/i.test(path.slice(path.lastIndexOf("/")));

/** The answer for a path no route took: a missing file's 404, else the SPA's shell for the screen. */
export async function serveShell(c: Context<AppEnv>): Promise<Response> {
  if (!c.env.ASSETS) return notFoundHandler(c);
  // A file that is not there (an old hashed bundle a stale tab asks for after a deploy): 404, so the
  // page fails cleanly instead of running HTML as a script.
  if (isFilePath(c.req.path)) return c.text("Not found", 404, { "cache-control": "no-store" });
  // A local tool's page (the mailbox, the webhook receiver) does not exist in production: 404 from
  // here, as its API under /api/local answers, instead of a shell whose router then says not found.
  if (c.var.config.APP_ENV === "production" && isLocalToolPage(c.req.path)) return c.text("Not found", 404, { "cache-control": "no-store" });
  // Any other path is a screen of the SPA: its shell, which the router resolves (its own 404 page
  // included). A copy: the asset store's headers are immutable, and the header middleware writes them.
  const shell = await c.env.ASSETS.fetch(new URL("/", c.req.url));
  const copy = new Response(c.req.method === "HEAD" ? null : shell.body, { status: shell.status, headers: shell.headers });
  if (c.req.method === "HEAD" || !shell.ok) return copy;
  // A signed-in page's first screen is painted from the HTML, before the JavaScript. What the page
  // waits for is preloaded with the entry: its own code and, on a signed-in page, the identity
  // library that restores the session (the configuration comes in the shell).
  const page = pagePath(c.req.path);
  const firstScreen = firstScreenOf(page);
  // A signed-out page's first screen is the build's render of its components; only a bare path has
  // one, as search parameters pick another view.
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
}

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
