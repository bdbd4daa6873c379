// The live feed's connection rules against a fake socket and hand-driven timers: backoff with
// jitter, resuming after the last applied cursor, no event applied twice, resync, the hidden tab,
// and the close codes that stop or renew it.
import { describe, expect, it } from "vitest";
import type { LiveMessage } from "@shared/schemas/live";
import { ringingCall } from "@web/test/call-logs";
import { FakeWebSocket, fakeToken as jwt } from "@web/test/fake-socket";
import { cursorAfter, LiveFeed, tokenSubject, type LiveSocket } from "./feed";

/** The page tests' socket, read here for the cursor it resumes after. */
class FakeSocket extends FakeWebSocket implements LiveSocket {
  get after() {
    return new URL(this.url).searchParams.get("after");
  }
}

type Timer = { fn: () => void; ms: number; id: number };

const call = (id: number, cursor: string): LiveMessage => ({
  type: "call",
  cursor,
  call: ringingCall(id, "15:00"),
});

function setup({ random = 0.5, ticket = async () => ({ ticket: "t", expiresInSeconds: 30, store: false }) } = {}) {
  const sockets: FakeSocket[] = [];
  const timers: Timer[] = [];
  let nextId = 1;
  const tickets: number[] = [];
  const feed = new LiveFeed(
    {
      getTicket: async () => {
        tickets.push(tickets.length);
        return ticket();
      },
      openSocket: (url) => {
        const s = new FakeSocket(url);
        sockets.push(s);
        return s;
      },
      socketUrl: (t, after) => `ws://app.test/api/live?ticket=${t}${after === null ? "" : `&after=${after}`}`,
      setTimer: (fn, ms) => {
        const t = { fn, ms, id: nextId++ };
        timers.push(t);
        return t.id;
      },
      clearTimer: (id) => {
        const i = timers.findIndex((t) => t.id === id);
        if (i !== -1) timers.splice(i, 1);
      },
      random: () => random,
    },
    { baseDelayMs: 1000, maxDelayMs: 30_000, hiddenCloseMs: 30_000, lingerMs: 10_000 },
  );
  const received: LiveMessage[] = [];
  let refetches = 0;
  feed.listen({ message: (m) => received.push(m), refetch: () => refetches++ });
  const flush = () => new Promise((r) => setTimeout(r, 0));
  /** Runs the one pending timer (asserting its delay when given). */
  const fire = async (ms?: number) => {
    expect(timers).toHaveLength(1);
    const t = timers.shift()!;
    if (ms !== undefined) expect(t.ms).toBe(ms);
    t.fn();
    await flush();
  };
  const last = () => sockets[sockets.length - 1]!;
  return { feed, sockets, timers, tickets, received, refetches: () => refetches, flush, fire, last };
}

async function connected(s: ReturnType<typeof setup>, cursor: string | null = "10") {
  s.feed.setToken(jwt("u1"));
  s.feed.acquire();
  await s.flush();
  s.last().send({ type: "ready", cursor });
  expect(s.feed.getStatus()).toBe("live");
}

