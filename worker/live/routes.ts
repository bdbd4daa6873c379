// The live feed's HTTP surface (decision 058). A browser cannot set headers on a WebSocket, so it
// first trades its signed-in request for a ticket (POST /api/live/ticket), then opens
// GET /api/live?ticket=&after= with it. The Worker spends the ticket in D1 first; only a ticket that
// holds names a feed object (its account's), which is handed the identity the ticket was issued to.
import { LIVE_TEXT } from "@shared/messages";
import { LIVE_CLOSE, liveConnectQuery, type LiveTicketResponse } from "@shared/schemas/live";
import { clientAddress } from "../db/rate-limit";
import { ApiError, tooManyRequests } from "../lib/errors";
import { issuesToError } from "../lib/validate";
import { bearerToken, currentUser } from "../middleware/auth";
import { feedStub, LIVE_AFTER_HEADER, LIVE_WHO_HEADER, liveFeedConfigured, refusedSocket } from "./rpc";
import { accountFeedName, issueTicket, LIVE_TICKET_TTL_SECONDS, receivesAnyStore, spendTicket, ticketSecret } from "./tickets";
import { DeclaredRoutes } from "../routes/serve";

/**
 * The session, issue and expiry claims of the request's bearer token. authenticate has checked its
 * signature already (c.var.user comes from it), so its payload is read as it stands.
 */
function tokenFacts(token: string): { sessionId: string | null; issuedAt: number | null; expiresAt: number | null } {
  try {
    const payload = token.split(".")[1];
    const json = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as Record<string, unknown>;
    const num = (v: unknown) => (typeof v === "number" ? v : null);
    return { sessionId: typeof json.session_id === "string" ? json.session_id : null, issuedAt: num(json.iat), expiresAt: num(json.exp) };
  } catch {
    return { sessionId: null, issuedAt: null, expiresAt: null };
  }
}

export const liveRoutes = new DeclaredRoutes()
  .serve("POST /api/live/ticket", async (c) => {
    const user = currentUser(c);
    const token = bearerToken(c.req.header("authorization"));
    const facts = tokenFacts(token);
    if (!liveFeedConfigured(c.env)) throw new ApiError(503, "The live feed is not available on this deployment", "not_configured");
    const ticket = await issueTicket(c.var.db, {
      userId: user.id,
      email: user.email,
      sessionId: facts.sessionId,
      issuedAt: facts.issuedAt,
      // The local identity's sessions are checked in the database; a Supabase sign-out is not seen by
      // the server, so such a socket lasts no longer than the token it was opened with.
      expiresAt: c.var.providers.identity.kind === "local" ? null : facts.expiresAt,
      isAdmin: user.isAdmin,
      shopwindowsInfo: user.shopwindowsInfo,
      callApp: user.callApp,
    });
    if (!ticket) throw tooManyRequests(LIVE_TEXT.limited);
    return c.json({ ticket, expiresInSeconds: LIVE_TICKET_TTL_SECONDS, store: receivesAnyStore(user) } satisfies LiveTicketResponse);
  })
  .serve("GET /api/live", async (c) => {
    const upgrade = c.req.header("upgrade")?.toLowerCase() === "websocket";
    const parsed = liveConnectQuery.safeParse(c.req.query());
    if (!upgrade) {
      // Not a socket: bad input is named like any endpoint's; good input is told to upgrade.
      if (!parsed.success) throw issuesToError(parsed.error.issues, "query");
      throw new ApiError(426, "Open this path as a WebSocket", "bad_request");
    }
    // A socket is refused by closing it with a LIVE_CLOSE code: a browser sees close codes, not statuses.
    const secret = parsed.success ? ticketSecret(parsed.data.ticket) : null;
    if (!parsed.success || !secret) return refusedSocket(LIVE_CLOSE.badTicket, "The ticket is missing or malformed");
    if (!liveFeedConfigured(c.env)) return refusedSocket(1011, "The live feed is not available on this deployment");
    // The ticket is spent before any feed object is named: a made-up or used ticket reaches none.
    const who = await spendTicket(c.var.db, secret, clientAddress(c));
    if (who === "limited") return refusedSocket(LIVE_CLOSE.tooMany, LIVE_TEXT.limited);
    if (!who) return refusedSocket(LIVE_CLOSE.badTicket, "The ticket is missing, expired, used or forged");
    const feed = feedStub(c.env, accountFeedName(who.userId))!;
    const headers = new Headers({ upgrade: "websocket", [LIVE_WHO_HEADER]: JSON.stringify(who) });
    if (parsed.data.after) headers.set(LIVE_AFTER_HEADER, parsed.data.after);
    return feed.fetch("https://live-feed/connect", { headers });
  });
