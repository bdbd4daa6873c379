// The live feed's rules and reads (decision 058): who may receive which signal, the change log a
// browser catches up from, and the ticket's shape. The Durable Object (worker/live-feed.ts) holds
// the sockets; the routes publish to it; this file decides what they send.
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { CallLogView } from "@shared/schemas/call-logs";
import type { LiveCallMessage, LiveStoreMessage } from "@shared/schemas/live";
import type { Database } from "../db/client";
import { hitStatement, withinLimit, withinLimitSql, type Limit } from "../db/rate-limit";
import { liveTickets } from "../db/schema";
import { randomToken, sha256 } from "../lib/crypto";

/** Seconds a ticket is valid for once issued. */
export const LIVE_TICKET_TTL_SECONDS = 30;
/** Calls a reconnect replays at most; a longer gap is answered with `resync`. */
export const LIVE_REPLAY_LIMIT = 500;
/** Days of changes the change log keeps (the nightly job prunes older ones). */
export const LIVE_CHANGES_KEPT_DAYS = 3;
/** How often a feed with open sockets re-checks their sign-ins against the database. */
export const LIVE_RECHECK_MS = 5 * 60_000;
/**
 * Unspent tickets one user may hold at once: a browser spends its ticket at once, so this is many tabs
 * reconnecting together; past it the ticket request answers 429 (LIVE_TEXT.limited).
 */
export const LIVE_PENDING_TICKETS_PER_USER = 30;
/** Upgrades (GET /api/live) one address bucket may attempt a minute, whether their tickets hold or not. */
export const LIVE_UPGRADES_PER_ADDRESS: Limit = { name: "live-upgrade:ip", limit: 600, windowSeconds: 60 };
/** Open sockets one account's feed object holds, every sign-in together (the load measured on one object). */
export const LIVE_SOCKETS_PER_ACCOUNT = 500;
/** Open sockets one sign-in (one session: a person's browser, its tabs) may hold on its account's feed. */
export const LIVE_SOCKETS_PER_SIGN_IN = 20;

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

/** A ticket's secret as the browser sends it back: null when it is not of that shape. */
export function ticketSecret(ticket: string): string | null {
  return /^[A-Za-z0-9_-]{32,128}$/.test(ticket) ? ticket : null;
}

/**
 * Issues a ticket for a confirmed identity: stores the SHA-256 of a random secret with the identity,
 * valid LIVE_TICKET_TTL_SECONDS, and returns the secret (the ticket). null when the user already holds
 * LIVE_PENDING_TICKETS_PER_USER unspent ones. One batch: expired tickets go, the count and the insert
 * see the same rows.
 */
export async function issueTicket(db: Database, who: LiveIdentity, nowMs = Date.now()): Promise<string | null> {
  const secret = randomToken(32);
  const hash = await sha256(secret);
  const pending = sql`(select count(*) from ${liveTickets} where ${liveTickets.userId} = ${who.userId} and ${liveTickets.expiresAt} >= ${nowMs})`;
  const [, inserted] = await db.batch([
    db.delete(liveTickets).where(lt(liveTickets.expiresAt, nowMs)),
    db
      .insert(liveTickets)
      .select(sql`select ${hash}, ${who.userId}, ${JSON.stringify(who)}, ${nowMs + LIVE_TICKET_TTL_SECONDS * 1000} where ${pending} < ${LIVE_PENDING_TICKETS_PER_USER}`)
      .returning({ hash: liveTickets.hash }),
  ]);
  return inserted.length > 0 ? secret : null;
}

/**
 * Spends a ticket for an upgrade from `address`, in one batch: counts the attempt against the address's
 * limit, and (within it) deletes the ticket, reading it back, so two upgrades with one ticket cannot
 * both have it. `limited` when the address is past LIVE_UPGRADES_PER_ADDRESS (the ticket stays unspent);
 * null when no such ticket was issued, or it was used or has expired.
 */
export async function spendTicket(db: Database, secret: string, address: string, nowMs = Date.now()): Promise<LiveIdentity | "limited" | null> {
  const hash = await sha256(secret);
  const [counted, spent] = await db.batch([
    hitStatement(db, LIVE_UPGRADES_PER_ADDRESS, address, undefined, nowMs),
    db
      .delete(liveTickets)
      .where(and(eq(liveTickets.hash, hash), withinLimitSql(LIVE_UPGRADES_PER_ADDRESS, address, nowMs)))
      .returning({ who: liveTickets.who, expiresAt: liveTickets.expiresAt }),
  ]);
  if (!withinLimit(LIVE_UPGRADES_PER_ADDRESS, counted)) return "limited";
  const row = spent[0];
  if (!row || row.expiresAt < nowMs) return null;
  return JSON.parse(row.who) as LiveIdentity;
}

