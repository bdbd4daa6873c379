// The dashboard's chart and funnel data (beyond spec 1): daily call volume of the caller's own calls
// and the per-store funnel with cost, from the roll-ups and live days alike; 400 naming the field,
// 401 / 403 by flag, another account's calls invisible.
import { STORES } from "@shared/constants";
import { nyDayOf } from "@shared/ny-time";
import { callOutcome } from "@shared/call-outcomes";
import { describe, expect, it } from "vitest";
import { runRollups } from "../jobs/rollups";
import { insertAgent, insertAppointments, insertCallLogs } from "../test/factories";
import { bruteAppointmentCounts } from "../test/brute-counts";
import { call, db, signUpAndSignIn, testShards } from "../test/helpers";

const qs = (q: Record<string, string>) => new URLSearchParams(q).toString();
const START = "2026-05-04";
const END = "2026-05-10";
const w = { fromMs: Date.parse("2026-05-04T12:00:00Z"), toMs: Date.parse("2026-05-11T02:00:00Z") };

async function seeded() {
  const a = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
  const b = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
  const ref = (g: Awaited<ReturnType<typeof insertAgent>>) => ({ id: g.id, vapiAssistantId: g.vapiAssistantId, store: g.store, type: g.type! });
  const miami = await insertAgent(a.userId, {}, { store: "MIAMI", type: "outbound" });
  const tulsa = await insertAgent(a.userId, {}, { store: "TULSA", type: "inbound" });
  const other = await insertAgent(b.userId, {}, { store: "MIAMI", type: "outbound" });
  const calls = [
    ...(await insertCallLogs(a.userId, 80, { direction: "outbound" }, { agent: ref(miami), window: w })),
    ...(await insertCallLogs(a.userId, 50, { direction: "inbound" }, { agent: ref(tulsa), window: w })),
  ];
  await insertCallLogs(b.userId, 40, {}, { agent: ref(other), window: w });
  const appointments = await insertAppointments(120, {}, { window: w, nowMs: Date.parse("2026-05-20T00:00:00Z") });
  // Half the range rolled up, the rest live.
  await runRollups({ db: db(), now: new Date("2026-05-10T12:00:00Z"), shards: testShards() }, { backfillFrom: "2026-05-01" });
  return { a, b, calls, appointments, miami };
}

