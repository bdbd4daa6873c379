// The live call feed's connection: one WebSocket per tab, shared by every screen that shows
// live data. It trades the session for a short-lived ticket, opens /api/live with the cursor of the
// last event it applied (the server replays what changed since), reconnects with exponential backoff
// and jitter, lets go of the socket while the tab is hidden, and stops for good on a revoked session.
// No React and no query cache here: listeners receive the messages (see ./live-feed.ts).
import type { LIVE_CLOSE, LiveMessage, LiveTicketResponse } from "@shared/schemas/live";
import { claimedViewer } from "@web/lib/auth/token-claims";

/**
 * off: nobody needs the feed, or signed out. connecting: first ticket and socket. live: replay done,
 * messages flow. reconnecting: lost, waiting for the next try. paused: the tab is hidden. limited: the
 * server refused one more connection (too many on the account, its sign-in or the address); the next
 * try waits the longest delay. stopped: the server closed the session's feed (revoked) or refused the
 * ticket request as signed out.
 */
export type LiveStatus = "off" | "connecting" | "live" | "reconnecting" | "paused" | "limited" | "stopped";

/** The part of a WebSocket the feed uses (a fake one in tests). */
export type LiveSocket = {
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason?: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  close(code?: number, reason?: string): void;
};

export type LiveFeedDeps = {
  getTicket: () => Promise<LiveTicketResponse>;
  openSocket: (url: string) => LiveSocket;
  /** The socket URL for a ticket and the cursor to resume after. */
  socketUrl: (ticket: string, after: string | null) => string;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (timer: unknown) => void;
  /** In [0, 1): the jitter. */
  random: () => number;
};

export type LiveFeedOptions = {
  /** First retry's ceiling; doubled per failed try up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How long a hidden tab keeps its socket before closing it. */
  hiddenCloseMs: number;
  /** How long the socket stays open after the last screen that needed it went away (a navigation). */
  lingerMs: number;
};

export const LIVE_FEED_DEFAULTS: LiveFeedOptions = { baseDelayMs: 1_000, maxDelayMs: 30_000, hiddenCloseMs: 30_000, lingerMs: 10_000 };

/** What the messages are applied to. `fresh` is true on the first `ready` of a feed that had no cursor. */
export type LiveListener = {
  message?: (msg: LiveMessage) => void;
  /** Replay could not cover the gap (resync), or this tab had no cursor yet: lists read before may lack events. */
  refetch?: () => void;
};

// The feed's own close codes (shared/schemas/live.ts); typed by the contract, so a change there fails the build here.
const CLOSE_REVOKED: (typeof LIVE_CLOSE)["revoked"] = 4401;
const CLOSE_RENEW: (typeof LIVE_CLOSE)["renew"] = 4408;
const CLOSE_TOO_MANY: (typeof LIVE_CLOSE)["tooMany"] = 4429;
const CLOSE_NORMAL = 1000;

/** Cursors are decimal strings of any length: compared as numbers without parsing them. */
export function cursorAfter(a: string, b: string | null): boolean {
  if (b === null) return true;
  if (a.length !== b.length) return a.length > b.length;
  return a > b;
}

/** The `sub` of a JWT, or the token itself when it is not one: who the cursor belongs to. */
export function tokenSubject(token: string): string {
  return claimedViewer(token)?.id ?? token;
}

const statusOf = (err: unknown) => (err as { status?: unknown } | null)?.status;

function isAuthRefusal(err: unknown): boolean {
  return statusOf(err) === 401;
}