describe("LiveFeed", () => {
  it("opens nothing until a signed-in user has a live screen mounted", async () => {
    const s = setup();
    s.feed.acquire();
    await s.flush();
    expect(s.sockets).toHaveLength(0);
    expect(s.feed.getStatus()).toBe("off");
    s.feed.setToken(jwt("u1"));
    await s.flush();
    expect(s.sockets).toHaveLength(1);
    expect(s.last().after).toBeNull();
    expect(s.feed.getStatus()).toBe("connecting");
  });

  it("shares one connection between screens and lets it go a while after the last one leaves", async () => {
    const s = setup();
    await connected(s);
    const release = s.feed.acquire();
    await s.flush();
    expect(s.sockets).toHaveLength(1);
    release();
    expect(s.timers).toHaveLength(0);
    // The first screen (from `connected`) has not released: the socket stays. Now a fresh pair.
    const s2 = setup();
    s2.feed.setToken(jwt("u1"));
    const a = s2.feed.acquire();
    const b = s2.feed.acquire();
    await s2.flush();
    a();
    b();
    expect(s2.last().closedWith).toBeNull();
    await s2.fire(10_000);
    expect(s2.last().closedWith).toBe(1000);
    expect(s2.feed.getStatus()).toBe("off");
  });

  it("backs off exponentially with jitter, up to the ceiling, asking for a new ticket each time", async () => {
    const s = setup({ random: 0.5 });
    await connected(s);
    const delays: number[] = [];
    for (let i = 0; i < 7; i++) {
      s.last().drop();
      expect(s.feed.getStatus()).toBe("reconnecting");
      delays.push(s.timers[0]!.ms);
      await s.fire();
    }
    // Three quarters of 1, 2, 4, 8, 16, 30, 30 seconds with random() = 0.5.
    expect(delays).toEqual([750, 1500, 3000, 6000, 12000, 22500, 22500]);
    expect(s.tickets).toHaveLength(8);
    expect(s.sockets).toHaveLength(8);
    // A successful connection starts the backoff over.
    s.last().send({ type: "ready", cursor: "10" });
    s.last().drop();
    expect(s.timers[0]!.ms).toBe(750);
  });

  it("spreads the retries of tabs cut off together", async () => {
    const low = setup({ random: 0 });
    const high = setup({ random: 0.999 });
    await connected(low);
    await connected(high);
    low.last().drop();
    high.last().drop();
    expect(low.timers[0]!.ms).toBe(500);
    expect(high.timers[0]!.ms).toBeCloseTo(999.5, 5);
  });

  it("retries when the ticket request fails, and stops when it is refused as signed out", async () => {
    let answer: () => Promise<{ ticket: string; expiresInSeconds: number; store: boolean }> = async () => {
      throw Object.assign(new Error("500: boom"), { status: 500 });
    };
    const s = setup({ ticket: () => answer() });
    s.feed.setToken(jwt("u1"));
    s.feed.acquire();
    await s.flush();
    expect(s.feed.getStatus()).toBe("reconnecting");
    expect(s.sockets).toHaveLength(0);
    answer = async () => {
      throw Object.assign(new Error("401: no"), { status: 401 });
    };
    await s.fire(750);
    expect(s.feed.getStatus()).toBe("stopped");
    expect(s.timers).toHaveLength(0);
    // A refreshed token of the same user tries again.
    answer = async () => ({ ticket: "t2", expiresInSeconds: 30, store: false });
    s.feed.setToken(jwt("u1").replace(".s", ".s2"));
    await s.flush();
    expect(s.sockets).toHaveLength(1);
  });

  it("resumes after the cursor of the last call it applied", async () => {
    const s = setup();
    await connected(s, "10");
    s.last().send(call(1, "11"));
    s.last().send(call(2, "12"));
    s.last().drop();
    await s.fire();
    expect(s.last().after).toBe("12");
    expect(s.feed.getCursor()).toBe("12");
  });

  it("resumes after the ready cursor when no call came, and not before a newer cursor it applied", async () => {
    const s = setup();
    await connected(s, "40");
    s.last().drop();
    await s.fire();
    expect(s.last().after).toBe("40");
    s.last().send(call(1, "41"));
    s.last().send({ type: "ready", cursor: "41" });
    s.last().drop();
    await s.fire();
    expect(s.last().after).toBe("41");
  });

  it("applies a replayed call it already applied only once", async () => {
    const s = setup();
    await connected(s, "10");
    s.last().send(call(1, "11"));
    s.last().send(call(1, "12"));
    s.last().drop();
    await s.fire();
    // The server replays from an older point than asked: the overlap is skipped, the rest applied.
    s.last().send(call(1, "11"));
    s.last().send(call(1, "12"));
    s.last().send(call(2, "13"));
    s.last().send({ type: "ready", cursor: "13" });
    expect(s.received.filter((m) => m.type === "call").map((m) => (m.type === "call" ? m.cursor : ""))).toEqual(["11", "12", "13"]);
  });

  it("reads the lists again on resync and resumes from the resync's cursor", async () => {
    const s = setup();
    await connected(s, "10");
    const before = s.refetches();
    s.last().drop();
    await s.fire();
    expect(s.refetches()).toBe(before);
    s.last().send({ type: "resync", cursor: "900" });
    expect(s.refetches()).toBe(before + 1);
    s.last().send({ type: "ready", cursor: "900" });
    expect(s.refetches()).toBe(before + 1);
    s.last().drop();
    await s.fire();
    expect(s.last().after).toBe("900");
  });

  it("reads the lists again once when it first goes live without a cursor, not on a resumed connection", async () => {
    const s = setup();
    await connected(s, "10");
    expect(s.refetches()).toBe(1);
    s.last().drop();
    await s.fire();
    s.last().send({ type: "ready", cursor: "10" });
    expect(s.refetches()).toBe(1);
  });

  it("closes the socket after the tab has been hidden for a while, and catches up when it is shown", async () => {
    const s = setup();
    await connected(s, "10");
    s.last().send(call(1, "11"));
    s.feed.setVisible(false);
    expect(s.last().closedWith).toBeNull();
    await s.fire(30_000);
    expect(s.last().closedWith).toBe(1000);
    expect(s.feed.getStatus()).toBe("paused");
    expect(s.timers).toHaveLength(0);
    s.feed.setVisible(true);
    await s.flush();
    expect(s.sockets).toHaveLength(2);
    expect(s.last().after).toBe("11");
  });

  it("keeps the socket when the tab comes back before the delay", async () => {
    const s = setup();
    await connected(s);
    s.feed.setVisible(false);
    s.feed.setVisible(true);
    expect(s.timers).toHaveLength(0);
    expect(s.last().closedWith).toBeNull();
    expect(s.sockets).toHaveLength(1);
  });

  it("does not retry while hidden past the delay; retries once shown", async () => {
    const s = setup();
    await connected(s);
    s.feed.setVisible(false);
    s.last().drop();
    // Pending: the retry and the hide delay.
    expect(s.timers).toHaveLength(2);
    const hide = s.timers.find((t) => t.ms === 30_000)!;
    s.timers.splice(s.timers.indexOf(hide), 1);
    hide.fn();
    expect(s.feed.getStatus()).toBe("paused");
    expect(s.timers).toHaveLength(0);
    s.feed.setVisible(true);
    await s.flush();
    expect(s.sockets).toHaveLength(2);
  });

  it("stops for good when the server revokes the session", async () => {
    const s = setup();
    await connected(s);
    s.last().drop(4401);
    expect(s.feed.getStatus()).toBe("stopped");
    expect(s.timers).toHaveLength(0);
    s.feed.setVisible(false);
    s.feed.setVisible(true);
    s.feed.acquire();
    await s.flush();
    expect(s.sockets).toHaveLength(1);
  });

  it("takes a new ticket at once on renew, and backs off if that one is renewed too", async () => {
    const s = setup();
    await connected(s, "10");
    s.last().drop(4408);
    await s.flush();
    expect(s.sockets).toHaveLength(2);
    expect(s.last().after).toBe("10");
    s.last().drop(4408);
    expect(s.feed.getStatus()).toBe("reconnecting");
    expect(s.timers).toHaveLength(1);
  });

  it("says limited and waits the longest delay when the server refuses one more socket or ticket", async () => {
    const s = setup({ random: 0.5 });
    await connected(s, "10");
    s.last().drop(4429);
    expect(s.feed.getStatus()).toBe("limited");
    // Half fixed, half jitter of the 30 s ceiling, from the first retry on.
    expect(s.timers.map((t) => t.ms)).toEqual([22_500]);
    let answer: () => Promise<{ ticket: string; expiresInSeconds: number; store: boolean }> = async () => {
      throw Object.assign(new Error("429: too many"), { status: 429 });
    };
    const t = setup({ random: 0.5, ticket: () => answer() });
    t.feed.setToken(jwt("u1"));
    t.feed.acquire();
    await t.flush();
    expect(t.feed.getStatus()).toBe("limited");
    expect(t.sockets).toHaveLength(0);
    answer = async () => ({ ticket: "t2", expiresInSeconds: 30, store: false });
    await t.fire(22_500);
    expect(t.sockets).toHaveLength(1);
    t.last().send({ type: "ready", cursor: null });
    expect(t.feed.getStatus()).toBe("live");
  });

  it("takes the resync's cursor even when it is null, so the account's changes numbered afresh are applied", async () => {
    const s = setup();
    await connected(s, "900");
    s.last().drop();
    await s.fire();
    expect(s.last().after).toBe("900");
    // The server's log never reached 900 (its numbering starts again) and holds none of the account's changes.
    s.last().send({ type: "resync", cursor: null });
    s.last().send({ type: "ready", cursor: null });
    expect(s.feed.getCursor()).toBeNull();
    s.last().send(call(1, "1"));
    expect(s.received.filter((m) => m.type === "call")).toHaveLength(1);
    expect(s.feed.getCursor()).toBe("1");
  });

  it("reconnects with a new ticket after a refused one", async () => {
    const s = setup();
    await connected(s);
    s.last().drop(4403);
    await s.fire(750);
    expect(s.sockets).toHaveLength(2);
    expect(s.tickets).toHaveLength(2);
  });

  it("closes on sign-out and forgets the cursor; the next user starts afresh", async () => {
    const s = setup();
    await connected(s, "10");
    s.last().send(call(1, "11"));
    s.feed.setToken(null);
    expect(s.last().closedWith).toBe(1000);
    expect(s.feed.getStatus()).toBe("off");
    expect(s.feed.getCursor()).toBeNull();
    s.feed.setToken(jwt("u2"));
    await s.flush();
    expect(s.sockets).toHaveLength(2);
    expect(s.last().after).toBeNull();
  });

  it("starts afresh when another user's token replaces the session without a sign-out in between", async () => {
    const s = setup();
    await connected(s, "10");
    s.feed.setToken(jwt("u2"));
    await s.flush();
    expect(s.sockets[0]!.closedWith).toBe(1000);
    expect(s.last().after).toBeNull();
  });

  it("ignores a ticket that arrives after the screen went away", async () => {
    let resolve!: (v: { ticket: string; expiresInSeconds: number; store: boolean }) => void;
    const s = setup({ ticket: () => new Promise((r) => (resolve = r)) });
    s.feed.setToken(jwt("u1"));
    const release = s.feed.acquire();
    await s.flush();
    release();
    await s.fire(10_000);
    resolve({ ticket: "t", expiresInSeconds: 30, store: false });
    await s.flush();
    expect(s.sockets).toHaveLength(0);
    expect(s.feed.getStatus()).toBe("off");
  });
});

describe("cursors and tokens", () => {
  it("compares cursors as numbers of any length", () => {
    expect(cursorAfter("10", "9")).toBe(true);
    expect(cursorAfter("9", "10")).toBe(false);
    expect(cursorAfter("12345678901234567890", "12345678901234567889")).toBe(true);
    expect(cursorAfter("5", "5")).toBe(false);
    expect(cursorAfter("1", null)).toBe(true);
  });

  it("reads the user from a token", () => {
    expect(tokenSubject(jwt("abc"))).toBe("abc");
    expect(tokenSubject("opaque")).toBe("opaque");
  });
});
