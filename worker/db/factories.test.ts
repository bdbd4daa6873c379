import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { STORE_NUMBER_NAMES, STORES, type Store } from "../../shared/constants";
import { formatTimestamp } from "../../shared/format";
import { nyDayOf } from "../../shared/ny-time";
import { hashPassword } from "../lib/crypto";
import { call, db, shardOf } from "../test/helpers";
import {
  insertAgent,
  insertAircallCalls,
  insertAppointments,
  insertCallLogs,
  insertLeads,
  insertPhoneNumber,
  insertProfile,
  insertRows,
  nyBusinessHours,
} from "../test/factories";
import { rowsPerStatement } from "./client";
import { ENDED_REASONS, Rng, makeAgent, makeCallLog, mulberry32 } from "./factories";
import {
  agents,
  aircallCalls,
  appointments,
  authUsers,
  callLogs,
  leads,
  phoneNumbers,
  profiles,
  simAssistants,
} from "./schema";
import { DEMO_EMAILS, DEMO_PASSWORD, SEED_RATIOS, allocate, buildSeed } from "./seed-data";

const NOW = new Date("2026-03-10T20:00:00.000Z"); // 16:00 EDT, two days after spring-forward
const opts = { seed: 42, days: 10, calls: 400, now: NOW };

function all<T>(chunks: Iterable<T[]>): T[] {
  const out: T[] = [];
  for (const c of chunks) out.push(...c);
  return out;
}

function materialise(seed: ReturnType<typeof buildSeed>, chunk = 1000) {
  return {
    profiles: seed.profiles,
    authUsers: seed.authUsers("hash"),
    phoneNumbers: seed.phoneNumbers,
    agents: seed.agents,
    simAssistants: seed.simAssistants,
    callLogs: all(seed.callLogChunks(chunk)),
    aircallCalls: all(seed.aircallCallChunks(chunk)),
    appointments: all(seed.appointmentChunks(chunk)),
    leads: all(seed.leadChunks(chunk)),
  };
}

/** New York wall-clock hour of an ISO instant. */
const nyHour = (iso: string) => Number(formatTimestamp(iso).slice(11, 13));

