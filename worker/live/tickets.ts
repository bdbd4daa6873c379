// The live feed's rules (decision 058): who is on a socket and which signals they receive, the
// ticket a browser trades its signed-in request for, the socket caps, and the objects' names. The
// object (./feed.ts) holds the sockets; the change log they catch up from is ./changes.ts.
import { and, eq, lt, sql } from "drizzle-orm";
import type { LiveStoreMessage } from "@shared/schemas/live";
import type { Database } from "../db/client";
import { hitStatement, withinLimit, withinLimitSql, type Limit } from "../db/rate-limit";
import { liveTickets } from "../db/schema";
import { randomToken, sha256 } from "../lib/crypto";

/** Seconds a ticket is valid for once issued. */
export const LIVE_TICKET_TTL_SECONDS = 30;
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
