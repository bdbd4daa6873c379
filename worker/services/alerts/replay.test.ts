// The Test button's replay on a fake clock (decision 071): each store metric replayed once per New
// York day over the last 7 days and then now, through the evaluation's transition (fire once per
// breach, resolve, fire again after it); minutes used and the silent line answer their value now.
import { describe, expect, it } from "vitest";
import { profiles } from "../../db/schema";
import { insertAgent, insertAircallCalls, insertAppointments, insertLeads } from "../../test/factories";
import { db, shardNameOf, shardOf } from "../../test/helpers";
import { alertRuleBody, type AlertRuleInput } from "@shared/schemas/alerts";
import type { CurrentUser } from "../profiles";
import { testRule } from "./replay";

/** A Wednesday, 12:07 in New York: the replay evaluates May 13 … May 19 at this time, then now. */
const NOW = new Date("2026-05-20T16:07:30.000Z");
const daysBefore = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();

async function account(): Promise<CurrentUser> {
  const id = crypto.randomUUID();
  const email = `${id}@example.com`;
  await db().insert(profiles).values({ id, email, shopwindowsInfo: true, callApp: true });
  await insertAgent(id, { vapiAssistantId: `asst-${crypto.randomUUID()}`, name: "Front desk" });
  return { id, email, username: null, company: null, firstName: null, lastName: null, isAdmin: false, shopwindowsInfo: true, callApp: true, shard: await shardNameOf(id) };
}

const test = async (input: Partial<AlertRuleInput>) => {
  const user = await account();
  return testRule(
    { directory: db(), shard: await shardOf(user.id) },
    user,
    alertRuleBody.parse({ name: "Rule", metric: "leads_drop", scopeKind: "store", scopeId: "TYLER", comparison: "gte", threshold: 50, windowMinutes: 0, cooldownMinutes: 5, severity: "warning", ...input }),
    NOW,
    { agents: [], numbers: [] },
  );
};

describe("Test replays a store metric once a day", () => {
  it("leads drop: each day's yesterday against the same weekday a week before", async () => {
    for (const day of ["05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "17", "18", "19"]) await insertLeads(4, {}, { day: `2026-05-${day}`, store: "TYLER" });
    // May 15 and 16 fall to one lead each: a 75 % drop read on May 16 and 17, gone on May 18.
    for (const day of ["15", "16"]) await insertLeads(1, {}, { day: `2026-05-${day}`, store: "TYLER" });
    const res = await test({ metric: "leads_drop", scopeId: "TYLER", threshold: 50 });
    expect(res).toMatchObject({ replayed: true, grain: "day", fired: 1, current: 0 });
    expect(res.firings).toEqual([{ at: daysBefore(4), value: 75, resolvedAt: daysBefore(2) }]);
  });

  it("appointment no-shows: a day without appointments changes nothing", async () => {
    await insertAppointments(1, { status: "No Show" }, { day: "2026-05-17", store: "NAPLES" });
    await insertAppointments(1, { status: "Visited" }, { day: "2026-05-17", store: "NAPLES" });
    await insertAppointments(4, { status: "Visited" }, { day: "2026-05-19", store: "NAPLES" });
    const res = await test({ metric: "appointment_no_show_share", scopeId: "NAPLES", threshold: 25 });
    expect(res).toMatchObject({ replayed: true, grain: "day", fired: 1, current: 0 });
    expect(res.firings).toEqual([{ at: daysBefore(2), value: 50, resolvedAt: NOW.toISOString() }]);
  });

  it("Aircall calls not answered: each day's inbound calls; a second breach fires again", async () => {
    await insertAircallCalls(3, { direction: "inbound", answeredAt: null }, { day: "2026-05-14", store: "PEMBROKE" });
    await insertAircallCalls(1, { direction: "inbound", answeredAt: "2026-05-14T15:00:05.000Z" }, { day: "2026-05-14", store: "PEMBROKE" });
    await insertAircallCalls(1, { direction: "inbound", answeredAt: "2026-05-15T15:00:05.000Z" }, { day: "2026-05-15", store: "PEMBROKE" });
    await insertAircallCalls(2, { direction: "inbound", answeredAt: null }, { day: "2026-05-16", store: "PEMBROKE" });
    const res = await test({ metric: "aircall_unanswered_share", scopeId: "PEMBROKE", threshold: 75 });
    expect(res).toMatchObject({ replayed: true, grain: "day", fired: 2, current: null });
    expect(res.firings).toEqual([
      { at: daysBefore(6), value: 75, resolvedAt: daysBefore(5) },
      { at: daysBefore(4), value: 100, resolvedAt: null },
    ]);
  });
});

describe("Test answers the value now where no past is kept", () => {
  it("minutes used and the silent line are not replayed", async () => {
    expect(await test({ metric: "minutes_used", scopeKind: "all", scopeId: "", threshold: 80 })).toMatchObject({ replayed: false, grain: "now", fired: 0, current: null });
    expect(await test({ metric: "silent_line", scopeKind: "number", scopeId: "1", threshold: 30, windowMinutes: 0 })).toMatchObject({ replayed: false, grain: "now", fired: 0 });
  });
});