/**
 * Whether an account's feed, holding sockets of these identities, is past a cap for one more socket
 * of `who`: every sign-in together past LIVE_SOCKETS_PER_ACCOUNT, or `who`'s own sign-in (its session;
 * the whole account when the provider names none) past LIVE_SOCKETS_PER_SIGN_IN.
 */
export function overSocketCap(open: Pick<LiveIdentity, "userId" | "sessionId">[], who: Pick<LiveIdentity, "userId" | "sessionId">): boolean {
  if (open.length >= LIVE_SOCKETS_PER_ACCOUNT) return true;
  const same = open.filter((s) => s.userId === who.userId && s.sessionId === who.sessionId).length;
  return same >= LIVE_SOCKETS_PER_SIGN_IN;
}

/**
 * The change log as drizzle sees it, for statements of other batches (an account's deletion). Its
 * table and triggers are migration SQL (0025, 0029), outside the drizzle schema the migrations are
 * generated from.
 */
const callLogChanges = sqliteTable("call_log_changes", {
  seq: integer("seq").primaryKey(),
  userId: text("user_id").notNull(),
  callLogId: integer("call_log_id").notNull(),
  changedAt: text("changed_at").notNull(),
  accountSeq: integer("account_seq").notNull(),
});

/** The statement that deletes these accounts' change rows, their cursors' numbering with them. */
export const deleteAccountChanges = (db: Database, userIds: string[]) => db.delete(callLogChanges).where(inArray(callLogChanges.userId, userIds));

/** A change read with its call as the list shows it: the query selects the view's columns by name. */
type ChangeRow = CallLogView & { seq: number };

const viewOf = ({ seq: _seq, ...view }: ChangeRow): CallLogView => view;

export type Changes = {
  /** The account's newest change (null when the log holds none of its changes). */
  head: number | null;
  /** The oldest and newest change of the account the log keeps. */
  lowest: number | null;
  highest: number | null;
  /** Each call changed after the cursor, once, as it is now, in the order of its latest change. */
  calls: LiveCallMessage[];
  /** More calls changed after the cursor than were read. */
  more: boolean;
};

/**
 * The account's calls changed after `after` (one D1 batch, one snapshot): each call once, as its row
 * is now, at the cursor of its latest change. Cursors are the account's own numbering of its changes
 * (`account_seq`), so they tell nothing of other accounts. `d1` is the account's database, on its primary.
 */
export async function readChanges(d1: D1Database, userId: string, after: number, limit = LIVE_REPLAY_LIMIT): Promise<Changes> {
  const [bounds, rows] = await d1.batch([
    d1.prepare("select min(account_seq) as lowest, max(account_seq) as highest from call_log_changes where user_id = ?1").bind(userId),
    d1
      .prepare(
        `select c.seq, l.id, l.user_id, l.call_id, l.phone_number, l.start_time, l.duration, l.status, l.summary,
                l.ended_reason, l.direction, l.agent_id, l.recording_url
           from (select call_log_id, max(account_seq) as seq from call_log_changes where user_id = ?1 and account_seq > ?2 group by call_log_id) c
           join call_logs l on l.id = c.call_log_id and l.user_id = ?1
          order by c.seq
          limit ?3`,
      )
      .bind(userId, after, limit + 1),
  ]);
  const b = (bounds.results[0] as { lowest: number | null; highest: number | null } | undefined) ?? { lowest: null, highest: null };
  const list = rows.results as ChangeRow[];
  return {
    head: b.highest,
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
 * Prunes the change log to the last LIVE_CHANGES_KEPT_DAYS days; each account's newest row always
 * stays, so its numbering goes on from there and its lowest cursor tells a resuming browser whether
 * its gap was pruned.
 */
export async function pruneLiveChanges(db: Database, now: Date): Promise<number> {
  const before = new Date(now.getTime() - LIVE_CHANGES_KEPT_DAYS * 86_400_000).toISOString();
  const d1 = db.$client;
  const result = await d1
    .prepare(
      `delete from call_log_changes
        where changed_at < ?1
          and exists (select 1 from call_log_changes newer where newer.user_id = call_log_changes.user_id and newer.account_seq > call_log_changes.account_seq)`,
    )
    .bind(before)
    .run();
  return result.meta.changes ?? 0;
}
