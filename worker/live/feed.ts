// The live feed's Durable Object (decision 058). One object per account (`account:<userId>`) holds
// that account's browser sockets; one object (`store`) knows which account objects have a socket
// entitled to store-network signals and passes each signal on to them. Each browser has one socket,
// to its account's object, which carries both its calls and (when its user holds a flag) store
// signals.
//
// An account object is named only for a ticket the Worker has spent (./routes.ts) or a
// server-side publish, and keeps no table of its own: a made-up id creates nothing. The store object
// alone keeps one (its subscribers), created at its first subscription.
//
// Sockets are held through the WebSocket Hibernation API: the object may be evicted from memory
// while they stay open, so an idle connection costs nothing; who is on each socket and how far it
// has read live in the socket's attachment, not in memory.
import { DurableObject } from "cloudflare:workers";
import { LIVE_TEXT } from "@shared/messages";
import { LIVE_CLOSE, type LiveMessage, type LiveStoreMessage } from "@shared/schemas/live";
import { createDb } from "../db/client";
import { shardDatabase } from "../db/shards";
import { parseConfig, type Bindings } from "../env";
import { log } from "../lib/log";
import { feedStub, LIVE_AFTER_HEADER, LIVE_WHO_HEADER, refusedSocket, type AccountFeedStoreRpc, type LiveFeedRpc, type StoreFeedRpc } from "./rpc";
import { createProviders } from "../providers";
import { identityCheck } from "../services/profiles";
import { mustResync, readChanges } from "./changes";
import { accountFeedName, LIVE_RECHECK_MS, overSocketCap, receivesAnyStore, receivesStore, STORE_FEED_NAME, type LiveIdentity } from "./tickets";

/** What a socket's attachment holds: who is on it and the cursor of the last change it was sent. */
type Attachment = LiveIdentity & {
  /** The cursor of the last change sent (null: none yet). */
  cursor: number | null;
  /** Replayed and live: broadcasts send to it (until then its replay does). */
  ready: boolean;
};

type Socket = { ws: WebSocket; at: Attachment };

const USER_TAG = (userId: string) => `user:${userId}`;

