// The live feed (decision 058): tickets, who receives what, the VAPI webhook's call message, catch-up
// by cursor after a reconnect, revocation, and input checks. Sockets are opened through the Worker
// itself (SELF.fetch with Upgrade: websocket), as a browser opens them.
import { createExecutionContext, listDurableObjectIds, runDurableObjectAlarm, runInDurableObject, SELF, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LIVE_TEXT } from "@shared/messages";
import { LIVE_CLOSE, type LiveMessage } from "@shared/schemas/live";
import { app } from "../app";
import { authSessions, profiles, rateLimits } from "../db/schema";
import { AIRCALL_WEBHOOK_PATH, DEV_AIRCALL_WEBHOOK_TOKEN } from "../providers/callcentre/aircall-events";
import { DEV_VAPI_WEBHOOK_SECRET } from "../providers/voice/local";
import { aircallCall } from "../test/aircall";
import { insertAgent, insertProfile } from "../test/factories";
import { call, db, shardOf, signUpAndSignIn } from "../test/helpers";
import {
  issueTicket,
  LIVE_PENDING_TICKETS_PER_USER,
  LIVE_SOCKETS_PER_ACCOUNT,
  LIVE_SOCKETS_PER_SIGN_IN,
  LIVE_UPGRADES_PER_ADDRESS,
  overSocketCap,
} from "./tickets";
import { pruneLiveChanges } from "./changes";
import { DEV_INGEST_API_KEY } from "../routes/ingest";

/** A socket's messages as they arrive, and its close. */
class Inbox {
  messages: LiveMessage[] = [];
  closed: { code: number; reason: string } | null = null;
  #waiters: (() => void)[] = [];
  #pongs = 0;

  constructor(readonly ws: WebSocket) {
    ws.addEventListener("message", (e) => {
      const data = String(e.data);
      if (data === "pong") this.#pongs++;
      else this.messages.push(JSON.parse(data) as LiveMessage);
      this.#wake();
    });
    ws.addEventListener("close", (e) => {
      this.closed = { code: e.code, reason: e.reason };
      this.#wake();
    });
    ws.accept();
  }

  #wake() {
    for (const w of this.#waiters.splice(0)) w();
  }

  /** Resolves once `ready` holds (re-checked after each message and the close). */
  until(ready: () => boolean): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => (ready() ? resolve() : this.#waiters.push(check));
      this.#waiters.push(check);
    });
  }

  /** The first message of this type (waits for it). */
  async next<T extends LiveMessage["type"]>(type: T, from = 0): Promise<Extract<LiveMessage, { type: T }>> {
    const find = () => this.messages.slice(from).find((m) => m.type === type);
    await this.until(() => Boolean(find()) || this.closed !== null);
    const found = find();
    if (!found) throw new Error(`socket closed (${this.closed?.code}) before a ${type} message`);
    return found as Extract<LiveMessage, { type: T }>;
  }

  /**
   * Everything the feed sent before now has arrived: a ping's pong comes back on the same socket
   * after every message sent before it.
   */
  async settle() {
    const before = this.#pongs;
    this.ws.send("ping");
    await this.until(() => this.#pongs > before || this.closed !== null);
  }

  closedWith(): Promise<number> {
    return this.until(() => this.closed !== null).then(() => this.closed!.code);
  }

  of<T extends LiveMessage["type"]>(type: T) {
    return this.messages.filter((m): m is Extract<LiveMessage, { type: T }> => m.type === type);
  }
}

