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
//
// Each database has its own version (decision 076): an answer read from the account's shard is tagged
// with the shard's name and version and the directory's version (read beside it, in parallel), so a
// change to closed days in either, or the account moving to another shard, gives another tag.
import { nyToday } from "@shared/ny-time";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { d1Of, type Database } from "../db/client";
import { DIRECTORY_BINDING } from "../db/sessions";
import { DbMeter, meterFor } from "../services/counts/meter";
import type { AppEnv } from "../app-env";
import { currentUser } from "./auth";

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
 * With `directory` (a shard's meter), the directory's version is read beside that first batch, in
 * parallel: `directoryVersion`.
 */
export class VersionedMeter extends DbMeter {
  version: number | null = null;
  directoryVersion: number | null = null;
  #first: Promise<unknown> | null = null;

  constructor(
    d1: D1Database,
    database?: string,
    private readonly directory?: Database,
  ) {
    super(d1, database);
  }

  override async batch(statements: D1PreparedStatement[]): Promise<Record<string, unknown>[][]> {
    if (statements.length === 0) return [];
    if (this.#first) {
      await this.#first.catch(() => undefined);
      return super.batch(statements);
    }
    const directory = this.directory ? closedDayVersion(this.directory) : null;
    const first = super.batch([this.statement(VERSION_SQL), ...statements]);
    this.#first = Promise.allSettled([first, directory]);
    try {
      const [[version, ...rest], directoryVersion] = await Promise.all([first, directory]);
      this.version = versionOf(version);
      this.directoryVersion = directoryVersion;
      return rest;
    } catch (e) {
      if (!isMissingTable(e)) throw e;
      this.version = null;
      return super.batch(statements);
    }
  }

  /** The versions the answer is tagged with, null when one of them was not read. */
  versions(): number[] | null {
    if (this.version === null) return null;
    if (!this.directory) return [this.version];
    return this.directoryVersion === null ? null : [this.version, this.directoryVersion];
  }
}

/** Meters handed out by the middleware below, per request context. */
const versionedMeters = new WeakMap<object, VersionedMeter>();
/** The database a count route reads (the middleware's `on`), per request context. */
const countDatabases = new WeakMap<object, ClosedDaysOn>();

/**
 * Where a count route's answer is read: the directory (the store network's figures) or the
 * signed-in account's shard (its calls' figures).
 */
export type ClosedDaysOn = "directory" | "shard";

const databaseOf = (c: Context<AppEnv>, on: ClosedDaysOn): { name: string; db: Database } =>
  on === "shard" ? { name: currentUser(c).shard, db: c.var.databases.shard(currentUser(c).shard) } : { name: DIRECTORY_BINDING, db: c.var.db };

/**
 * The meter a count route runs its count on: the one that reads the closed-day version with the
 * count's first batch when the middleware asked for it, else a plain meter over the database the
 * route's middleware names (the directory when none).
 */
export const countMeter = (c: Context<AppEnv>): DbMeter => {
  const versioned = versionedMeters.get(c);
  if (versioned) return versioned;
  const { name, db } = databaseOf(c, countDatabases.get(c) ?? "directory");
  return meterFor(db, name);
};

/**
 * The tag of one answer: the build, the user and the flags that decide what they may see, the full
 * URL (path and query) and the closed-day version(s) (a shard's answer: the shard's name, its
 * version and the directory's), hashed. Another account, another flag, another query, a deploy or
 * any change to closed days gives another tag.
 */
export async function closedDaysTag(parts: { build: string; userId: string; flags: string; url: string; version: number | readonly (string | number)[] }): Promise<string> {
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
 * The middleware for one count route, whose handler runs its count on countMeter(c). `on` is where
 * the route's answer is read: the directory (its version tags the answer) or the account's shard
 * (the shard's version and the directory's tag it).
 */
export const closedDaysCache = (on: ClosedDaysOn = "directory") =>
  createMiddleware<AppEnv>(async (c, next) => {
    const user = c.var.user;
    if (user) countDatabases.set(c, on);
    const range = c.req.method === "GET" && user ? rangeOf(c) : null;
    if (!user || !range || !isClosedRange(range, new Date())) return next();
    const database = databaseOf(c, on);
    const tagOf = (versions: number[]) =>
      closedDaysTag({
        build: buildOf(c),
        userId: user.id,
        flags: [user.isAdmin, user.shopwindowsInfo, user.callApp].map((f) => (f ? 1 : 0)).join(""),
        url: new URL(c.req.url).pathname + new URL(c.req.url).search,
        version: on === "shard" ? [database.name, ...versions] : versions[0],
      });
    const ifNoneMatch = c.req.header("if-none-match");
    let tag: string | null = null;
    if (ifNoneMatch) {
      // The browser holds an answer: the version alone, before any of the count's queries, decides.
      try {
        tag = await tagOf(await Promise.all([closedDayVersion(database.db), ...(on === "shard" ? [closedDayVersion(c.var.db)] : [])]));
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
      const meter = new VersionedMeter(d1Of(database.db), database.name, on === "shard" ? c.var.db : undefined);
      versionedMeters.set(c, meter);
      await next();
      const versions = meter.versions();
      if (versions) tag = await tagOf(versions);
    }
    if (tag && c.res.status === 200) {
      c.res.headers.set("etag", tag);
      c.res.headers.set("cache-control", CLOSED_DAYS_CACHE_CONTROL);
    }
  });
