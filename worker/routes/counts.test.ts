// Count endpoints (docs/product/api.md#dashboard-counts): per endpoint the happy case, bad input naming the field, the flag
// that guards store-network data, and another account's calls staying invisible.
import { APPOINTMENT_CATEGORY_KEYS, STORE_NUMBER_NAMES, STORES } from "@shared/constants";
import { describe, expect, it } from "vitest";
import { insertAgent, insertAircallCalls, insertAppointments, insertCallLogs, insertLeads } from "../test/factories";
import { bruteAircallCounts, bruteAppointmentCounts, bruteCallLogCounts, bruteLeadSummary } from "../test/brute-counts";
import { call, signUpAndSignIn } from "../test/helpers";

const qs = (q: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => e[1] !== undefined)).toString();

async function withFlags(flags: { shopwindows_info?: boolean; call_app?: boolean; is_admin?: boolean } = {}) {
  return signUpAndSignIn({ appMetadata: flags });
}

describe("Call Logs counts", { timeout: 30_000 }, () => {
  it("count the caller's own calls by figure, agent and call type; another account's calls are invisible", async () => {
    const a = await withFlags();
    const b = await withFlags();
    const agentA = await insertAgent(a.userId, {}, { store: "MIAMI", type: "outbound" });
    const agentA2 = await insertAgent(a.userId, {}, { store: "MIAMI", type: "inbound" });
    const agentB = await insertAgent(b.userId, {}, { store: "MIAMI", type: "outbound" });
    const ref = (g: typeof agentA) => ({ id: g.id, vapiAssistantId: g.vapiAssistantId, store: g.store, type: g.type! });
    const rows = [
      ...(await insertCallLogs(a.userId, 40, {}, { agent: ref(agentA), day: "2026-03-03" })),
      ...(await insertCallLogs(a.userId, 30, {}, { agent: ref(agentA2), day: "2026-03-04" })),
    ];
    // Same days, same assistant id even: still b's calls.
    const bRows = await insertCallLogs(b.userId, 25, { assistantId: agentA.vapiAssistantId }, { agent: ref(agentB), day: "2026-03-03" });

    for (const callType of ["Outbound", "Inbound", "Both"] as const) {
      for (const agent of [undefined, agentA.vapiAssistantId!]) {
        const q = { dateFilterType: "range", startDate: "2026-03-01", endDate: "2026-03-05", callType, ...(agent ? { agent } : {}) };
        const want = bruteCallLogCounts(rows, a.userId, { ...q, agent });
        const [total, connected, voicemail, forwarded] = await Promise.all(
          ["/api/call-logs/count", "/api/call-connected-count", "/api/voicemail-count", "/api/forwarded-count"].map((p) =>
            call(`${p}?${qs(q)}`, { token: a.accessToken }),
          ),
        );
        expect(total.status).toBe(200);
        expect(total.body).toEqual({ total: want.total });
        expect(connected.body).toEqual({ count: want.connected });
        expect(voicemail.body).toEqual({ count: want.voicemail });
        expect(forwarded.body).toEqual({ count: want.forwarded });
        expect(total.headers.get("server-timing")).toMatch(/^db;dur=\d+(\.\d+)?/);
      }
    }
    const both = await call(`/api/call-logs/count?${qs({ startDate: "2026-03-01", endDate: "2026-03-05", callType: "Both" })}`, { token: a.accessToken });
    expect(both.body.total).toBeGreaterThan(0);
    const bCount = await call(`/api/call-logs/count?${qs({ startDate: "2026-03-01", endDate: "2026-03-05", callType: "Both", agent: agentA.vapiAssistantId! })}`, { token: b.accessToken });
    expect(bCount.body.total).toBe(bruteCallLogCounts(bRows, b.userId, { startDate: "2026-03-01", endDate: "2026-03-05", callType: "Both" }).total);
    expect(bCount.body.total).toBeGreaterThan(0);
  });

  it("answer 400 naming the parameter, 401 without a session", async () => {
    const a = await withFlags();
    const cases: [Record<string, string>, string][] = [
      [{ startDate: "2026-03-01", endDate: "2026-03-05" }, "callType"],
      [{ startDate: "2026-03-01", endDate: "2026-03-05", callType: "Sideways" }, "callType"],
      [{ startDate: "2026-02-30", endDate: "2026-03-05", callType: "Both" }, "startDate"],
      [{ startDate: "2026-03-05", endDate: "2026-03-01", callType: "Both" }, "endDate"],
      [{ startDate: "2025-01-01", endDate: "2026-03-01", callType: "Both" }, "endDate"],
      [{ dateFilterType: "month", startDate: "2026-03-01", endDate: "2026-03-01", callType: "Both" }, "dateFilterType"],
    ];
    for (const path of ["/api/call-logs/count", "/api/call-connected-count", "/api/voicemail-count", "/api/forwarded-count"]) {
      for (const [q, field] of cases) {
        const res = await call(`${path}?${qs(q)}`, { token: a.accessToken });
        expect(res.status, `${path} ${JSON.stringify(q)}`).toBe(400);
        expect(res.body.field).toBe(field);
        // Refusals carry it too (the sign-in lookup is their only database time).
        expect(res.headers.get("server-timing")).toMatch(/^db;dur=\d+\.\d\d;desc="D1 SQL", db-wait;dur=\d+\.\d\d;desc="D1 round trips"/);
      }
      expect((await call(`${path}?${qs({ startDate: "2026-03-01", endDate: "2026-03-01", callType: "Both" })}`)).status).toBe(401);
    }
  });

  it("say the rows D1 read outside production (production: admins only, worker/middleware/server-timing.test.ts)", async () => {
    const a = await withFlags();
    const q = qs({ startDate: "2026-03-01", endDate: "2026-03-01", callType: "Both" });
    const dev = await call(`/api/call-logs/count?${q}`, { token: a.accessToken, bindings: { APP_ENV: "development" } });
    expect(dev.status).toBe(200);
    expect(dev.headers.get("server-timing")).toMatch(/db;dur=[\d.]+;desc="D1 SQL", db-wait;dur=[\d.]+;desc="D1 round trips", db-rows;desc="\d+", db-queries;desc="\d+", db-unmetered;desc="\d+"/);
  });

  it("leave GET /api/call-logs (the list) as it was", async () => {
    const a = await withFlags();
    const res = await call("/api/call-logs", { token: a.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.logs).toEqual([]);
  });
});

describe("Aircall counts", { timeout: 30_000 }, () => {
  const day = "2026-04-07";
  it("count calls by direction, answered outbound calls and store transfers, with user and line filters", async () => {
    const staff = await withFlags({ call_app: true });
    const rows = await insertAircallCalls(120, {}, { day });
    const someUser = rows.find((r) => r.userName)!.userName!;
    for (const filter of [{}, { userName: someUser }, { numberName: "Naples." }, { userName: someUser, numberName: "Miami" }]) {
      const q = { dateFilterType: "range", startDate: day, endDate: day, ...filter };
      const want = bruteAircallCounts(rows, q);
      const get = (p: string, extra: Record<string, string> = {}) => call(`/api/aircall/${p}?${qs({ ...q, ...extra })}`, { token: staff.accessToken });
      expect((await get("call-count", { direction: "inbound" })).body).toEqual({ count: want.inbound });
      expect((await get("call-count", { direction: "outbound" })).body).toEqual({ count: want.outbound });
      expect((await get("outbound-answered-count")).body).toEqual({ count: want.outboundAnswered });
      const transfers = await get("store-transfer-solutions-count");
      expect(transfers.body).toEqual({ count: want.storeTransfers });
      expect(transfers.headers.get("server-timing")).toMatch(/^db;dur=/);
    }
    const options = await call("/api/aircall/options", { token: staff.accessToken });
    expect(options.status).toBe(200);
    expect(options.body.users).toEqual([...new Set(rows.map((r) => r.userName).filter(Boolean))].sort());
    expect(options.body.numbers).toEqual([...new Set(rows.map((r) => r.numberName))].sort());
  });

  it("apply a chosen store as its Aircall line (docs/product/README.md#records), alone or with the other filters", async () => {
    const staff = await withFlags({ call_app: true });
    const storeDay = "2026-04-09";
    const rows = await insertAircallCalls(150, {}, { day: storeDay });
    const someUser = rows.find((r) => r.userName)!.userName!;
    for (const [store, line] of Object.entries(STORE_NUMBER_NAMES)) {
      for (const extra of [{}, { userName: someUser }]) {
        const q = { startDate: storeDay, endDate: storeDay, ...extra };
        const want = bruteAircallCounts(rows, { ...q, numberName: line });
        // The query names the store as the dashboard sends it, in any case.
        const get = (p: string, more: Record<string, string> = {}) =>
          call(`/api/aircall/${p}?${qs({ ...q, store: store.toLowerCase(), ...more })}`, { token: staff.accessToken });
        expect((await get("call-count", { direction: "inbound" })).body).toEqual({ count: want.inbound });
        expect((await get("call-count", { direction: "outbound" })).body).toEqual({ count: want.outbound });
        expect((await get("outbound-answered-count")).body).toEqual({ count: want.outboundAnswered });
        expect((await get("store-transfer-solutions-count")).body).toEqual({ count: want.storeTransfers });
      }
    }
    // The store's figures are a part of the whole, not the whole.
    const all = bruteAircallCounts(rows, { startDate: storeDay, endDate: storeDay });
    const naples = await call(`/api/aircall/call-count?${qs({ startDate: storeDay, endDate: storeDay, direction: "inbound", store: "NAPLES" })}`, { token: staff.accessToken });
    expect(naples.body.count).toBeLessThan(all.inbound);
    const bad = await call(`/api/aircall/outbound-answered-count?${qs({ startDate: storeDay, endDate: storeDay, store: "ATLANTIS" })}`, { token: staff.accessToken });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("store");
  });

  it("count a store's calls on every spelling of its line, named by code or by name", async () => {
    const staff = await withFlags({ call_app: true });
    const storeDay = "2026-04-11";
    // Aircall line names are typed by hand: the same store's line without its dot, in another case.
    const rows = [
      ...(await insertAircallCalls(20, {}, { day: storeDay, store: "NAPLES" })),
      ...(await insertAircallCalls(15, { numberName: "Naples", store: "NAPLES" }, { day: storeDay })),
      ...(await insertAircallCalls(10, { numberName: "NAPLES. ", store: "NAPLES" }, { day: storeDay })),
      ...(await insertAircallCalls(12, {}, { day: storeDay, store: "MIAMI" })),
    ];
    const naples = rows.filter((r) => r.store === "NAPLES");
    const want = bruteAircallCounts(naples, { startDate: storeDay, endDate: storeDay });
    for (const store of ["NAPLES", "Naples", "naples."]) {
      const get = (p: string, more: Record<string, string> = {}) =>
        call(`/api/aircall/${p}?${qs({ startDate: storeDay, endDate: storeDay, store, ...more })}`, { token: staff.accessToken });
      expect((await get("call-count", { direction: "inbound" })).body, store).toEqual({ count: want.inbound });
      expect((await get("call-count", { direction: "outbound" })).body, store).toEqual({ count: want.outbound });
      expect((await get("outbound-answered-count")).body, store).toEqual({ count: want.outboundAnswered });
      expect((await get("store-transfer-solutions-count")).body, store).toEqual({ count: want.storeTransfers });
    }
    const okc = await call(`/api/aircall/call-count?${qs({ startDate: storeDay, endDate: storeDay, direction: "inbound", store: "Oklahoma City" })}`, { token: staff.accessToken });
    expect(okc.status).toBe(200);
    expect(okc.body).toEqual({ count: 0 });
  });

  it("need call_app (admins pass), and name the bad parameter", async () => {
    const plain = await withFlags({ shopwindows_info: true });
    const admin = await withFlags({ is_admin: true });
    const q = qs({ startDate: day, endDate: day });
    for (const p of ["call-count?direction=inbound&", "outbound-answered-count?", "store-transfer-solutions-count?", "options?"]) {
      const denied = await call(`/api/aircall/${p}${q}`, { token: plain.accessToken });
      expect(denied.status).toBe(403);
      expect(denied.headers.get("server-timing")).toMatch(/^db;dur=\d+\.\d\d;desc="D1 SQL", db-wait;dur=\d+\.\d\d;desc="D1 round trips"/);
      expect(denied.body.code).toBe("forbidden");
      expect((await call(`/api/aircall/${p}${q}`, { token: admin.accessToken })).status).toBe(200);
    }
    const staff = await withFlags({ call_app: true });
    const noDirection = await call(`/api/aircall/call-count?${q}`, { token: staff.accessToken });
    expect(noDirection.status).toBe(400);
    expect(noDirection.body.field).toBe("direction");
    const badDate = await call(`/api/aircall/outbound-answered-count?${qs({ startDate: day, endDate: "tomorrow" })}`, { token: staff.accessToken });
    expect(badDate.status).toBe(400);
    expect(badDate.body.field).toBe("endDate");
  });
});

describe("Appointment counts", { timeout: 30_000 }, () => {
  const day = "2026-05-12";
  it("count by begin and booked day with the 14 categories always present, and list the options", async () => {
    const staff = await withFlags({ shopwindows_info: true });
    const rows = [
      ...(await insertAppointments(150, {}, { window: { fromMs: Date.parse("2026-05-08T00:00:00Z"), toMs: Date.parse("2026-05-20T00:00:00Z") }, nowMs: Date.parse("2026-05-13T12:00:00Z") })),
    ];
    const some = rows[0];
    for (const filter of [{}, { store: "miami" }, { bookedBy: some.bookedBy! }, { appointmentType: "Virtual Consultation", store: some.store }]) {
      const q = { dateFilterType: "range", startDate: day, endDate: "2026-05-13", ...filter };
      const want = bruteAppointmentCounts(rows, { ...q, store: q.store?.toUpperCase() } as never);
      const get = (p: string) => call(`/api/${p}?${qs(q)}`, { token: staff.accessToken });
      expect((await get("appointment-count")).body).toEqual({ count: want.count });
      expect((await get("appointment-status-count")).body).toEqual({ counts: want.status });
      const categories = await get("appointment-category-count");
      expect(Object.keys(categories.body.counts)).toEqual([...APPOINTMENT_CATEGORY_KEYS]);
      expect(categories.body.counts).toEqual(want.categories);
    }
    const empty = await call(`/api/appointment-category-count?${qs({ startDate: "2020-01-01", endDate: "2020-01-02" })}`, { token: staff.accessToken });
    expect(Object.values(empty.body.counts)).toEqual(APPOINTMENT_CATEGORY_KEYS.map(() => 0));
    const options = await call("/api/appointment-options", { token: staff.accessToken });
    expect(options.body).toEqual({
      stores: [...STORES],
      bookedBy: [...new Set(rows.map((r) => r.bookedBy).filter(Boolean))].sort(),
      types: [...new Set(rows.map((r) => r.appointmentType))].sort(),
    });
  });

  it("need shopwindows_info, and name the bad parameter", async () => {
    const callCentre = await withFlags({ call_app: true });
    const q = qs({ startDate: day, endDate: day });
    for (const p of ["appointment-count?", "appointment-status-count?", "appointment-category-count?", "appointment-options?"]) {
      const denied = await call(`/api/${p}${q}`, { token: callCentre.accessToken });
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe("forbidden");
    }
    const staff = await withFlags({ shopwindows_info: true });
    for (const p of ["appointment-count", "appointment-status-count", "appointment-category-count"]) {
      const res = await call(`/api/${p}?${q}&store=ATLANTIS`, { token: staff.accessToken });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe("store");
    }
  });
});

describe("Lead summary", { timeout: 30_000 }, () => {
  const day = "2026-06-02";
  it("counts submissions in total and per store, leads without a store under 'no store'", async () => {
    const staff = await withFlags({ shopwindows_info: true });
    const rows = await insertLeads(80, {}, { day });
    for (const filter of [{}, { store: "tulsa" }]) {
      const q = { dateFilterType: "range", startDate: day, endDate: day, ...filter };
      const res = await call(`/api/lead-counts/summary?${qs(q)}`, { token: staff.accessToken });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(bruteLeadSummary(rows, { ...q, store: q.store?.toUpperCase() } as never));
    }
  });

  it("needs shopwindows_info, and names the bad parameter", async () => {
    const callCentre = await withFlags({ call_app: true });
    const q = qs({ startDate: day, endDate: day });
    expect((await call(`/api/lead-counts/summary?${q}`, { token: callCentre.accessToken })).status).toBe(403);
    const staff = await withFlags({ shopwindows_info: true });
    const res = await call(`/api/lead-counts/summary?startDate=${day}`, { token: staff.accessToken });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe("endDate");
  });
});