async function ticketFor(token: string) {
  const res = await call("/api/live/ticket", { method: "POST", token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { ticket: string; expiresInSeconds: number; store: boolean };
}

/** Opens the feed with a ticket as the browser does; `after` resumes from a cursor; `address` is the client's. */
async function open(ticket: string, after?: string | null, address?: string) {
  const query = new URLSearchParams({ ticket });
  if (after) query.set("after", after);
  const headers: Record<string, string> = { upgrade: "websocket" };
  if (address) headers["cf-connecting-ip"] = address;
  const res = await SELF.fetch(`http://localhost/api/live?${query}`, { headers });
  expect(res.status).toBe(101);
  return new Inbox(res.webSocket!);
}

/** A signed-in account's feed, replayed and live. */
async function connect(token: string, after?: string | null) {
  const inbox = await open((await ticketFor(token)).ticket, after);
  await inbox.next("ready");
  return inbox;
}

/** Opens the feed with a new ticket of this session, without waiting for anything. */
const openWith = async (token: string) => open((await ticketFor(token)).ticket);

/** Sends a request through the Worker and waits for the work it left running (the publish). */
async function dispatch(path: string, init: RequestInit) {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`http://localhost${path}`, init), env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function account(appMetadata?: Record<string, unknown>) {
  const session = await signUpAndSignIn(appMetadata ? { appMetadata } : {});
  const assistantId = `asst-${crypto.randomUUID()}`;
  await insertAgent(session.userId, { vapiAssistantId: assistantId, name: `Desk ${assistantId.slice(-8)}` }, { store: "MIAMI" });
  return { ...session, assistantId };
}

function vapiCall(id: string, assistantId: string, status = "in-progress") {
  return {
    id,
    orgId: "org-1",
    type: "outboundPhoneCall",
    status,
    assistantId,
    phoneNumberId: "pn-1",
    customer: { number: "+13055550100" },
    createdAt: new Date(Date.now() - 60_000).toISOString(),
  };
}

const vapi = (message: Record<string, unknown>) =>
  dispatch("/api/webhooks/vapi", {
    method: "POST",
    headers: { "content-type": "application/json", "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET },
    body: JSON.stringify({ message }),
  });

const statusUpdate = (id: string, assistantId: string, status: string) =>
  vapi({ type: "status-update", status, timestamp: Date.now(), call: vapiCall(id, assistantId, status) });

function endOfCall(id: string, assistantId: string) {
  const started = new Date(Date.now() - 130_000);
  return vapi({
    type: "end-of-call-report",
    timestamp: Date.now(),
    endedReason: "customer-ended-call",
    startedAt: started.toISOString(),
    endedAt: new Date(started.getTime() + 125_600).toISOString(),
    cost: 0.23,
    analysis: { summary: "The customer booked a hearing test for Friday." },
    artifact: { transcript: "AI: Hello.\nHuman: Hi.", messages: [] },
    call: vapiCall(id, assistantId),
  });
}

const aircall = (id: number) => {
  const startedAt = Math.floor(Date.now() / 1000) - 300;
  return dispatch(AIRCALL_WEBHOOK_PATH, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ resource: "call", event: "call.ended", timestamp: startedAt + 200, token: DEV_AIRCALL_WEBHOOK_TOKEN, data: aircallCall(id, startedAt) }),
  });
};

let aircallIds = 1_990_000_000;

