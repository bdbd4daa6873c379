// Answers over closed New York days, reused by the browser (docs/decisions/056-closed-days-cached-by-the-browser.md).
// A count whose whole range ends before New York's today is answered with an ETag and
// `Cache-Control: private, no-cache`: the browser keeps it for this user and asks again with
// If-None-Match each time, and a tag that still matches is answered 304 after reading one row, the
// closed-day version (migrations/0023_e_closed_day_version.sql), which triggers move in the
// transaction of every write that can change such an answer. A first answer reads that row in the
// count's first batch. Any range reaching today is answered as every other API answer (no-store, no
// tag).
//
// Mounted after the route's access check and query validation: a 304 goes only to a request whose
// token verified and which may see the answer, for the same URL, user, flags and build.
import { nyToday } from "@shared/ny-time";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { d1Of, type Database } from "../db/client";
import { DbMeter, meterFor } from "../services/counts/meter";
import type { AppEnv } from "../app-env";

/** An id of this isolate, made on first use (the runtime makes no random values at global scope). */
let isolateBuild: string | undefined;

/** The deployment's id when the Worker has a version metadata binding, else one per isolate (a deploy starts new isolates). */
function buildOf(c: Context<AppEnv>): string {
  const metadata = (c.env as Record<string, unknown> | undefined)?.CF_VERSION_METADATA as { id?: unknown } | undefined;
  if (typeof metadata?.id === "string" && metadata.id) return metadata.id;
  return (isolateBuild ??= crypto.randomUUID());
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

const VERSION_SQL = "SELECT version FROM closed_day_version WHERE id = 1";

const versionOf = (rows: Record<string, unknown>[] | undefined): number => {
  const version = rows?.[0]?.version;
  if (typeof version !== "number") throw new Error("closed_day_version has no row");
  return version;
};

const isMissingTable = (e: unknown) => /no such table/i.test(e instanceof Error ? `${e.message} ${String(e.cause ?? "")}` : String(e));

/** The closed-day version of a database: one row, one round trip. */
export async function closedDayVersion(db: Database): Promise<number> {
  return versionOf((await d1Of(db).prepare(VERSION_SQL).all<Record<string, unknown>>()).results);
}

/**
 * A meter that reads the closed-day version in the same batch (one transaction) as the count's first
 * statements, so a first answer costs no extra round trip. A batch asked for while that first one is
 * in flight waits for it: every statement of the count runs in or after the version's transaction,
 * so the tag is never newer than the body. A database without the version answers without one.
 */
export class VersionedMeter extends DbMeter {
  version: number | null = null;
  #first: Promise<unknown> | null = null;

  override async batch(statements: D1PreparedStatement[]): Promise<Record<string, unknown>[][]> {
    if (statements.length === 0) return [];
    if (this.#first) {
      await this.#first.catch(() => undefined);
      return super.batch(statements);
    }
    const first = super.batch([this.statement(VERSION_SQL), ...statements]);
    this.#first = first;
    try {
      const [version, ...rest] = await first;
      this.version = versionOf(version);
      return rest;
    } catch (e) {
      if (!isMissingTable(e)) throw e;
      return super.batch(statements);
    }
  }
}

/** Meters handed out by the middleware below, per request context. */
const versionedMeters = new WeakMap<object, VersionedMeter>();

/**
 * The meter a count route runs its count on: the one that reads the closed-day version with the
 * count's first batch when the middleware asked for it, else a plain meter over the request's database.
 */
export const countMeter = (c: Context<AppEnv>): DbMeter => versionedMeters.get(c) ?? meterFor(c.var.db);

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
 * The middleware for one count route, whose handler runs its count on countMeter(c). `database` is
 * where the route's answer is read (its closed-day version is read there too); the directory
 * database unless given.
 */
export const closedDaysCache = (database: (c: Context<AppEnv>) => Database = (c) => c.var.db) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const user = c.var.user;
    const range = c.req.method === "GET" && user ? rangeOf(c) : null;
    if (!user || !range || !isClosedRange(range, new Date())) return next();
    const tagOf = (version: number) =>
      closedDaysTag({
        build: buildOf(c),
        userId: user.id,
        flags: [user.isAdmin, user.shopwindowsInfo, user.callApp].map((f) => (f ? 1 : 0)).join(""),
        url: new URL(c.req.url).pathname + new URL(c.req.url).search,
        version,
      });
    const ifNoneMatch = c.req.header("if-none-match");
    let tag: string | null = null;
    if (ifNoneMatch) {
      // The browser holds an answer: the version alone, before any of the count's queries, decides.
      try {
        tag = await tagOf(await closedDayVersion(database(c)));
      } catch (e) {
        // A database without the version (not migrated) is answered as any other request, without a
        // tag; any other failure (the sign-in not confirmed, D1 down) is the request's.
        if (!isMissingTable(e)) throw e;
        return next();
      }
      if (ifNoneMatchHas(ifNoneMatch, tag)) return c.body(null, 304, { etag: tag, "cache-control": CLOSED_DAYS_CACHE_CONTROL });
      await next();
    } else {
      // A first answer: the version comes with the count's first batch.
      const meter = new VersionedMeter(d1Of(database(c)));
      versionedMeters.set(c, meter);
      await next();
      if (meter.version !== null) tag = await tagOf(meter.version);
    }
    if (tag && c.res.status === 200) {
      c.res.headers.set("etag", tag);
      c.res.headers.set("cache-control", CLOSED_DAYS_CACHE_CONTROL);
    }
  });
