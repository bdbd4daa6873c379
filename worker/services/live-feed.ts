// The live feed's rules and reads (decision 058): who may receive which signal, the change log a
// browser catches up from, and the ticket's shape. The Durable Object (worker/live-feed.ts) holds
// the sockets; the routes publish to it; this file decides what they send.
import type { CallLogView } from "@shared/schemas/call-logs";
import type { LiveCallMessage, LiveStoreMessage } from "@shared/schemas/live";
import type { Database } from "../db/client";

/** Seconds a ticket is valid for once issued. */
export const LIVE_TICKET_TTL_SECONDS = 30;
/** Calls a reconnect replays at most; a longer gap is answered with `resync`. */
export const LIVE_REPLAY_LIMIT = 500;
/** Days of changes the change log keeps (the nightly job prunes older ones). */
export const LIVE_CHANGES_KEPT_DAYS = 3;
/** How often a feed with open sockets re-checks their sign-ins against the database. */
export const LIVE_RECHECK_MS = 5 * 60_000;

/** Who is on a socket: fixed when the ticket was issued, checked again by the feed's alarm. */
export type LiveIdentity = {
  userId: string;
  email: string;
  /** The identity's session (local sign-in); null when the provider keeps it to itself. */
  sessionId: string | null;
  /** When the access token was issued (seconds), as the identity check compares with flag changes. */
  issuedAt: number | null;
  /** When the access token expires (seconds); set when the server cannot see the session end (Supabase). */
  expiresAt: number | null;
  isAdmin: boolean;
  shopwindowsInfo: boolean;
  callApp: boolean;
};

/** Whether this identity receives the store network's signals of this kind (admins see all). */
export function receivesStore(who: Pick<LiveIdentity, "isAdmin" | "shopwindowsInfo" | "callApp">, kind: LiveStoreMessage["kind"]): boolean {
  if (who.isAdmin) return true;
  return kind === "aircall" ? who.callApp : who.shopwindowsInfo;
}

/** Whether this identity receives any store signal at all. */
export const receivesAnyStore = (who: Pick<LiveIdentity, "isAdmin" | "shopwindowsInfo" | "callApp">) =>
  who.isAdmin || who.shopwindowsInfo || who.callApp;

/** The Durable Object names: one per account, one for the store network. */
export const accountFeedName = (userId: string) => `account:${userId}`;
export const STORE_FEED_NAME = "store";

/**
 * A ticket as the browser holds it: the account's id (which feed to open) and the secret the feed
 * stored the hash of. null when it is not of that shape.
 */
export function splitTicket(ticket: string): { userId: string; secret: string } | null {
  const dot = ticket.lastIndexOf(".");
  if (dot <= 0 || dot === ticket.length - 1) return null;
  const userId = ticket.slice(0, dot);
  const secret = ticket.slice(dot + 1);
  if (!/^[A-Za-z0-9_-]{32,128}$/.test(secret) || !/^[\w-]{1,128}$/.test(userId)) return null;
  return { userId, secret };
}

/** A change read with its call as the list shows it: the query selects the view's columns by name. */
type ChangeRow = CallLogView & { seq: number };

const viewOf = ({ seq: _seq, ...view }: ChangeRow): CallLogView => view;

export type Changes = {
  /** The account's newest change (null when the log holds none of its changes). */
  head: number | null;
  /** The oldest and newest change the log keeps, of any account. */
  lowest: number | null;
  highest: number | null;
  /** Each call changed after the cursor, once, as it is now, in the order of its latest change. */
  calls: LiveCallMessage[];
  /** More calls changed after the cursor than were read. */
  more: boolean;
};

/**
 * The account's calls changed after `after` (one D1 batch, one snapshot): each call once, as its row
 * is now, at the cursor of its latest change. `d1` is the account's database, on its primary.
 */
export async function readChanges(d1: D1Database, userId: string, after: number, limit = LIVE_REPLAY_LIMIT): Promise<Changes> {
  const [head, bounds, rows] = await d1.batch([
    d1.prepare("select max(seq) as head from call_log_changes where user_id = ?1").bind(userId),
    d1.prepare("select min(seq) as lowest, max(seq) as highest from call_log_changes"),
    d1
      .prepare(
        `select c.seq, l.id, l.user_id, l.call_id, l.phone_number, l.start_time, l.duration, l.status, l.summary,
                l.ended_reason, l.direction, l.agent_id, l.recording_url
           from (select call_log_id, max(seq) as seq from call_log_changes where user_id = ?1 and seq > ?2 group by call_log_id) c
           join call_logs l on l.id = c.call_log_id and l.user_id = ?1
          order by c.seq
          limit ?3`,
      )
      .bind(userId, after, limit + 1),
  ]);
  const h = (head.results[0] as { head: number | null } | undefined)?.head ?? null;
  const b = (bounds.results[0] as { lowest: number | null; highest: number | null } | undefined) ?? { lowest: null, highest: null };
  const list = rows.results as ChangeRow[];
  return {
    head: h,
    lowest: b.lowest,
    highest: b.highest,
    calls: list.slice(0, limit).map((r) => ({ type: "call", cursor: String(r.seq), call: viewOf(r) })),
    more: list.length > limit,
  };
}

/**
 * Whether a browser resuming from `after` may have missed changes the log no longer holds (pruned),
 * or holds a cursor the log never reached (a database reset): it must then refetch its lists.
 */
export function mustResync(after: number, changes: Pick<Changes, "lowest" | "highest" | "more">): boolean {
  if (changes.more) return true;
  if (changes.highest === null) return after > 0;
  if (after > changes.highest) return true;
  return changes.lowest !== null && after < changes.lowest - 1;
}

/**
 * Prunes the change log to the last LIVE_CHANGES_KEPT_DAYS days; the newest row always stays, so the
 * log's lowest cursor tells a resuming browser whether its gap was pruned.
 */
export async function pruneLiveChanges(db: Database, now: Date): Promise<number> {
  const before = new Date(now.getTime() - LIVE_CHANGES_KEPT_DAYS * 86_400_000).toISOString();
  const d1 = db.$client;
  const result = await d1
    .prepare("delete from call_log_changes where changed_at < ?1 and seq < (select max(seq) from call_log_changes)")
    .bind(before)
    .run();
  return result.meta.changes ?? 0;
}