describe("tickets", () => {
  it("are given only to a signed-in session", async () => {
    const res = await call("/api/live/ticket", { method: "POST" });
    expect(res.status).toBe(401);
  });

  it("open one socket, once: a used, forged or malformed ticket is closed with badTicket", async () => {
    const a = await account();
    const ticket = await ticketFor(a.accessToken);
    expect(ticket.expiresInSeconds).toBeGreaterThan(0);
    expect(ticket.expiresInSeconds).toBeLessThanOrEqual(30);
    expect(ticket.store).toBe(false);
    const first = await open(ticket.ticket);
    expect((await first.next("ready")).cursor).toBeNull();
    const again = await open(ticket.ticket);
    expect(await again.closedWith()).toBe(LIVE_CLOSE.badTicket);
    expect(again.messages).toEqual([]);
    const forged = `${a.userId}.${"A".repeat(43)}`;
    expect(await (await open(forged)).closedWith()).toBe(LIVE_CLOSE.badTicket);
    expect(await (await open("not-a-ticket")).closedWith()).toBe(LIVE_CLOSE.badTicket);
    first.ws.close();
  });

  it("a made-up ticket names no feed object: nothing is created, and an account's own object keeps no table", async () => {
    const madeUp = `nobody-${crypto.randomUUID()}`;
    const objectOf = (userId: string) => env.LIVE_FEED.idFromName(`account:${userId}`);
    // As a ticket was shaped (`<user id>.<secret>`), and as the bare secret it is now.
    for (const forged of [`${madeUp}.${"A".repeat(43)}`, "B".repeat(43)]) {
      expect(await (await open(forged)).closedWith()).toBe(LIVE_CLOSE.badTicket);
    }
    const ids = await listDurableObjectIds(env.LIVE_FEED);
    expect(ids.some((id) => id.equals(objectOf(madeUp)))).toBe(false);
    // A real account's object, holding a socket, has written no table of its own.
    const a = await account();
    const inbox = await connect(a.accessToken);
    const tables = await runInDurableObject(env.LIVE_FEED.get(objectOf(a.userId)), (_, state) =>
      state.storage.sql
        .exec<{ name: string }>("select name from sqlite_master where type = 'table' and name not like '\\_%' escape '\\' and name not like 'sqlite%'")
        .toArray()
        .map((r) => r.name),
    );
    expect(tables).toEqual([]);
    inbox.ws.close();
  });

  it("limits upgrade attempts per address: past the limit even a good ticket is refused with tooMany, and stays unspent", async () => {
    const a = await account();
    const address = `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const windowStart = Math.floor(Date.now() / 1000 / LIVE_UPGRADES_PER_ADDRESS.windowSeconds) * LIVE_UPGRADES_PER_ADDRESS.windowSeconds;
    // This address has made its minute's attempts already (forged tickets, say).
    await db()
      .insert(rateLimits)
      .values({ key: `${LIVE_UPGRADES_PER_ADDRESS.name}:${address}`, windowStart, count: LIVE_UPGRADES_PER_ADDRESS.limit })
      .onConflictDoUpdate({ target: rateLimits.key, set: { windowStart, count: LIVE_UPGRADES_PER_ADDRESS.limit } });
    const { ticket } = await ticketFor(a.accessToken);
    const refused = await open(ticket, null, address);
    expect(await refused.closedWith()).toBe(LIVE_CLOSE.tooMany);
    expect(refused.closed?.reason).toBe(LIVE_TEXT.limited);
    // Another address opens the same ticket: the refused attempt did not spend it.
    const other = await open(ticket, null, "10.78.0.1");
    await other.next("ready");
    other.ws.close();
  });

  it("answers bad input with a 400 naming the field when the request is no upgrade", async () => {
    const missing = await call("/api/live");
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe("ticket");
    const after = await call("/api/live?ticket=abc&after=yesterday");
    expect(after.status).toBe(400);
    expect(after.body.field).toBe("after");
    const plain = await call("/api/live?ticket=abc&after=12");
    expect(plain.status).toBe(426);
  });
});

describe("caps", () => {
  it(`one sign-in holds at most ${LIVE_SOCKETS_PER_SIGN_IN} sockets: the next is closed with tooMany and its message; another sign-in still opens`, async () => {
    const a = await account();
    const held: Inbox[] = [];
    for (let i = 0; i < LIVE_SOCKETS_PER_SIGN_IN; i++) held.push(await connect(a.accessToken));
    const refused = await openWith(a.accessToken);
    expect(await refused.closedWith()).toBe(LIVE_CLOSE.tooMany);
    expect(refused.closed?.reason).toBe(LIVE_TEXT.limited);
    // A second sign-in of the account (another browser) has its own allowance.
    const again = await call("/auth/v1/token?grant_type=password", { method: "POST", json: { email: a.email, password: a.password } });
    expect(again.status).toBe(200);
    const elsewhere = await connect(again.body.access_token as string);
    // A socket closed frees its place.
    held[0].ws.close();
    await held[0].closedWith();
    const next = await connect(a.accessToken);
    for (const inbox of [...held.slice(1), elsewhere, next]) inbox.ws.close();
  }, 60_000);

  it(`an account's feed holds at most ${LIVE_SOCKETS_PER_ACCOUNT} sockets over all its sign-ins`, () => {
    const one = (sessionId: string) => ({ userId: "u", sessionId });
    const full = Array.from({ length: LIVE_SOCKETS_PER_ACCOUNT }, (_, i) => one(`s${i % 40}`));
    expect(overSocketCap(full.slice(1), one("new"))).toBe(false);
    expect(overSocketCap(full, one("new"))).toBe(true);
    const sameSignIn = Array.from({ length: LIVE_SOCKETS_PER_SIGN_IN }, () => one("s"));
    expect(overSocketCap(sameSignIn, one("s"))).toBe(true);
    expect(overSocketCap(sameSignIn, one("t"))).toBe(false);
    expect(overSocketCap(sameSignIn.slice(1), one("s"))).toBe(false);
  });

  it(`a user holds at most ${LIVE_PENDING_TICKETS_PER_USER} unspent tickets: the next request answers 429 with the feed's message`, async () => {
    const a = await account();
    const tickets: string[] = [];
    for (let i = 0; i < LIVE_PENDING_TICKETS_PER_USER; i++) tickets.push((await ticketFor(a.accessToken)).ticket);
    const refused = await call("/api/live/ticket", { method: "POST", token: a.accessToken });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe(LIVE_TEXT.limited);
    // Spending one makes room for one more.
    const inbox = await open(tickets[0]);
    await inbox.next("ready");
    await ticketFor(a.accessToken);
    expect((await call("/api/live/ticket", { method: "POST", token: a.accessToken })).status).toBe(429);
    inbox.ws.close();
  });
});