describe("PRNG", () => {
  it("repeats its sequence for the same seed and differs for another", () => {
    const a = mulberry32(1);
    const b = mulberry32(1);
    const c = mulberry32(2);
    const sa = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(sa);
    expect(Array.from({ length: 5 }, c)).not.toEqual(sa);
    for (const x of sa) expect(x >= 0 && x < 1).toBe(true);
  });
  it("draws version-4-shaped UUIDs", () => {
    const rng = new Rng(9);
    const ids = Array.from({ length: 200 }, () => rng.uuid());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("allocate", () => {
  it("splits a total exactly by weight", () => {
    expect(allocate(10, [1, 1, 0, 2])).toEqual([3, 2, 0, 5]);
    expect(allocate(7, [1, 1, 1]).reduce((a, b) => a + b)).toBe(7);
    expect(allocate(5, [0, 0])).toEqual([0, 0]);
  });
});

describe("buildSeed determinism", () => {
  it("gives the same rows for the same seed, whatever the chunk size", () => {
    const first = materialise(buildSeed(opts), 1000);
    const second = materialise(buildSeed(opts), 7);
    expect(second).toEqual(first);
    expect(first.callLogs).toHaveLength(400);
  });

  it("gives different rows for another seed", () => {
    const a = materialise(buildSeed(opts));
    const b = materialise(buildSeed({ ...opts, seed: 43 }));
    expect(b.callLogs.map((r) => r.callId)).not.toEqual(a.callLogs.map((r) => r.callId));
    expect(b.profiles.map((p) => p.id)).not.toEqual(a.profiles.map((p) => p.id));
  });

  it("keeps single-row factories deterministic too", () => {
    const agent = { id: 1, vapiAssistantId: "asst", store: "MIAMI", type: "inbound" } as const;
    const window = nyBusinessHours("2026-03-09");
    const one = makeCallLog(new Rng(5), { userId: "u", agent, window });
    expect(makeCallLog(new Rng(5), { userId: "u", agent, window })).toEqual(one);
    expect(makeCallLog(new Rng(6), { userId: "u", agent, window })).not.toEqual(one);
  });
});

describe("buildSeed contents", () => {
  const data = materialise(buildSeed(opts));
  const seed = buildSeed(opts);

  it("has the three demo accounts with mirrored flags", () => {
    const byEmail = Object.fromEntries(data.profiles.map((p) => [p.email, p]));
    expect(Object.keys(byEmail).sort()).toEqual(Object.values(DEMO_EMAILS).sort());
    expect(byEmail[DEMO_EMAILS.admin]).toMatchObject({ isAdmin: true, shopwindowsInfo: false, callApp: false });
    expect(byEmail[DEMO_EMAILS.staff]).toMatchObject({ isAdmin: false, shopwindowsInfo: true, callApp: true });
    expect(byEmail[DEMO_EMAILS.customer]).toMatchObject({ isAdmin: false, shopwindowsInfo: false, callApp: false });
    const auth = Object.fromEntries(data.authUsers.map((u) => [u.email, u]));
    expect(auth[DEMO_EMAILS.admin].appMetadata).toEqual({ is_admin: true });
    expect(auth[DEMO_EMAILS.staff].appMetadata).toEqual({ shopwindows_info: true, call_app: true });
    expect(auth[DEMO_EMAILS.customer].appMetadata).toEqual({});
    for (const u of data.authUsers) expect(u.emailConfirmedAt).toBeTruthy();
  });

  it("gives every store an inbound agent with a local number and an outbound agent, all with complete fields", () => {
    for (const store of STORES) {
      for (const type of ["inbound", "outbound"] as const) {
        const agent = data.agents.find((a) => a.store === store && a.type === type);
        expect(agent, `${store} ${type}`).toBeDefined();
        expect(agent!.name).toMatch(type === "inbound" ? / Inbound Receptionist$/ : / Outbound Scheduler$/);
        expect(agent!.businessDescription!.length).toBeGreaterThanOrEqual(20);
        expect(agent!.services!.length).toBeGreaterThanOrEqual(20);
        expect(agent!.agentInstructions!.length).toBeGreaterThanOrEqual(20);
        expect(agent!.voiceId).toBe("marissa-11labs");
        if (type === "outbound") {
          expect(agent!.twilioNumberId ?? null).toBeNull();
          continue;
        }
        const number = data.phoneNumbers.find((n) => n.id === agent!.twilioNumberId)!;
        expect(number.agentId).toBe(agent!.id);
        expect(number.phoneNumber).toBe(agent!.assignedPhoneNumber);
        expect(number.phoneNumber).toMatch(/^\+1[2-9]\d{9}$/);
      }
    }
    // The store network holds one number per store: exactly the default limit of 9.
    const staffId = data.agents.find((a) => a.store)!.userId;
    expect(data.phoneNumbers.filter((n) => n.userId === staffId)).toHaveLength(9);
    expect(data.agents.find((a) => a.name === "Miami Inbound Receptionist")).toMatchObject({ store: "MIAMI", type: "inbound" });
    const miami = data.phoneNumbers.filter((n) => n.locality === "Miami");
    expect(miami.length).toBeGreaterThan(0);
    for (const n of miami) expect(n).toMatchObject({ region: "FL", isoCountry: "US" });
    // Active agents, and only they, have an assistant (and a simulator copy of it).
    for (const a of data.agents) expect(Boolean(a.prompt)).toBe(Boolean(a.vapiAssistantId));
    expect(data.simAssistants.map((s) => s.id).sort()).toEqual(data.agents.flatMap((a) => a.vapiAssistantId ?? []).sort());
    expect(data.agents.some((a) => !a.vapiAssistantId)).toBe(true);
  });

  it("spreads call logs over the last N New York days, in opening hours, never after now", () => {
    const days = new Set(data.callLogs.map((c) => nyDayOf(c.startTime)));
    expect([...days].sort()[0]).toBe("2026-03-01");
    expect([...days].sort().at(-1)).toBe("2026-03-10");
    // 2026-03-08 (spring-forward) still gets its calls between 09:00 and 18:00 local time.
    expect(days.has("2026-03-08")).toBe(true);
    for (const c of data.callLogs) {
      expect(Date.parse(c.startTime)).toBeLessThanOrEqual(NOW.getTime());
      expect(nyHour(c.startTime)).toBeGreaterThanOrEqual(9);
      expect(nyHour(c.startTime)).toBeLessThan(18);
    }
  });

  it("keeps opening hours on the daylight-saving days themselves", () => {
    for (const [day, now] of [
      ["2026-03-08", "2026-03-08T23:30:00Z"],
      ["2026-11-01", "2026-11-01T23:30:00Z"],
    ]) {
      const logs = all(buildSeed({ seed: 1, days: 1, calls: 300, now: new Date(now) }).callLogChunks(100));
      const hours = logs.map((c) => nyHour(c.startTime));
      expect(new Set(logs.map((c) => nyDayOf(c.startTime)))).toEqual(new Set([day]));
      expect(Math.min(...hours)).toBe(9);
      expect(Math.max(...hours)).toBe(17);
    }
  });

  it("writes call logs in VAPI's vocabulary", () => {
    const reasons = new Set<string>(ENDED_REASONS);
    const ids = new Set(data.callLogs.map((c) => c.callId));
    expect(ids.size).toBe(data.callLogs.length);
    const agentsById = new Map(data.agents.map((a) => [a.id, a]));
    for (const c of data.callLogs) {
      expect(["ended", "completed", "queued", "in-progress"]).toContain(c.status);
      expect(["inbound", "outbound", "web"]).toContain(c.direction);
      const agent = agentsById.get(c.agentId!)!;
      expect(c.assistantId).toBe(agent.vapiAssistantId);
      expect(c.userId).toBe(agent.userId);
      if (c.direction !== "web") expect(c.direction).toBe(agent.type);
      if (c.status === "ended" || c.status === "completed") {
        expect(reasons.has(c.endedReason!)).toBe(true);
        expect(Date.parse(c.endTime!) - Date.parse(c.startTime)).toBe(Math.max(c.duration!, 1) * 1000);
        if (c.transcript) expect(c.transcript).toMatch(/^AI: .+\n(Human|AI): /);
        if (c.summary) expect(c.summary).toMatch(/^[A-Z].*\.$/);
      }
      if (c.endedReason === "customer-did-not-answer" || c.endedReason === "customer-busy") expect(c.duration).toBe(0);
    }
    for (const reason of ["customer-ended-call", "assistant-ended-call", "voicemail", "assistant-forwarded-call"]) {
      expect(data.callLogs.some((c) => c.endedReason === reason)).toBe(true);
    }
  });

  it("sizes the store-network tables in proportion to the calls", () => {
    expect(data.aircallCalls).toHaveLength(Math.round(400 * SEED_RATIOS.aircallCalls));
    expect(data.appointments).toHaveLength(Math.round(400 * SEED_RATIOS.appointments));
    expect(data.leads).toHaveLength(Math.round(400 * SEED_RATIOS.leads));
    expect(seed.counts).toEqual({ callLogs: 400, aircallCalls: 200, appointments: 120, leads: 40 });
  });

  it("names each Aircall number after its store and keeps unanswered calls unassigned", () => {
    for (const a of data.aircallCalls) {
      expect(a.numberName).toBe(STORE_NUMBER_NAMES[a.store as Store]);
      if (!a.answered) {
        expect(a.answeredAt).toBeNull();
        expect(a.transferredToStore).toBe(false);
      }
    }
    expect(new Set(data.aircallCalls.map((a) => a.aircallId)).size).toBe(data.aircallCalls.length);
  });

  it("books appointments before they begin, never after now, with status matching time and outcome", () => {
    for (const a of data.appointments) {
      expect(Date.parse(a.bookedAt)).toBeLessThanOrEqual(Date.parse(a.beginUtc));
      expect(Date.parse(a.bookedAt)).toBeLessThanOrEqual(NOW.getTime());
      expect(a.isVirtual).toBe(a.appointmentType === "Virtual Consultation");
      expect(a.sold).toBe(a.status === "Sold");
      expect(a.visited).toBe(a.status === "Visited" || a.status === "Sold");
      if (Date.parse(a.beginUtc) > NOW.getTime()) expect(["Scheduled", "Cancelled"]).toContain(a.status);
      if (a.virtualOutcome) expect(a.isVirtual).toBe(true);
    }
    expect(data.appointments.some((a) => Date.parse(a.beginUtc) > NOW.getTime())).toBe(true);
    // Half the appointments are with people the agents called, so analysis finds matching calls.
    const called = new Set(data.callLogs.map((c) => c.phoneNumber));
    expect(data.appointments.some((a) => called.has(a.customerPhone!))).toBe(true);
  });

  it("gives leads the spec's sources and 10-digit phones", () => {
    for (const l of data.leads) {
      expect(["website", "trial", "store"]).toContain(l.leadSource);
      expect(l.phone).toMatch(/^\d{10}$/);
      expect(l.interestLevel).toBe(4);
      expect(Date.parse(l.submittedAt)).toBeLessThanOrEqual(NOW.getTime());
    }
    // Ingestion upserts leads by external id: every seeded lead has its own, the same on every run.
    const ids = data.leads.map((l) => l.externalId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toMatch(/^LD-\d{9}$/);
    expect(all(buildSeed(opts).leadChunks(1000)).map((l) => l.externalId)).toEqual(ids);
  });
});

describe("factory rows in the migrated D1", () => {
  it("insert without constraint errors, and the demo accounts sign in", async () => {
    const seed = buildSeed(opts);
    const hashes = Object.fromEntries(await Promise.all(seed.profiles.map(async (p) => [p.email, await hashPassword(DEMO_PASSWORD)])));
    await insertRows(authUsers, seed.authUsers(hashes));
    await insertRows(profiles, seed.profiles);
    await insertRows(phoneNumbers, seed.phoneNumbers);
    await insertRows(agents, seed.agents);
    await insertRows(simAssistants, seed.simAssistants);
    for (const chunk of seed.callLogChunks(250)) await insertRows(callLogs, chunk);
    for (const chunk of seed.aircallCallChunks(250)) await insertRows(aircallCalls, chunk);
    for (const chunk of seed.appointmentChunks(250)) await insertRows(appointments, chunk);
    for (const chunk of seed.leadChunks(250)) await insertRows(leads, chunk);

    const total = async (t: typeof callLogs | typeof aircallCalls | typeof appointments | typeof leads) =>
      (await db().select({ n: count() }).from(t))[0].n;
    expect(await total(callLogs)).toBe(400);
    expect(await total(aircallCalls)).toBe(200);
    expect(await total(appointments)).toBe(120);
    expect(await total(leads)).toBe(40);

    // Booleans and JSON round-trip through the real columns.
    const staff = await db().query.authUsers.findFirst({ where: eq(authUsers.email, DEMO_EMAILS.staff) });
    expect(staff!.appMetadata).toEqual({ shopwindows_info: true, call_app: true });

    const signIn = await call("/auth/v1/token?grant_type=password", {
      method: "POST",
      json: { email: DEMO_EMAILS.staff, password: DEMO_PASSWORD },
    });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.app_metadata).toMatchObject({ shopwindows_info: true, call_app: true });
    const wrong = await call("/auth/v1/token?grant_type=password", {
      method: "POST",
      json: { email: DEMO_EMAILS.admin, password: "not-the-password" },
    });
    expect(wrong.status).toBe(400);
  });

  it("test helpers insert related rows in batches under D1's parameter limit", async () => {
    expect(rowsPerStatement(callLogs)).toBe(5); // 19 columns
    const owner = await insertProfile();
    const other = await insertProfile();
    const first = await insertAgent(owner.id);
    const second = await insertAgent(owner.id);
    // Same store and type for another account: no clash on names or assistant ids.
    const foreign = await insertAgent(other.id, {}, { store: first.store as Store, type: first.type as "inbound" });
    expect(new Set([first.name, second.name]).size).toBe(2);
    expect(foreign.name).toBe(first.name);
    const number = await insertPhoneNumber(owner.id, {}, { store: "MIAMI", agent: { id: first.id, name: first.name } });
    expect(number).toMatchObject({ agentId: first.id, locality: "Miami", region: "FL" });

    // 60 rows of 19 columns cannot go in one statement; the helper splits them.
    const logs = await insertCallLogs(owner.id, 60, {}, { agent: first, day: "2026-11-01" });
    const more = await insertCallLogs(owner.id, 5, { status: "queued", endedReason: null });
    expect(logs).toHaveLength(60);
    expect(more.every((r) => r.status === "queued")).toBe(true);
    for (const r of logs) {
      expect(nyDayOf(r.startTime)).toBe("2026-11-01"); // the 25-hour day
      expect(r).toMatchObject({ userId: owner.id, agentId: first.id, assistantId: first.vapiAssistantId });
    }
    // On the account's shard (decision 076); none in the directory.
    const mine = await (await shardOf(owner.id)).select({ n: count() }).from(callLogs).where(eq(callLogs.userId, owner.id));
    expect(mine[0].n).toBe(65);
    expect((await db().select({ n: count() }).from(callLogs).where(eq(callLogs.userId, owner.id)))[0].n).toBe(0);

    expect(await insertAircallCalls(30, {}, { store: "TULSA", day: "2026-03-08" })).toHaveLength(30);
    expect(await insertAircallCalls(3)).toHaveLength(3);
    const appts = await insertAppointments(25, { status: "No Show" }, { store: "OKC" });
    expect(appts.every((a) => a.store === "OKC" && a.status === "No Show")).toBe(true);
    expect(await insertLeads(12, { leadSource: "website" })).toHaveLength(12);
  });

  it("builds complete agents for accounts outside the store network", () => {
    const a = makeAgent(new Rng(1), { userId: "u", active: false });
    expect(a).toMatchObject({ store: null, type: "inbound", vapiAssistantId: null, prompt: null });
    expect(a.businessDescription!.length).toBeGreaterThanOrEqual(20);
  });
});
