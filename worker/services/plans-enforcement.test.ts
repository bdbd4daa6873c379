// Paid resources and plan limits (decision 022): a subscription opens them, the month's minutes close
// them at the plan's edge, and test calls go only to North American non-premium numbers.
import { describe, expect, it } from "vitest";
import { callLogUserDaily, callLogs, profiles, rollupState, subscriptions } from "../db/schema";
import { ApiError } from "../lib/errors";
import { call, db, shardNameOf, shardOf, signUpAndSignIn, subscribe } from "../test/helpers";
import { markDaysDirty } from "./rollup-dirty";
import { accountPlan, assertTestCallDestination, monthSecondsFor, requirePaidPlan } from "./plans";

const NOW = new Date("2026-03-20T16:00:00Z");

async function account() {
  const id = crypto.randomUUID();
  await db().insert(profiles).values({ id, email: `${id}@example.com` });
  return id;
}

async function refusal(p: Promise<unknown>) {
  const e = await p.then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

const logRow = (userId: string, startTime: string, duration: number) => ({
  userId,
  callId: `call-${crypto.randomUUID()}`,
  direction: "outbound" as const,
  status: "ended",
  startTime,
  duration,
});

describe("paid resources need an active or trialing subscription", () => {
  it("refuses none, cancelled, past due and an ended trial; accepts active and a running trial", async () => {
    const none = await account();
    expect((await refusal(requirePaidPlan(db(), none, { now: NOW }))).code).toBe("subscription_required");
    for (const status of ["canceled", "past_due", "incomplete"]) {
      const id = await account();
      await subscribe(id, "basic", status);
      expect((await refusal(requirePaidPlan(db(), id, { now: NOW }))).status).toBe(402);
    }
    const trial = await account();
    await db().insert(subscriptions).values({ id: `sub_${trial}`, userId: trial, customerId: "c", priceId: "p", productName: "Basic", status: "trialing", trialEnd: "2026-03-21T00:00:00.000Z" });
    expect(await accountPlan(db(), trial, NOW)).toMatchObject({ plan: "basic", status: "trialing" });
    expect(await accountPlan(db(), trial, new Date("2026-03-21T00:00:01Z"))).toMatchObject({ plan: null, state: "trial_ended" });
    const active = await account();
    await subscribe(active, "pro");
    expect(await requirePaidPlan(db(), active, { now: NOW })).toMatchObject({ plan: "pro" });
    expect(await requirePaidPlan(db(), none, { isAdmin: true, now: NOW })).toBeNull();
  });

  it("refuses activation, a purchase and a test call without a subscription, with the upgrade link", async () => {
    const s = await signUpAndSignIn({ plan: null });
    const activate = await call("/api/create-vapi-assistant", { method: "POST", token: s.accessToken, json: { agent_id: 1 } });
    expect(activate).toMatchObject({ status: 402, body: { code: "subscription_required", upgradeUrl: "/buy" } });
    const buy = await call("/api/twilio/buy", { method: "POST", token: s.accessToken, json: { phoneNumber: "+13055550100", createInVapi: true } });
    expect(buy).toMatchObject({ status: 402, body: { code: "subscription_required" } });
    const testCall = await call("/api/trigger-call", { method: "POST", token: s.accessToken, json: { phoneNumber: "+13055550100" } });
    expect(testCall).toMatchObject({ status: 402, body: { code: "subscription_required" } });
  });
});

describe("call minutes per month", () => {
  it("counts roll-ups for the days they cover and live rows for the rest, never both", async () => {
    const id = await account();
    // The account's calls, roll-ups and their state are on its shard (decision 076).
    const shard = await shardOf(id);
    // Roll-ups trusted for every day they cover (to 2026-03-20) except today and days marked dirty.
    await shard.insert(rollupState).values({ source: "call_logs", fromDay: "2026-01-01", untilDay: "2026-03-20" }).onConflictDoUpdate({ target: rollupState.source, set: { fromDay: "2026-01-01", untilDay: "2026-03-20" } });
    await shard.insert(callLogUserDaily).values([
      { userId: id, day: "2026-03-02", direction: "outbound", total: 1, durationSeconds: 59_000 },
      { userId: id, day: "2026-02-27", direction: "outbound", total: 1, durationSeconds: 7_000 },
    ]);
    await shard.insert(callLogs).values([
      logRow(id, "2026-03-02T15:00:00.000Z", 9_999), // rolled up already: not counted twice
      logRow(id, "2026-03-19T15:00:00.000Z", 1_000),
      logRow(id, "2026-03-20T15:00:00.000Z", 30),
      logRow(id, "2026-03-01T04:59:00.000Z", 500), // 23:59 New York time on February 28
    ]);
    // A late call on 2026-03-19 marked its day dirty: that day is counted live until the next roll-up.
    for (const mark of markDaysDirty(shard, "call_logs", ["2026-03-19"])) await mark;
    expect(await monthSecondsFor(shard, id, NOW)).toBe(59_000 + 1_000 + 30);
  });

  it("allows calls below the plan's minutes and refuses at the limit (basic 1,000, pro 5,000)", async () => {
    const basic = await account();
    await subscribe(basic, "basic");
    const minutesOf = async (id: string) => ({ shard: await shardOf(id), name: await shardNameOf(id) });
    const basicMinutes = await minutesOf(basic);
    await basicMinutes.shard.insert(callLogs).values(logRow(basic, "2026-03-20T12:00:00.000Z", 1000 * 60 - 1));
    expect(await requirePaidPlan(db(), basic, { minutes: basicMinutes, now: NOW })).toMatchObject({ plan: "basic" });
    await basicMinutes.shard.insert(callLogs).values(logRow(basic, "2026-03-20T12:30:00.000Z", 1));
    const e = await refusal(requirePaidPlan(db(), basic, { minutes: basicMinutes, now: NOW }));
    expect(e).toMatchObject({ status: 403, code: "minutes_limit_reached" });
    expect(e.extra).toMatchObject({ maxAllowed: 1000, currentCount: 1000 });

    const pro = await account();
    await subscribe(pro, "pro");
    const proMinutes = await minutesOf(pro);
    await proMinutes.shard.insert(callLogs).values(logRow(pro, "2026-03-20T12:00:00.000Z", 4999 * 60));
    expect(await requirePaidPlan(db(), pro, { minutes: proMinutes, now: NOW })).toMatchObject({ plan: "pro" });
    await proMinutes.shard.insert(callLogs).values(logRow(pro, "2026-03-20T13:00:00.000Z", 60));
    expect((await refusal(requirePaidPlan(db(), pro, { minutes: proMinutes, now: NOW }))).extra).toMatchObject({ maxAllowed: 5000 });
  });
});

describe("test call destinations", () => {
  it("accepts North American numbers and refuses premium ranges and other countries", () => {
    expect(() => assertTestCallDestination("+13055550100")).not.toThrow();
    expect(() => assertTestCallDestination("+14165550100")).not.toThrow();
    for (const n of ["+19005550100", "+19765550100", "+13059765555", "+447911123456", "+1305555010"]) {
      expect(() => assertTestCallDestination(n), n).toThrow(ApiError);
    }
  });

  it("answers a premium number with a 400 naming phoneNumber", async () => {
    const s = await signUpAndSignIn();
    const res = await call("/api/trigger-call", { method: "POST", token: s.accessToken, json: { phoneNumber: "+19005550100" } });
    expect(res).toMatchObject({ status: 400, body: { field: "phoneNumber" } });
  });
});