export class LiveFeed {
  private status: LiveStatus = "off";
  private readonly statusListeners = new Set<() => void>();
  private readonly listeners = new Set<LiveListener>();
  /** The cursor of the last event applied; the next connection resumes after it. */
  private cursor: string | null = null;
  private subject: string | null = null;
  private token: string | null = null;
  private demand = 0;
  private visible = true;
  private paused = false;
  /** Why the feed will not reconnect: the server revoked the session, or refused its token. */
  private stopped: "revoked" | "unauthorized" | null = null;
  private socket: LiveSocket | null = null;
  /** Bumped whenever a connection attempt is abandoned, so a late ticket answer opens nothing. */
  private generation = 0;
  private connecting = false;
  private attempt = 0;
  private retryTimer: unknown = null;
  private hideTimer: unknown = null;
  private lingerTimer: unknown = null;
  private everLive = false;

  constructor(
    private readonly deps: LiveFeedDeps,
    private readonly options: LiveFeedOptions = LIVE_FEED_DEFAULTS,
  ) {}

  getStatus = (): LiveStatus => this.status;

  /** The cursor the next connection resumes after (tests and diagnostics). */
  getCursor(): string | null {
    return this.cursor;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  };

  /** Receives every message (and refetch signals) while registered. */
  listen(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A screen that shows live data is mounted; the returned function says it went away. */
  acquire(): () => void {
    this.demand++;
    this.clear("lingerTimer");
    this.ensureConnected();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.demand--;
      if (this.demand > 0) return;
      this.clear("lingerTimer");
      this.lingerTimer = this.deps.setTimer(() => {
        this.lingerTimer = null;
        if (this.demand === 0) this.disconnect("off");
      }, this.options.lingerMs);
    };
  }

  /** The session's token changed: null signs out (forget the cursor), another user starts afresh. */
  setToken(token: string | null) {
    const previous = this.token;
    this.token = token;
    const subject = token ? tokenSubject(token) : null;
    if (subject === this.subject) {
      // A refreshed token may succeed where the expired one was refused.
      if (token !== previous && this.stopped === "unauthorized") {
        this.stopped = null;
        this.attempt = 0;
        this.ensureConnected();
      }
      return;
    }
    const hadSubject = this.subject !== null;
    this.subject = subject;
    if (hadSubject) {
      this.disconnect("off");
      this.cursor = null;
      this.everLive = false;
    }
    this.stopped = null;
    this.attempt = 0;
    this.ensureConnected();
  }

  setVisible(visible: boolean) {
    if (visible === this.visible) return;
    this.visible = visible;
    if (!visible) {
      this.clear("hideTimer");
      this.hideTimer = this.deps.setTimer(() => {
        this.hideTimer = null;
        this.paused = true;
        if (this.wanted()) this.disconnect("paused");
      }, this.options.hiddenCloseMs);
      return;
    }
    this.clear("hideTimer");
    if (this.paused) {
      this.paused = false;
      this.attempt = 0;
      this.ensureConnected();
    }
  }

  /** Closes everything and forgets the listeners' demand (tests, and a page being torn down). */
  dispose() {
    this.demand = 0;
    this.clear("lingerTimer");
    this.clear("hideTimer");
    this.disconnect("off");
    this.listeners.clear();
    this.statusListeners.clear();
  }

  private wanted() {
    return this.subject !== null && this.demand > 0 && this.stopped === null;
  }

  private setStatus(status: LiveStatus) {
    if (status === this.status) return;
    this.status = status;
    for (const listener of this.statusListeners) listener();
  }

  private clear(which: "retryTimer" | "hideTimer" | "lingerTimer") {
    if (this[which] !== null) this.deps.clearTimer(this[which]);
    this[which] = null;
  }

  private ensureConnected() {
    if (!this.wanted() || this.paused) return;
    if (this.socket || this.connecting || this.retryTimer !== null) return;
    void this.connect();
  }