describe("who receives what", () => {
  it("a VAPI end-of-call report reaches its account's socket with the ended status, duration and summary", async () => {
    const a = await account();
    const inbox = await connect(a.accessToken);
    const id = crypto.randomUUID();
    await statusUpdate(id, a.assistantId, "ringing");
    const ringing = await inbox.next("call");
    expect(ringing.call).toMatchObject({ call_id: id, status: "ringing", user_id: a.userId });
    const from = inbox.messages.length;
    await endOfCall(id, a.assistantId);
    const ended = await inbox.next("call", from);
    expect(ended.call).toMatchObject({ call_id: id, status: "ended", duration: 126, summary: "The customer booked a hearing test for Friday." });
    expect(Number(ended.cursor)).toBeGreaterThan(Number(ringing.cursor));
    inbox.ws.close();
  });

  it("another account never receives an account's call", async () => {
    const a = await account();
    const b = await account();
    const [inA, inB] = [await connect(a.accessToken), await connect(b.accessToken)];
    await statusUpdate(crypto.randomUUID(), a.assistantId, "in-progress");
    await inA.next("call");
    // B's own call arrives; A's never did.
    await statusUpdate(crypto.randomUUID(), b.assistantId, "in-progress");
    await inB.next("call");
    await inB.settle();
    expect(inB.of("call").map((m) => m.call.user_id)).toEqual([b.userId]);
    expect(inA.of("call").map((m) => m.call.user_id)).toEqual([a.userId]);
    inA.ws.close();
    inB.ws.close();
  });

  it("store signals reach only the sockets whose user holds the kind's flag", async () => {
    const callCentre = await signUpAndSignIn({ appMetadata: { call_app: true } });
    const shopwindows = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    const customer = await signUpAndSignIn();
    const staffTicket = await ticketFor(callCentre.accessToken);
    expect(staffTicket.store).toBe(true);
    const inStaff = await open(staffTicket.ticket);
    await inStaff.next("ready");
    const inShop = await connect(shopwindows.accessToken);
    const inCustomer = await connect(customer.accessToken);
    const res = await aircall(++aircallIds);
    expect(res.status).toBe(200);
    const signal = await inStaff.next("store");
    expect(signal.kind).toBe("aircall");
    expect(signal.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The publish has run to its end (dispatch waited for it): whatever it sent has arrived by the pong.
    await inShop.settle();
    await inCustomer.settle();
    expect(inShop.of("store")).toEqual([]);
    expect(inCustomer.of("store")).toEqual([]);
    for (const inbox of [inStaff, inShop, inCustomer]) inbox.ws.close();
  });
});

describe("store signals by kind", () => {
  it("an ingested lead reaches users with shopwindows_info, not those with only call_app", async () => {
    const shop = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    const callCentre = await signUpAndSignIn({ appMetadata: { call_app: true } });
    const inShop = await connect(shop.accessToken);
    const inCallCentre = await connect(callCentre.accessToken);
    const lead = { external_id: `lead-${crypto.randomUUID()}`, store: "TULSA", submitted_at: "2026-04-03T09:15:00-05:00", email: "jane@example.com" };
    const res = await dispatch("/api/ingest/leads", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${DEV_INGEST_API_KEY}` },
      body: JSON.stringify({ leads: [lead] }),
    });
    expect(res.status).toBe(200);
    expect(await inShop.next("store")).toEqual({ type: "store", kind: "lead", day: "2026-04-03" });
    await inCallCentre.settle();
    expect(inCallCentre.of("store")).toEqual([]);
    inShop.ws.close();
    inCallCentre.ws.close();
  });
});

describe("catch-up by cursor", () => {
  it("replays exactly the calls changed since the cursor, each once as it is now, then ready", async () => {
    const a = await account();
    const first = await connect(a.accessToken);
    const seen = crypto.randomUUID();
    await statusUpdate(seen, a.assistantId, "ringing");
    const last = await first.next("call");
    first.ws.close();
    await first.closedWith();
    // Missed while away: two new calls, one of them changed twice.
    const [one, two] = [crypto.randomUUID(), crypto.randomUUID()];
    await statusUpdate(one, a.assistantId, "ringing");
    await statusUpdate(two, a.assistantId, "ringing");
    await endOfCall(one, a.assistantId);
    const back = await connect(a.accessToken, last.cursor);
    const replayed = back.of("call");
    expect(replayed.map((m) => m.call.call_id)).toEqual([two, one]);
    expect(replayed.map((m) => m.call.status)).toEqual(["ringing", "ended"]);
    const ready = back.of("ready")[0];
    expect(ready.cursor).toBe(replayed[1].cursor);
    expect(back.messages.map((m) => m.type)).toEqual(["call", "call", "ready"]);
    // Live from there: the next change is sent once.
    await statusUpdate(two, a.assistantId, "in-progress");
    const live = await back.next("call", 3);
    expect(live.call).toMatchObject({ call_id: two, status: "in-progress" });
    await back.settle();
    expect(back.of("call")).toHaveLength(3);
    back.ws.close();
    // Resuming from the newest cursor replays nothing.
    const again = await connect(a.accessToken, live.cursor);
    expect(again.messages.map((m) => m.type)).toEqual(["ready"]);
    expect(again.of("ready")[0].cursor).toBe(live.cursor);
    again.ws.close();
  });

  it("asks for a resync when the changes after the cursor were pruned, and replays again from the new cursor", async () => {
    const a = await account();
    const first = await connect(a.accessToken);
    await statusUpdate(crypto.randomUUID(), a.assistantId, "ringing");
    const old = await first.next("call");
    first.ws.close();
    await statusUpdate(crypto.randomUUID(), a.assistantId, "ringing");
    await statusUpdate(crypto.randomUUID(), a.assistantId, "ringing");
    // The nightly prune, a week on: only the log's newest row stays.
    expect(await pruneLiveChanges(await shardOf(a.userId), new Date(Date.now() + 7 * 86_400_000))).toBeGreaterThan(0);
    const back = await connect(a.accessToken, old.cursor);
    expect(back.messages.map((m) => m.type)).toEqual(["resync", "ready"]);
    const cursor = back.of("ready")[0].cursor;
    back.ws.close();
    const again = await connect(a.accessToken, cursor);
    expect(again.messages.map((m) => m.type)).toEqual(["ready"]);
    // The account's newest row stayed: its count goes on from there, never starting again.
    await statusUpdate(crypto.randomUUID(), a.assistantId, "ringing");
    expect(Number((await again.next("call")).cursor)).toBe(Number(cursor) + 1);
    again.ws.close();
  });

  it("counts only the account's own changes: other accounts' calls between two of its changes do not move its cursor", async () => {
    const a = await account();
    const b = await account();
    const inA = await connect(a.accessToken);
    await statusUpdate(crypto.randomUUID(), a.assistantId, "ringing");
    const first = await inA.next("call");
    // Five changes of another account, then one of this account's.
    for (let i = 0; i < 5; i++) await statusUpdate(crypto.randomUUID(), b.assistantId, "ringing");
    await statusUpdate(crypto.randomUUID(), a.assistantId, "ringing");
    const second = await inA.next("call", inA.messages.indexOf(first) + 1);
    expect(Number(second.cursor)).toBe(Number(first.cursor) + 1);
    inA.ws.close();
    // A fresh account's feed starts its own count.
    const c = await account();
    const inC = await connect(c.accessToken);
    await statusUpdate(crypto.randomUUID(), c.assistantId, "ringing");
    expect((await inC.next("call")).cursor).toBe("1");
    inC.ws.close();
  });

  it("asks for a resync when the cursor is past anything the log holds", async () => {
    const a = await account();
    const inbox = await connect(a.accessToken, "999999999");
    expect(inbox.messages.map((m) => m.type)).toEqual(["resync", "ready"]);
    inbox.ws.close();
  });
});

describe("revocation", () => {
  it("closes the socket of a session that signs out, with revoked", async () => {
    const a = await account();
    const inbox = await connect(a.accessToken);
    const res = await dispatch("/auth/v1/logout?scope=global", { method: "POST", headers: { authorization: `Bearer ${a.accessToken}` } });
    expect(res.status).toBe(204);
    expect(await inbox.closedWith()).toBe(LIVE_CLOSE.revoked);
  });

  it("closes, on its periodic re-check, the socket of a session that ended without the server being told", async () => {
    const a = await account();
    const inbox = await connect(a.accessToken);
    // Ended behind the feed's back (as a Supabase sign-out is, which the server never hears about).
    await db().update(authSessions).set({ revokedAt: new Date().toISOString() }).where(eq(authSessions.userId, a.userId));
    expect(await runDurableObjectAlarm(env.LIVE_FEED.get(env.LIVE_FEED.idFromName(`account:${a.userId}`)))).toBe(true);
    expect(await inbox.closedWith()).toBe(LIVE_CLOSE.revoked);
  });

  it("closes the sockets of every account an admin deletes under one email, with revoked", async () => {
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    const a = await account();
    const inA = await connect(a.accessToken);
    // An older account under the same email (deleted at the identity provider and registered again),
    // its feed open on a ticket issued to it as the route issues them.
    const older = await insertProfile({ email: a.email });
    const olderTicket = await issueTicket(db(), {
      userId: older.id,
      email: a.email,
      sessionId: null,
      issuedAt: null,
      expiresAt: null,
      isAdmin: false,
      shopwindowsInfo: false,
      callApp: false,
    });
    const inOlder = await open(olderTicket!);
    await inOlder.next("ready");
    const res = await dispatch("/api/admin/cleanup-user", {
      method: "POST",
      headers: { authorization: `Bearer ${admin.accessToken}`, "content-type": "application/json" },
      body: JSON.stringify({ email: a.email }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { userIds: string[] }).userIds.sort()).toEqual([a.userId, older.id].sort());
    expect(await inA.closedWith()).toBe(LIVE_CLOSE.revoked);
    expect(await inOlder.closedWith()).toBe(LIVE_CLOSE.revoked);
  });

  it("closes a store socket whose user lost the flag, with renew", async () => {
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    const staff = await signUpAndSignIn({ appMetadata: { call_app: true } });
    const inbox = await connect(staff.accessToken);
    const res = await dispatch(`/api/admin/users/${staff.userId}/flags`, {
      method: "PUT",
      headers: { authorization: `Bearer ${admin.accessToken}`, "content-type": "application/json" },
      body: JSON.stringify({ call_app: false }),
    });
    expect(res.status).toBe(200);
    expect(await inbox.closedWith()).toBe(LIVE_CLOSE.renew);
    const row = await db().query.profiles.findFirst({ where: eq(profiles.id, staff.userId) });
    expect(row?.callApp).toBe(false);
  });
});
