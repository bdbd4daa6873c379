// The live feed's HTTP surface (decision 058). A browser cannot set headers on a WebSocket, so it
// first trades its signed-in request for a ticket (POST /api/live/ticket), then opens
// GET /api/live?ticket=&after= with it; the account's feed object spends the ticket and holds the socket.
import { Hono } from "hono";
import { LIVE_CLOSE, liveConnectQuery, type LiveTicketResponse } from "@shared/schemas/live";
import type { AppEnv } from "../middleware/app-env";
import { ApiError } from "../lib/errors";
import { issuesToError } from "../lib/validate";
import { bearerToken, confirmedUser, requireUser } from "../middleware/auth";
import { feedStub, liveFeed, refusedSocket } from "../middleware/live";
import { accountFeedName, LIVE_TICKET_TTL_SECONDS, receivesAnyStore, splitTicket } from "../services/live-feed";

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

export const liveRoutes = new Hono<AppEnv>()
  .post("/ticket", requireUser, async (c) => {
    // Confirmed against the database before anything is stored: a signed-out session gets no ticket.
    const user = await confirmedUser(c);
    const token = bearerToken(c.req.header("authorization"));
    const facts = tokenFacts(token);
    const feed = liveFeed(c.env, accountFeedName(user.id));
    if (!feed) throw new ApiError(503, "The live feed is not available on this deployment", "not_configured");
    const secret = await feed.issueTicket({
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
    return c.json({ ticket: `${user.id}.${secret}`, expiresInSeconds: LIVE_TICKET_TTL_SECONDS, store: receivesAnyStore(user) } satisfies LiveTicketResponse);
  })
  .get("/", (c) => {
    const upgrade = c.req.header("upgrade")?.toLowerCase() === "websocket";
    const parsed = liveConnectQuery.safeParse(c.req.query());
    if (!upgrade) {
      // Not a socket: bad input is named like any endpoint's; good input is told to upgrade.
      if (!parsed.success) throw issuesToError(parsed.error.issues, "query");
      throw new ApiError(426, "Open this path as a WebSocket", "bad_request");
    }
    // A socket is refused by closing it with LIVE_CLOSE.badTicket: a browser sees close codes, not statuses.
    const ticket = parsed.success ? splitTicket(parsed.data.ticket) : null;
    if (!parsed.success || !ticket) return refusedSocket(LIVE_CLOSE.badTicket, "The ticket is missing or malformed");
    const feed = feedStub(c.env, accountFeedName(ticket.userId));
    if (!feed) return refusedSocket(1011, "The live feed is not available on this deployment");
    const headers = new Headers({ upgrade: "websocket", "x-live-ticket": ticket.secret });
    if (parsed.data.after) headers.set("x-live-after", parsed.data.after);
    return feed.fetch("https://live-feed/connect", { headers });
  });