  private disconnect(status: LiveStatus) {
    this.generation++;
    this.connecting = false;
    this.clear("retryTimer");
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.onerror = null;
      socket.close(CLOSE_NORMAL);
    }
    this.setStatus(status);
  }

  private async connect() {
    const generation = ++this.generation;
    this.connecting = true;
    this.setStatus(this.everLive || this.attempt > 0 ? "reconnecting" : "connecting");
    let ticket: LiveTicketResponse;
    try {
      ticket = await this.deps.getTicket();
    } catch (err) {
      if (generation !== this.generation) return;
      this.connecting = false;
      if (isAuthRefusal(err)) {
        // Signed out on the server: a new token (sign-in) starts the feed again.
        this.stopped = "unauthorized";
        this.setStatus("stopped");
        return;
      }
      // Too many unspent tickets (many tabs at once): wait the longest delay before the next.
      this.scheduleRetry(statusOf(err) === 429);
      return;
    }
    if (generation !== this.generation) return;
    this.connecting = false;
    if (!this.wanted() || this.paused) {
      this.setStatus(this.paused ? "paused" : "off");
      return;
    }
    const resumeFrom = this.cursor;
    const socket = this.deps.openSocket(this.deps.socketUrl(ticket.ticket, resumeFrom));
    this.socket = socket;
    socket.onmessage = (ev) => {
      if (this.socket !== socket) return;
      this.handle(ev.data, resumeFrom === null);
    };
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (ev.code === CLOSE_REVOKED) {
        this.stopped = "revoked";
        this.setStatus("stopped");
        return;
      }
      // An expired sign-in or changed rights: a new ticket at once, unless that is what just failed.
      if (ev.code === CLOSE_RENEW && this.attempt === 0 && this.wanted() && !this.paused) {
        this.attempt = 1;
        void this.connect();
        return;
      }
      if (this.wanted() && !this.paused) this.scheduleRetry(ev.code === CLOSE_TOO_MANY);
      else this.setStatus(this.paused ? "paused" : "off");
    };
    // An error is followed by a close, which decides what comes next.
    socket.onerror = () => {};
  }

  /** Waits before the next try: the backoff's delay, or the longest one when the server refused one more connection (`limited`). */
  private scheduleRetry(limited = false) {
    if (!this.wanted() || this.paused) {
      this.setStatus(this.paused ? "paused" : "off");
      return;
    }
    const ceiling = limited ? this.options.maxDelayMs : Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** this.attempt);
    // Half fixed, half random: many tabs cut off together do not come back together.
    const delay = ceiling / 2 + (ceiling / 2) * this.deps.random();
    this.attempt++;
    this.setStatus(limited ? "limited" : "reconnecting");
    this.retryTimer = this.deps.setTimer(() => {
      this.retryTimer = null;
      this.ensureConnected();
    }, delay);
  }

  private handle(data: unknown, fresh: boolean) {
    let msg: LiveMessage;
    try {
      msg = JSON.parse(String(data)) as LiveMessage;
    } catch {
      return;
    }
    switch (msg.type) {
      case "call":
        // A replay that overlaps what this tab already applied is skipped: nothing is applied twice.
        if (!cursorAfter(msg.cursor, this.cursor)) return;
        this.emit(msg);
        this.cursor = msg.cursor;
        return;
      case "store":
        this.emit(msg);
        return;
      case "resync":
        // The server's log does not hold this tab's cursor (pruned, or a numbering it never reached):
        // its cursor replaces this tab's, even when it is null (the account has no change logged yet).
        this.cursor = msg.cursor;
        this.emitRefetch();
        return;
      case "ready":
        if (msg.cursor !== null && cursorAfter(msg.cursor, this.cursor)) this.cursor = msg.cursor;
        this.attempt = 0;
        // Without a cursor nothing was replayed: what the lists read before the socket opened may
        // lack a call that changed meanwhile, so they are read again once, now that nothing is lost.
        if (fresh) this.emitRefetch();
        this.everLive = true;
        this.setStatus("live");
        return;
      default:
        return;
    }
  }

  private emit(msg: LiveMessage) {
    for (const l of [...this.listeners]) l.message?.(msg);
  }

  private emitRefetch() {
    for (const l of [...this.listeners]) l.refetch?.();
  }
}
