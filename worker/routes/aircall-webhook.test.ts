// POST /api/webhooks/aircall: the token in the body checked first, each event applied once, one row
// per call whatever the order of its events, the call's day marked for the roll-ups.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { aircallCalls, rollupDirtyDays, webhookEvents } from "../db/schema";
import { AIRCALL_WEBHOOK_PATH, DEV_AIRCALL_WEBHOOK_TOKEN, FUTURE_TOLERANCE_SECONDS } from "../providers/callcentre/aircall-events";
import { aircallCall, type AircallJson } from "../test/aircall";
import { call, db } from "../test/helpers";
import { PRODUCTION_BINDINGS } from "../test/production";

// 2026-03-02 09:00 New York (EST): a Monday morning at the call centre.
const T0 = Date.UTC(2026, 2, 2, 14, 0, 0) / 1000;
const iso = (s: number) => new Date(s * 1000).toISOString();
let nextId = 3_000_000_000;
const newId = () => ++nextId;

function delivery(event: string, timestamp: number, data: unknown, over: AircallJson = {}) {
  return { resource: "call", event, timestamp, token: DEV_AIRCALL_WEBHOOK_TOKEN, data, ...over };
}

/** The deliveries Aircall sends for one answered inbound call: created, answered, ended. */
function answeredCall(id: number, over: AircallJson = {}) {
  const live = { answered_at: null, ended_at: null, duration: 0, user: null };
  return {
    created: delivery("call.created", T0, aircallCall(id, T0, { status: "initial", ...live, ...over })),
    answered: delivery("call.answered", T0 + 10, aircallCall(id, T0, { status: "answered", ended_at: null, duration: 10, ...over })),
    ended: delivery("call.ended", T0 + 220, aircallCall(id, T0, over)),
  };
}

function post(body: unknown, bindings?: Record<string, unknown>) {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  return call(AIRCALL_WEBHOOK_PATH, { method: "POST", body: raw, headers: { "content-type": "application/json" }, bindings });
}

const row = (id: number) => db().query.aircallCalls.findFirst({ where: eq(aircallCalls.aircallId, String(id)) });
const rowsOf = async (id: number) => (await db().select({ n: sql<number>`count(*)` }).from(aircallCalls).where(eq(aircallCalls.aircallId, String(id))))[0].n;
const eventsOf = (id: number) => db().select().from(webhookEvents).where(sql`${webhookEvents.id} like ${`aircall:%:${id}:%`}`);
const countAll = async () => ({
  calls: (await db().select({ n: sql<number>`count(*)` }).from(aircallCalls))[0].n,
  events: (await db().select({ n: sql<number>`count(*)` }).from(webhookEvents))[0].n,
  dirty: (await db().select({ n: sql<number>`count(*)` }).from(rollupDirtyDays))[0].n,
});