export class LiveFeed extends DurableObject<Bindings> implements LiveFeedRpc, AccountFeedStoreRpc, StoreFeedRpc {
  /** Replays and broadcasts in order, one at a time: a socket is never sent a change twice or out of order. */
  #queue: Promise<void> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    // A browser's keep-alive is answered without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  #enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #sockets(): Socket[] {
    const out: Socket[] = [];
    for (const ws of this.ctx.getWebSockets()) {
      const at = ws.deserializeAttachment() as Attachment | null;
      if (at) out.push({ ws, at });
    }
    return out;
  }

  #config() {
    return parseConfig(this.env);
  }

  /** The shard of each account this object has served (an account object serves one), by account id. */
  readonly #shards = new Map<string, string>();

  /**
   * The account's shard on its primary: a publish follows a committed write and must see it. The
   * shard is read from the directory once per object; a moved account's feed resyncs (its cursor
   * names the old shard's change log), and a new object reads the new shard.
   */
  async #accountD1(userId: string): Promise<D1Database> {
    let shard = this.#shards.get(userId);
    if (!shard) {
      const row = await this.env.DB.prepare("SELECT shard FROM profiles WHERE id = ?").bind(userId).first<{ shard: string | null }>();
      if (!row?.shard) throw new Error("The account has no shard");
      shard = row.shard;
      this.#shards.set(userId, shard);
    }
    return shardDatabase(this.env, shard).withSession("first-primary") as unknown as D1Database;
  }

  // ---- sockets (account objects) ----

  /**
   * The upgrade the Worker forwards (GET /api/live) once it has spent the ticket: header x-live-who
   * (the ticket's identity) and x-live-after (the cursor to resume after). Refused with `tooMany`
   * past the account's or the sign-in's socket cap.
   */
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") return new Response("Expected a WebSocket upgrade", { status: 426 });
    const whoHeader = request.headers.get(LIVE_WHO_HEADER);
    if (!whoHeader) return refusedSocket(LIVE_CLOSE.badTicket, "The ticket is missing, expired, used or forged");
    const who = JSON.parse(whoHeader) as LiveIdentity;
    const open = this.#sockets().filter((s) => s.ws.readyState === WebSocket.OPEN);
    if (overSocketCap(open.map((s) => s.at), who)) return refusedSocket(LIVE_CLOSE.tooMany, LIVE_TEXT.limited);
    const afterHeader = request.headers.get(LIVE_AFTER_HEADER);
    const after = afterHeader ? Number(afterHeader) : null;
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [USER_TAG(who.userId)]);
    const at: Attachment = { ...who, cursor: null, ready: false };
    server.serializeAttachment(at);
    void this.#enqueue(() => this.#replay(server, after));
    if (receivesAnyStore(who)) {
      void this.#storeFeed()
        .subscribe(who.userId)
        .catch((e: unknown) => log(null, "warn", "live feed: store subscription failed", { error: (e as Error).message }));
    }
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + LIVE_RECHECK_MS);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Sends a new socket what changed since its cursor (or only where the log stands), then `ready`. */
  async #replay(ws: WebSocket, after: number | null) {
    const at = ws.deserializeAttachment() as Attachment | null;
    if (!at) return;
    let changes;
    try {
      changes = await readChanges(await this.#accountD1(at.userId), at.userId, after ?? Number.MAX_SAFE_INTEGER);
    } catch (e) {
      log(null, "warn", "live feed: replay failed", { error: (e as Error).message });
      ws.close(1011, "The feed could not be read");
      return;
    }
    let reached = changes.head;
    if (after !== null) {
      if (mustResync(after, changes)) {
        send(ws, { type: "resync", cursor: cursorText(changes.head) });
      } else {
        for (const message of changes.calls) send(ws, message);
        reached = changes.head ?? after;
      }
    }
    send(ws, { type: "ready", cursor: cursorText(reached) });
    ws.serializeAttachment({ ...at, cursor: reached, ready: true } satisfies Attachment);
  }

  async publishCalls(userId: string): Promise<void> {
    await this.#enqueue(() => this.#broadcast(userId));
  }

  /** Sends every live socket the calls changed after its own cursor, each once. */
  async #broadcast(userId: string) {
    const live = this.#sockets().filter((s) => s.at.ready && s.at.userId === userId);
    if (live.length === 0) return;
    const from = Math.min(...live.map((s) => s.at.cursor ?? 0));
    const changes = await readChanges(await this.#accountD1(userId), userId, from);
    if (changes.more) {
      // More calls changed than one read holds (a socket far behind): every socket refetches its lists.
      for (const { ws, at } of live) {
        try {
          send(ws, { type: "resync", cursor: cursorText(changes.head) });
          send(ws, { type: "ready", cursor: cursorText(changes.head) });
          ws.serializeAttachment({ ...at, cursor: changes.head } satisfies Attachment);
        } catch {
          // closing
        }
      }
      return;
    }
    for (const { ws, at } of live) {
      const mine = changes.calls.filter((m) => Number(m.cursor) > (at.cursor ?? 0));
      if (mine.length === 0) continue;
      try {
        for (const message of mine) send(ws, message);
        ws.serializeAttachment({ ...at, cursor: Number(mine[mine.length - 1].cursor) } satisfies Attachment);
      } catch {
        // A socket closing as we send: its close handler tidies up.
      }
    }
  }

  storeSignal(messages: LiveStoreMessage[]): Promise<number> {
    let entitled = 0;
    for (const { ws, at } of this.#sockets()) {
      if (!receivesAnyStore(at)) continue;
      entitled++;
      try {
        for (const message of messages) if (receivesStore(at, message.kind)) send(ws, message);
      } catch {
        // A socket closing as we send: its close handler tidies up.
      }
    }
    return Promise.resolve(entitled);
  }

  // ---- the store object ----

  #storeFeed(): StoreFeedRpc {
    return feedStub(this.env, STORE_FEED_NAME) as unknown as StoreFeedRpc;
  }

  /** The store object's list of account feeds to pass store signals to (created on first use, in that object only). */
  #subscribers() {
    const sql = this.ctx.storage.sql;
    sql.exec("create table if not exists subscribers (user_id text primary key)");
    return sql;
  }

  subscribe(userId: string): Promise<void> {
    this.#subscribers().exec("insert or ignore into subscribers (user_id) values (?)", userId);
    return Promise.resolve();
  }

  unsubscribe(userId: string): Promise<void> {
    this.#subscribers().exec("delete from subscribers where user_id = ?", userId);
    return Promise.resolve();
  }

  /** Passes store signals to every subscribed account feed; one with no entitled socket left is dropped. */
  async publishStore(messages: LiveStoreMessage[]): Promise<void> {
    const users = this.#subscribers().exec<{ user_id: string }>("select user_id from subscribers").toArray();
    await Promise.all(
      users.map(async ({ user_id }) => {
        const feed = feedStub(this.env, accountFeedName(user_id)) as unknown as AccountFeedStoreRpc;
        try {
          if ((await feed.storeSignal(messages)) === 0) this.ctx.storage.sql.exec("delete from subscribers where user_id = ?", user_id);
        } catch (e) {
          log(null, "warn", "live feed: store signal not passed on", { error: (e as Error).message });
        }
      }),
    );
  }

  // ---- revocation ----

  async recheck(): Promise<void> {
    await this.#enqueue(() => this.#recheck());
  }

  /**
   * Confirms every socket's sign-in against the database as a request's would be (the session still
   * live, the profile still there), and closes those that no longer hold: `revoked` for a signed-out
   * session or a deleted account, `renew` for changed flags or an expired token (the browser takes a
   * new ticket, which says what it may see now).
   */
  async #recheck() {
    const sockets = this.#sockets();
    if (sockets.length === 0) return;
    const config = this.#config();
    const db = createDb(this.env.DB.withSession("first-primary") as unknown as D1Database);
    const identity = createProviders(config, db).identity;
    const groups = new Map<string, Socket[]>();
    for (const s of sockets) {
      const key = JSON.stringify([s.at.userId, s.at.sessionId, s.at.issuedAt, s.at.isAdmin, s.at.shopwindowsInfo, s.at.callApp]);
      const group = groups.get(key);
      if (group) group.push(s);
      else groups.set(key, [s]);
    }
    const nowSeconds = Date.now() / 1000;
    for (const group of groups.values()) {
      const at = group[0].at;
      const claims = {
        id: at.userId,
        email: at.email,
        appMetadata: { is_admin: at.isAdmin, shopwindows_info: at.shopwindowsInfo, call_app: at.callApp },
        userMetadata: {},
        issuedAt: at.issuedAt ?? undefined,
        sessionId: at.sessionId ?? undefined,
      };
      const check = identityCheck(db, identity, claims);
      let results: unknown[];
      try {
        results = await db.batch(check.statements);
      } catch (e) {
        // The database did not answer: the sockets stay until the next check.
        log(null, "warn", "live feed: sign-in re-check failed", { error: (e as Error).message });
        continue;
      }
      let code: number | null = null;
      try {
        const { row } = check.read(results);
        if (!row) code = LIVE_CLOSE.revoked;
        else if (row.isAdmin !== at.isAdmin || row.shopwindowsInfo !== at.shopwindowsInfo || row.callApp !== at.callApp) code = LIVE_CLOSE.renew;
      } catch {
        code = LIVE_CLOSE.revoked;
      }
      for (const { ws, at: own } of group) {
        const expired = own.expiresAt !== null && own.expiresAt <= nowSeconds;
        const close = code ?? (expired ? LIVE_CLOSE.renew : null);
        if (close !== null) closeQuietly(ws, close, close === LIVE_CLOSE.revoked ? "The session has ended" : "Renew the ticket");
      }
    }
    await this.#tidyStoreSubscription();
  }

  async alarm(): Promise<void> {
    await this.recheck();
    if (this.ctx.getWebSockets().length > 0) await this.ctx.storage.setAlarm(Date.now() + LIVE_RECHECK_MS);
  }

  // ---- hibernation handlers ----

  webSocketMessage(): void {
    // The browser sends nothing the feed needs (its keep-alive "ping" is answered by the auto-response).
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    closeQuietly(ws, code === 1005 || code === 1006 ? 1000 : code, reason);
    await this.#tidyStoreSubscription(ws);
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    await this.#tidyStoreSubscription(ws);
  }

  /** Leaves the store object's list when no open socket (besides `closing`) may receive store signals. */
  async #tidyStoreSubscription(closing?: WebSocket) {
    const open = this.#sockets().filter((s) => s.ws !== closing && s.ws.readyState === WebSocket.OPEN);
    const closed = this.#sockets().filter((s) => !open.includes(s));
    const userId = closed[0]?.at.userId ?? open[0]?.at.userId;
    if (!userId || open.some((s) => receivesAnyStore(s.at))) return;
    if (!closed.some((s) => receivesAnyStore(s.at))) return;
    await this.#storeFeed()
      .unsubscribe(userId)
      .catch(() => undefined);
  }
}

/** A change-log cursor as the browser receives it. */
const cursorText = (n: number | null) => (n === null ? null : String(n));

function send(ws: WebSocket, message: LiveMessage) {
  ws.send(JSON.stringify(message));
}

function closeQuietly(ws: WebSocket, code: number, reason: string) {
  try {
    ws.close(code, reason);
  } catch {
    // already closed
  }
}
