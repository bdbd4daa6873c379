// A request's databases as D1 sessions (decision 052): D1 may answer a session's reads from a nearby
// read replica and sends its writes to the primary; a session started from a bookmark reads a copy
// at least that recent. One session per binding the request touches, each measured by the request's
// timer (Server-Timing counts its round trips like any other).
import { type Bookmarks } from "@shared/d1-bookmarks";
import { createDb, type Database } from "./client";
import type { D1Timer } from "./timed-d1";

/** The binding of the directory database: sign-in, profiles, plans, the store network and the account → shard map. */
export const DIRECTORY_BINDING = "DB";

/**
 * Where a request's sessions start: "first-primary" (the primary for every query: webhooks, ingestion
 * and jobs, which write what others then read and must not act on a stale copy), or the client's
 * bookmarks (each binding without one starts unconstrained: any replica).
 */
export type SessionStart = "first-primary" | Bookmarks;

/** Paths whose requests come from vendors and feeds, not from a person's browser: they use the primary. */
const PRIMARY_PATHS = /^\/api\/(webhooks|ingest)(\/|$)/;

/** The start of a request's sessions from its path and the bookmarks its client sent. */
export const sessionStart = (path: string, bookmarks: Bookmarks): SessionStart => (PRIMARY_PATHS.test(path) ? "first-primary" : bookmarks);

/**
 * A session handed to drizzle and the services as if it were the binding: a D1DatabaseSession has
 * prepare and batch, which is all they call (exec and dump are for migrations and exports).
 */
const asBinding = (session: D1DatabaseSession) => session as unknown as D1Database;

/** The primary of a binding, for work outside a request (scheduled jobs). */
export const primaryOf = (d1: D1Database): D1Database => asBinding(d1.withSession("first-primary"));

export class RequestDatabases {
  readonly #sessions = new Map<string, { session: D1DatabaseSession; db: Database }>();

  /** `binding` finds a D1 binding by name (worker/db/shards.ts's shardDatabase checks a shard's). */
  constructor(
    private readonly binding: (name: string) => D1Database,
    private readonly timer: D1Timer,
    private readonly start: SessionStart,
  ) {}

  #open(name: string) {
    let open = this.#sessions.get(name);
    if (!open) {
      const constraint = this.start === "first-primary" ? "first-primary" : (this.start[name] ?? "first-unconstrained");
      const session = this.binding(name).withSession(constraint);
      open = { session, db: createDb(this.timer.wrap(asBinding(session))) };
      this.#sessions.set(name, open);
    }
    return open;
  }

  /** The database of a binding, its session opened on first use and then shared by the request. */
  of(name: string): Database {
    return this.#open(name).db;
  }

  /**
   * The session of a binding as a bare binding, for code that wraps it in the timer with options of
   * its own; its queries move the session's bookmark like any other.
   */
  sessionOf(name: string): D1Database {
    return asBinding(this.#open(name).session);
  }

  /** The directory database (DIRECTORY_BINDING). */
  get directory(): Database {
    return this.of(DIRECTORY_BINDING);
  }

  /** A shard (decision 076), by its binding's name: the account's data the directory places on it. */
  shard(name: string): Database {
    return this.of(name);
  }

  /** The newest bookmark of every session that has one (a session that sent no query has none). */
  bookmarks(): Bookmarks {
    const out: Bookmarks = {};
    for (const [name, { session }] of this.#sessions) {
      const bookmark = session.getBookmark();
      if (bookmark) out[name] = bookmark;
    }
    return out;
  }
}