describe("POST /api/webhooks/aircall: effects", () => {
  it("turns created → answered → ended into one row with the call's fields, its store and its day marked", async () => {
    const id = newId();
    const events = answeredCall(id);
    for (const e of [events.created, events.answered, events.ended]) {
      const res = await post(e);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, duplicate: false });
    }
    expect(await rowsOf(id)).toBe(1);
    expect(await row(id)).toMatchObject({
      aircallId: String(id),
      direction: "inbound",
      status: "done",
      answered: true,
      userName: "Dana Reyes",
      numberName: "Miami",
      store: "MIAMI",
      transferredToStore: false,
      transferredTo: null,
      startedAt: "2026-03-02T14:00:00.000Z",
      answeredAt: "2026-03-02T14:00:10.000Z",
      endedAt: "2026-03-02T14:03:10.000Z",
      duration: 190,
      lastEventAt: iso(T0 + 220),
    });
    expect((await eventsOf(id)).map((e) => [e.id, e.provider, e.eventType]).sort()).toEqual(
      [
        [`aircall:call.answered:${id}:${T0 + 10}`, "aircall", "call.answered"],
        [`aircall:call.created:${id}:${T0}`, "aircall", "call.created"],
        [`aircall:call.ended:${id}:${T0 + 220}`, "aircall", "call.ended"],
      ],
    );
    const dirty = await db().select({ source: rollupDirtyDays.source, day: rollupDirtyDays.day }).from(rollupDirtyDays).where(eq(rollupDirtyDays.day, "2026-03-02"));
    expect(dirty).toEqual([{ source: "aircall", day: "2026-03-02" }]);
  });

  it("maps every store line of docs/product/README.md#records, trailing dots included, and leaves other lines without a store", async () => {
    const lines: [string, string | null][] = [
      ["Iowa city", "IOWA"], ["Largo.", "LARGO"], ["Miami", "MIAMI"], ["Naples.", "NAPLES"], ["Pembroke Pines", "PEMBROKE"],
      ["Tulsa", "TULSA"], ["Tyler.", "TYLER"], ["Woodlands.", "WOODLANDS"], ["Oklahoma City", "OKC"], ["Head office", null],
    ];
    for (const [name, store] of lines) {
      const id = newId();
      expect((await post(answeredCall(id, { number: { id: 1, name, digits: "+1 555-0100" } }).ended)).status).toBe(200);
      expect(await row(id)).toMatchObject({ numberName: name, store });
    }
  });

  it("applies a replayed delivery once", async () => {
    const id = newId();
    const { ended } = answeredCall(id);
    expect((await post(ended)).body).toEqual({ received: true, duplicate: false });
    const before = await countAll();
    const again = await post(ended);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, duplicate: true });
    expect(await countAll()).toEqual(before);
    expect(await eventsOf(id)).toHaveLength(1);
  });

  it("keeps a replayed older event from changing a call that moved on", async () => {
    const id = newId();
    const events = answeredCall(id);
    await post(events.answered);
    await post(events.ended);
    // The same 'answered' delivery again: already recorded, so not even its gap-filling runs.
    expect((await post(events.answered)).body).toEqual({ received: true, duplicate: true });
    expect(await row(id)).toMatchObject({ status: "done", endedAt: "2026-03-02T14:03:10.000Z" });
  });

  it("counts a transferred call once, as transferred to the store whose line took it", async () => {
    const id = newId();
    const transferredTo = { id: 90, name: "Naples." };
    const events = answeredCall(id, { number: { id: 7, name: "Naples.", digits: "+1 239-555-0100" } });
    await post(events.created);
    await post(events.answered);
    await post(delivery("call.transferred", T0 + 60, aircallCall(id, T0, {
      status: "answered", ended_at: null, duration: 60, number: { id: 7, name: "Naples.", digits: "+1 239-555-0100" },
      transferred_by: { id: 11, name: "Dana Reyes" }, transferred_to: transferredTo,
    })));
    await post(delivery("call.ended", T0 + 400, aircallCall(id, T0, {
      ended_at: T0 + 380, duration: 380, number: { id: 7, name: "Naples.", digits: "+1 239-555-0100" }, transferred_to: transferredTo,
    })));
    expect(await rowsOf(id)).toBe(1);
    expect(await row(id)).toMatchObject({ status: "done", store: "NAPLES", transferredTo: "Naples.", transferredToStore: true, duration: 380 });
  });

  it("keeps a store transfer even when the ended event no longer names the transfer", async () => {
    const id = newId();
    await post(delivery("call.transferred", T0 + 60, aircallCall(id, T0, { status: "answered", ended_at: null, transferred_to: { id: 3, name: "miami" } })));
    await post(delivery("call.ended", T0 + 300, aircallCall(id, T0, { transferred_to: null })));
    expect(await row(id)).toMatchObject({ status: "done", transferredToStore: true, transferredTo: "miami" });
  });

  it("does not count a transfer to a colleague as a store transfer", async () => {
    const id = newId();
    await post(delivery("call.transferred", T0 + 60, aircallCall(id, T0, { status: "answered", ended_at: null, transferred_to: { id: 12, name: "Sam Ortiz" } })));
    expect(await row(id)).toMatchObject({ transferredTo: "Sam Ortiz", transferredToStore: false });
  });

  it("ends in the same row when ended arrives before answered and created: an ended call stays ended", async () => {
    const id = newId();
    const events = answeredCall(id);
    for (const e of [events.ended, events.answered, events.created]) expect((await post(e)).status).toBe(200);
    expect(await rowsOf(id)).toBe(1);
    expect(await row(id)).toMatchObject({
      status: "done",
      answered: true,
      userName: "Dana Reyes",
      answeredAt: "2026-03-02T14:00:10.000Z",
      endedAt: "2026-03-02T14:03:10.000Z",
      duration: 190,
      lastEventAt: iso(T0 + 220),
    });
  });

  it("lets an older event fill what the newer one lacked, without overwriting what it had", async () => {
    const id = newId();
    // The ended event (newer) has lost its user; the answered event (older, late) still names one.
    await post(delivery("call.ended", T0 + 220, aircallCall(id, T0, { user: null })));
    await post(delivery("call.answered", T0 + 10, aircallCall(id, T0, { status: "answered", ended_at: null, user: { id: 4, name: "Lee Park" }, number: { id: 1, name: "Tulsa", digits: "" } })));
    expect(await row(id)).toMatchObject({ status: "done", userName: "Lee Park", numberName: "Miami", store: "MIAMI" });
  });

  it("stores a missed call without a user, and a voicemail with a null user", async () => {
    const missed = newId();
    const { user: _user, ...noUser } = aircallCall(missed, T0, { answered_at: null, duration: 12, ended_at: T0 + 12, missed_call_reason: "short_abandoned" });
    expect((await post(delivery("call.ended", T0 + 40, noUser))).status).toBe(200);
    expect(await row(missed)).toMatchObject({ userName: null, answered: false, answeredAt: null, status: "done", store: "MIAMI" });

    const voicemail = newId();
    const data = aircallCall(voicemail, T0, { answered_at: null, user: null, ended_at: T0 + 40, duration: 40, missed_call_reason: "agents_did_not_answer" });
    await post(delivery("call.voicemail_left", T0 + 41, data));
    await post(delivery("call.ended", T0 + 70, data));
    expect(await row(voicemail)).toMatchObject({ userName: null, answered: false, status: "done" });
  });

  it("marks the New York day of the call's start, not the UTC day", async () => {
    const id = newId();
    // 2026-03-03 03:30 UTC is still the evening of March 2 in New York.
    const lateStart = Date.UTC(2026, 2, 3, 3, 30) / 1000;
    await post(delivery("call.ended", lateStart + 200, aircallCall(id, lateStart)));
    expect(await row(id)).toMatchObject({ startedAt: "2026-03-03T03:30:00.000Z" });
    const days = await db().select({ source: rollupDirtyDays.source, day: rollupDirtyDays.day }).from(rollupDirtyDays);
    expect(days).toContainEqual({ source: "aircall", day: "2026-03-02" });
    expect(days).not.toContainEqual({ source: "aircall", day: "2026-03-03" });
  });

  it("acknowledges event types and resources it does not use, writing nothing", async () => {
    const before = await countAll();
    for (const body of [
      delivery("call.tagged", T0, aircallCall(newId(), T0)),
      delivery("call.comm_assets_generated", T0, aircallCall(newId(), T0)),
      { resource: "user", event: "user.opened", timestamp: T0, token: DEV_AIRCALL_WEBHOOK_TOKEN, data: { id: 1 } },
    ]) {
      const res = await post(body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, ignored: true });
    }
    expect(await countAll()).toEqual(before);
  });
});

