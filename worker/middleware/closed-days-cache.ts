// Answers over closed New York days, reused by the browser (docs/decisions/056-closed-days-cached-by-the-browser.md).
// A count whose whole range ends before New York's today is answered with an ETag and
// `Cache-Control: private, no-cache`: the browser keeps it for this user and asks again with
// If-None-Match each time, and a tag that still matches is answered 304 after reading one row, the
// closed-day version (migrations/0023_e_closed_day_version.sql), which triggers move in the
// transaction of every write that can change such an answer. Any range reaching today is answered as
// every other API answer (no-store, no tag).
//
// Mounted after the route's access check and query validation: a 304 goes only to a request whose
// token verified and which may see the answer, for the same URL, user, flags and build.
import { nyToday } from "@shared/ny-time";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { d1Of, type Database } from "../db/client";
import type { AppEnv } from "./app-env";

/** The deployment's id when the Worker has a version metadata binding, else one per isolate (a deploy starts new isolates). */
const ISOLATE_BUILD = crypto.randomUUID();

function buildOf(c: Context<AppEnv>): string {
  const metadata = (c.env as Record<string, unknown> | undefined)?.CF_VERSION_METADATA as { id?: unknown } | undefined;
  return typeof metadata?.id === "string" && metadata.id ? metadata.id : ISOLATE_BUILD;
}

/** The validated range of the request, when its query has one. */
function rangeOf(c: Context<AppEnv>): { startDate: string; endDate: string } | null {
  let query: unknown;
  try {
    query = (c.req.valid as (target: "query") => unknown)("query");
  } catch {
    return null;
  }
  const q = query as { startDate?: unknown; endDate?: unknown } | undefined;
  return typeof q?.startDate === "string" && typeof q.endDate === "string" ? { startDate: q.startDate, endDate: q.endDate } : null;
}

/** Whether every day of the range is before New York's today at `now`. */
export const isClosedRange = (range: { endDate: string }, now: Date) => range.endDate < nyToday(now);

/** The closed-day version of a database: one row, one round trip. */
export async function closedDayVersion(db: Database): Promise<number> {
  const row = await d1Of(db).prepare("SELECT version FROM closed_day_version WHERE id = 1").all<{ version: number }>();
  const version = row.results?.[0]?.version;
  if (typeof version !== "number") throw new Error("closed_day_version has no row");
  return version;
}

/**
 * The tag of one answer: the build, the user and the flags that decide what they may see, the full
 * URL (path and query) and the closed-day version, hashed. Another account, another flag, another
 * query, a deploy or any change to closed days gives another tag.
 */
export async function closedDaysTag(parts: { build: string; userId: string; flags: string; url: string; version: number }): Promise<string> {
  const text = JSON.stringify([parts.build, parts.userId, parts.flags, parts.url, parts.version]);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let bin = "";
  for (const b of digest.subarray(0, 18)) bin += String.fromCharCode(b);
  return `"${btoa(bin).replace(/\+/g, "-").replace(/\//g, "_")}"`;
}

/** Whether an If-None-Match header names the tag (weak or strong; `*` is never sent for a GET revalidation and is not honoured). */
export function ifNoneMatchHas(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === tag);
}

export const CLOSED_DAYS_CACHE_CONTROL = "private, no-cache";

/**
 * The middleware for one count route. `database` is where the route's answer is read (its
 * closed-day version is read there too); the directory database unless given.
 */
export const closedDaysCache = (database: (c: Context<AppEnv>) => Database = (c) => c.var.db) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const user = c.var.user;
    const range = c.req.method === "GET" && user ? rangeOf(c) : null;
    if (!user || !range || !isClosedRange(range, new Date())) return next();
    let version: number;
    try {
      // Read before the answer's own queries: a write after it can only make the tag older than the body, never newer.
      version = await closedDayVersion(database(c));
    } catch (e) {
      // A database without the version (not migrated) is answered as any other request, without a tag;
      // any other failure (the sign-in not confirmed, D1 down) is the request's.
      if (!/no such table/i.test(e instanceof Error ? `${e.message} ${String(e.cause ?? "")}` : String(e))) throw e;
      return next();
    }
    const url = new URL(c.req.url);
    const tag = await closedDaysTag({
      build: buildOf(c),
      userId: user.id,
      flags: [user.isAdmin, user.shopwindowsInfo, user.callApp].map((f) => (f ? 1 : 0)).join(""),
      url: url.pathname + url.search,
      version,
    });
    if (ifNoneMatchHas(c.req.header("if-none-match"), tag)) {
      return c.body(null, 304, { etag: tag, "cache-control": CLOSED_DAYS_CACHE_CONTROL });
    }
    await next();
    if (c.res.status === 200) {
      c.res.headers.set("etag", tag);
      c.res.headers.set("cache-control", CLOSED_DAYS_CACHE_CONTROL);
    }
  });