describe("GET /api/call-volume and /api/store-funnel", { timeout: 60_000 }, () => {
  it("answer the caller's daily volume by direction, and each store's calls, cost and appointments", async () => {
    const { a, calls, appointments, miami } = await seeded();
    const res = await call(`/api/call-volume?${qs({ startDate: START, endDate: END, callType: "Both" })}`, { token: a.accessToken });
    expect(res.status).toBe(200);
    expect(res.headers.get("server-timing")).toMatch(/^db;dur=/);
    expect(res.body.days.map((d: { date: string }) => d.date)).toEqual(["2026-05-04", "2026-05-05", "2026-05-06", "2026-05-07", "2026-05-08", "2026-05-09", "2026-05-10"]);
    for (const d of res.body.days) {
      for (const direction of ["inbound", "outbound"] as const) {
        const mine = calls.filter((c) => nyDayOf(c.startTime) === d.date && c.direction === direction);
        expect(d[direction].total, `${d.date} ${direction}`).toBe(mine.length);
        expect(d[direction].connected).toBe(mine.filter((c) => callOutcome(c.endedReason) === "connected").length);
        expect(d[direction].voicemail).toBe(mine.filter((c) => callOutcome(c.endedReason) === "voicemail").length);
        expect(d[direction].cost).toBeCloseTo(mine.reduce((n, c) => n + (c.cost ?? 0), 0), 4);
      }
    }
    const inRange = calls.filter((c) => nyDayOf(c.startTime) >= START && nyDayOf(c.startTime) <= END);
    expect(res.body.totals.calls).toBe(inRange.length);
    expect(res.body.totals.cost).toBeCloseTo(inRange.reduce((n, c) => n + (c.cost ?? 0), 0), 4);
    expect(res.body.totals.costPerCall).toBeCloseTo(res.body.totals.cost / res.body.totals.calls, 6);
    const outboundOnly = await call(`/api/call-volume?${qs({ startDate: START, endDate: END, callType: "Outbound" })}`, { token: a.accessToken });
    expect(outboundOnly.body.days.every((d: { inbound: { total: number } }) => d.inbound.total === 0)).toBe(true);
    // One agent: its calls only, from the per-assistant roll-up (the others from the per-account one).
    const oneAgent = await call(`/api/call-volume?${qs({ startDate: START, endDate: END, callType: "Both", agent: miami.vapiAssistantId! })}`, { token: a.accessToken });
    expect(oneAgent.status).toBe(200);
    for (const d of oneAgent.body.days) {
      const mine = inRange.filter((c) => nyDayOf(c.startTime) === d.date && c.assistantId === miami.vapiAssistantId);
      expect(d.outbound.total + d.inbound.total, d.date).toBe(mine.length);
    }
    expect(oneAgent.body.totals.calls).toBe(inRange.filter((c) => c.assistantId === miami.vapiAssistantId).length);
    expect(oneAgent.body.totals.calls).toBeLessThan(res.body.totals.calls);

    const funnel = await call(`/api/store-funnel?${qs({ startDate: START, endDate: END })}`, { token: a.accessToken });
    expect(funnel.status).toBe(200);
    expect(funnel.body.stores.map((s: { store: string }) => s.store)).toEqual([...STORES]);
    const row = (store: string) => funnel.body.stores.find((s: { store: string }) => s.store === store);
    const storeCalls = (store: string) => inRange.filter((c) => c.store === store);
    expect(row("MIAMI").aiCalls).toBe(storeCalls("MIAMI").length);
    expect(row("TULSA").aiCalls).toBe(storeCalls("TULSA").length);
    expect(row("MIAMI").cost).toBeCloseTo(storeCalls("MIAMI").reduce((n, c) => n + (c.cost ?? 0), 0), 4);
    expect(row("IOWA").aiCalls).toBe(0);
    expect(row("IOWA").costPerCall).toBeNull();
    for (const store of STORES) {
      const brute = bruteAppointmentCounts(appointments, { startDate: START, endDate: END, store });
      expect(row(store).inboundBooked, store).toBe(brute.categories["Inbound Booked"]);
      expect(row(store).outboundBooked).toBe(brute.categories["Outbound Booked"]);
      expect(row(store).visited).toBe(brute.categories["Reservations visit"]);
      expect(row(store).sold).toBe(brute.categories["Reservations took (sold)"]);
    }
    expect(funnel.body.unassigned).toEqual({ aiCalls: 0, cost: 0 });
  });

  it("answer 400 naming the field, 401 without a session, 403 for the funnel without shopwindows_info", async () => {
    const plain = await signUpAndSignIn();
    const bad = await call(`/api/call-volume?${qs({ startDate: START, endDate: END, callType: "Sideways" })}`, { token: plain.accessToken });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("callType");
    expect((await call(`/api/call-volume?${qs({ startDate: START, endDate: END, callType: "Both" })}`)).status).toBe(401);
    const denied = await call(`/api/store-funnel?${qs({ startDate: START, endDate: END })}`, { token: plain.accessToken });
    expect(denied.status).toBe(403);
    const staff = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    const badRange = await call(`/api/store-funnel?${qs({ startDate: END, endDate: START })}`, { token: staff.accessToken });
    expect(badRange.status).toBe(400);
    expect(badRange.body.field).toBe("endDate");
    // Another account's volume is its own: a fresh account sees none of the seeded calls.
    const empty = await call(`/api/call-volume?${qs({ startDate: START, endDate: END, callType: "Both" })}`, { token: plain.accessToken });
    expect(empty.body.totals).toEqual({ calls: 0, cost: 0, costPerCall: null });
  });
});
