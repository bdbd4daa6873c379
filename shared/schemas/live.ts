// Live feed contracts: the ticket a signed-in browser trades for a WebSocket, and the messages the
// feed sends. A browser cannot set headers on a WebSocket, so it first asks for a short-lived,
// single-purpose ticket over an ordinary authenticated request and opens the socket with it.
import { z } from "zod";
import type { CallLogView } from "./call-logs";

/** POST /api/live/ticket (signed in, no body). */
export const liveTicketResponse = z.object({
  /** Opaque; valid once, for a few seconds. */
  ticket: z.string(),
  expiresInSeconds: z.number(),
  /** Whether the socket will also carry the store network's signals (the user holds a store flag). */
  store: z.boolean(),
});
export type LiveTicketResponse = z.infer<typeof liveTicketResponse>;

/**
 * GET /api/live?ticket=<ticket>&after=<cursor> with `Upgrade: websocket`.
 * `after` is the cursor of the last account event the browser applied; the feed first replays what
 * changed since then, in order, then sends `ready` and goes live.
 */
export const liveConnectQuery = z.object({
  ticket: z.string().min(1, "ticket is required").max(600, "ticket is too long"),
  after: z
    .string()
    .max(40, "after is too long")
    .regex(/^\d+$/, "after must be a cursor from the feed")
    .optional(),
});

/** A call-log row was created or changed (status, duration, summary...). Applied by id: the newest wins. */
export type LiveCallMessage = { type: "call"; cursor: string; call: CallLogView };
/**
 * Store-network data changed for a New York day (an Aircall event, an ingested appointment or lead).
 * Carries no rows: a browser that may see the store data refetches that day's figures.
 */
export type LiveStoreMessage = { type: "store"; kind: "aircall" | "appointment" | "lead"; day: string };
/**
 * Replay is done (after the replayed `call` messages, or after `resync`); live from here. `cursor` is where
 * the next reconnect resumes (null when the account has no event yet).
 */
export type LiveReadyMessage = { type: "ready"; cursor: string | null };
/** The gap since `after` is longer than the feed keeps: refetch the lists, then resume from `cursor`. */
export type LiveResyncMessage = { type: "resync"; cursor: string | null };

export type LiveMessage = LiveCallMessage | LiveStoreMessage | LiveReadyMessage | LiveResyncMessage;

/** Close codes the feed uses besides the standard ones. */
export const LIVE_CLOSE = {
  /** The session was signed out, revoked, or lost the right to a channel: do not reconnect with it. */
  revoked: 4401,
  /** The ticket was missing, expired, used or forged. */
  badTicket: 4403,
  /**
   * The sign-in the socket was opened with has expired, or the account's flags changed: take a new
   * ticket (with a fresh token) and reconnect at once, resuming from the last cursor.
   */
  renew: 4408,
  /**
   * Too many sockets on the account or its sign-in, or too many upgrades from the address: the reason
   * says so (LIVE_TEXT.limited); try again later, not at once.
   */
  tooMany: 4429,
} as const;