describe("POST /api/webhooks/aircall: authenticity and bad input", () => {
  it("refuses a forged or missing token with 401 and writes nothing", async () => {
    const before = await countAll();
    const id = newId();
    const { ended } = answeredCall(id);
    for (const body of [{ ...ended, token: "guessed-token" }, { ...ended, token: undefined }, { ...ended, token: 12345 }, { ...ended, token: "" }]) {
      const res = await post(body);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: "unauthorized", error: "Invalid webhook token" });
      expect(typeof res.body.requestId).toBe("string");
    }
    expect(await row(id)).toBeUndefined();
    expect(await countAll()).toEqual(before);
  });

  it("uses AIRCALL_WEBHOOK_TOKEN when set: the development token is then forged", async () => {
    const id = newId();
    const { ended } = answeredCall(id);
    const bindings = { AIRCALL_WEBHOOK_TOKEN: "configured-token-1" };
    expect((await post(ended, bindings)).status).toBe(401);
    expect((await post({ ...ended, token: "configured-token-1" }, bindings)).status).toBe(200);
    expect(await rowsOf(id)).toBe(1);
  });

  it("refuses every delivery in production without a configured token", async () => {
    const res = await post(answeredCall(newId()).ended, PRODUCTION_BINDINGS);
    expect(res.status).toBe(401);
  });

  it("checks the token before the payload: a forged delivery with a broken payload is 401", async () => {
    const res = await post({ resource: "call", event: "call.ended", token: "guessed", data: { id: "not-a-number" } });
    expect(res.status).toBe(401);
  });

  it("answers malformed JSON with 400, not 500", async () => {
    for (const raw of ["{not json", "", "[1,2"]) {
      const res = await post(raw);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "validation_error", field: "body" });
    }
    // JSON that is not an object has no token.
    expect((await post("[1,2]")).status).toBe(401);
  });

  it("answers an authentic but invalid payload with 400 naming the field, writing nothing", async () => {
    const before = await countAll();
    const id = newId();
    const cases: [AircallJson, string][] = [
      [delivery("call.ended", T0, aircallCall(id, T0, { direction: "sideways" })), "data.direction"],
      [delivery("call.ended", T0, aircallCall(id, T0, { id: -4 })), "data.id"],
      [delivery("call.ended", T0, aircallCall(id, T0, { started_at: "yesterday" })), "data.started_at"],
      [delivery("call.ended", T0, "nothing"), "data"],
      [{ ...delivery("call.ended", T0, aircallCall(id, T0)), timestamp: "soon" }, "timestamp"],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "validation_error", field });
    }
    expect(await countAll()).toEqual(before);
  });

  it("refuses an event stamped in the future, which would freeze the call's row", async () => {
    const id = newId();
    const future = Math.floor(Date.now() / 1000) + FUTURE_TOLERANCE_SECONDS + 60;
    const res = await post(delivery("call.ended", future, aircallCall(id, T0)));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: "timestamp" });
    expect(await row(id)).toBeUndefined();
  });

  it("accepts an event of any age: a late delivery still lands, and marks its old day", async () => {
    const id = newId();
    const old = Date.UTC(2025, 5, 10, 15, 0) / 1000;
    expect((await post(delivery("call.ended", old + 200, aircallCall(id, old)))).status).toBe(200);
    expect(await db().select({ source: rollupDirtyDays.source, day: rollupDirtyDays.day }).from(rollupDirtyDays).where(eq(rollupDirtyDays.day, "2025-06-10"))).toHaveLength(1);
  });
});
