// Usage statistics on the roll-ups: the month's phone calls and the minutes of every call equal the
// index walk they replace (web calls in the minutes only, calls later this month, other accounts
// excluded), whether the days come from roll-ups, dirty days or live; the rolled-up days read roll-up
// rows, not calls; and "Calls this month" is the dashboard's total and the call report's rows.
import { and, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nyDayBounds, nyDayOf, nyMonthRange } from "@shared/ny-time";
import type { Database } from "../db/client";
import { callLogs } from "../db/schema";
import { runRollups } from "../jobs/rollups";
import { insertAgent, insertCallLogs, insertProfile } from "../test/factories";
import { call, db, shardNameOf, shardOf, signUpAndSignIn, testShards } from "../test/helpers";
import { D1Timer } from "../db/timed-d1";
import { createDb } from "../db/client";
import { markDaysDirty } from "./rollup-dirty";
import { monthlyCalls, nyMonthDays } from "./counts/month";
import { usageStats } from "./usage";

/** What usage-stats read before the roll-ups: every call of the month, through the account's index. */
async function scannedMonth(d: Database, userId: string, now: Date) {
  const { start, end } = nyMonthRange(now);
  const [row] = await d
    .select({ n: sql<number>`count(*) FILTER (WHERE ${callLogs.direction} IN ('inbound', 'outbound'))`, seconds: sql<number>`coalesce(sum(${callLogs.duration}), 0)` })
    .from(callLogs)
    .where(and(eq(callLogs.userId, userId), sql`${callLogs.startTime} >= ${start}`, sql`${callLogs.startTime} < ${end}`));
  // Phone calls only; the seconds of every call, browser calls included.
  return { calls: Number(row.n), duration_seconds: Number(row.seconds) };
}

const w = (from: string, to: string) => ({ fromMs: Date.parse(from), toMs: Date.parse(to) });

describe("usage statistics on the roll-ups", { timeout: 60_000 }, () => {
  it("gives the month's first and last New York day", () => {
    expect(nyMonthDays(new Date("2026-03-01T04:30:00Z"))).toEqual({ startDate: "2026-02-01", endDate: "2026-02-28" });
    expect(nyMonthDays(new Date("2026-03-01T05:30:00Z"))).toEqual({ startDate: "2026-03-01", endDate: "2026-03-31" });
    expect(nyMonthDays(new Date("2028-02-10T12:00:00Z"))).toEqual({ startDate: "2028-02-01", endDate: "2028-02-29" });
  });

  it("equals the full month walk, for any day of the month, with late marked calls and before any roll-up", async () => {
    const user = await insertProfile();
    const other = await insertProfile();
    const agent = await insertAgent(user.id, {}, { store: "MIAMI", type: "outbound" });
    const ref = { id: agent.id, vapiAssistantId: agent.vapiAssistantId, store: agent.store, type: "outbound" as const };
    // Feb 26 - Apr 3 around the spring-forward change, both directions, web calls, another account.
    const span = w("2026-02-26T00:00:00Z", "2026-04-03T00:00:00Z");
    await insertCallLogs(user.id, 400, {}, { agent: ref, window: span });
    await insertCallLogs(user.id, 60, { direction: "web" }, { window: span });
    await insertCallLogs(user.id, 60, { direction: "inbound" }, { window: span });
    await insertCallLogs(other.id, 100, {}, { window: span });
    // The account's calls and their roll-ups are on its shard (decision 076).
    const d = await shardOf(user.id);
    const shardName = await shardNameOf(user.id);

    // Before any roll-up the month is live and already equal.
    const early = new Date("2026-03-20T16:00:00Z");
    expect(await monthlyCalls(d, user.id, early)).toEqual(await scannedMonth(d, user.id, early));

    await runRollups({ db: db(), now: new Date("2026-03-25T09:00:00Z"), shards: testShards() }, { backfillFrom: "2026-02-20" });
    // A late call for a rolled-up day, marked as its writer marks it.
    const late = d.insert(callLogs).values({
      userId: user.id, callId: crypto.randomUUID(), direction: "outbound", status: "ended", duration: 77, startTime: "2026-03-10T15:00:00.000Z",
    });
    await d.batch([late, ...markDaysDirty(d, "call_logs", ["2026-03-10"])]);

    await fc.assert(
      fc.asyncProperty(fc.integer({ min: Date.parse("2026-03-01T05:00:00Z"), max: Date.parse("2026-03-25T23:00:00Z") }), async (ms) => {
        const now = new Date(ms);
        expect(await monthlyCalls(d, user.id, now)).toEqual(await scannedMonth(d, user.id, now));
      }),
      { numRuns: 25, seed: 8 },
    );
    const stats = await usageStats({ directory: db(), shard: d, shardName }, user.id, new Date("2026-03-25T12:00:00Z"));
    const scanned = await scannedMonth(d, user.id, new Date("2026-03-25T12:00:00Z"));
    expect(stats.callsThisMonth).toBe(scanned.calls);
    expect(stats.minutesThisMonth).toBe(Math.round(scanned.duration_seconds / 6) / 10);
  });

  it("reads roll-up rows for the rolled-up days: rows read grow with days, not with calls", async () => {
    const user = await insertProfile();
    const agent = await insertAgent(user.id, {}, { store: "TULSA", type: "outbound" });
    const ref = { id: agent.id, vapiAssistantId: agent.vapiAssistantId, store: agent.store, type: "outbound" as const };
    await insertCallLogs(user.id, 1500, {}, { agent: ref, window: w("2026-05-01T06:00:00Z", "2026-05-20T00:00:00Z") });
    const now = new Date("2026-05-20T16:00:00Z");
    const shard = (await shardOf(user.id)).$client;
    const rowsRead = async () => {
      const timer = new D1Timer();
      const result = await monthlyCalls(createDb(timer.wrap(shard)), user.id, now, await shardNameOf(user.id));
      return { result, rows: timer.rowsRead };
    };
    const live = await rowsRead();
    await runRollups({ db: db(), now: new Date("2026-05-20T09:00:00Z"), shards: testShards() }, { backfillFrom: "2026-04-25" });
    // The first count after the run finds the coverage this isolate read before it stale and builds its
    // statements again (decision 054); the count after it is what every later request costs.
    expect((await rowsRead()).result).toEqual(live.result);
    const rolled = await rowsRead();
    expect(rolled.result).toEqual(live.result);
    expect(live.rows).toBeGreaterThanOrEqual(1500);
    // 19 days of one direction from the roll-up grouped by direction (phone calls apart from browser
    // calls), today live (no calls), bookkeeping.
    expect(rolled.rows).toBeLessThan(150);
  });

  it("counts the calls the dashboard's total (call type Both) and the call report count: browser calls in neither", async () => {
    const me = await signUpAndSignIn();
    const now = new Date();
    const today = nyDayOf(now);
    const window = { fromMs: Date.parse(nyDayBounds(today).startUtc), toMs: now.getTime() - 1 };
    await insertCallLogs(me.userId, 3, { direction: "outbound" }, { window });
    await insertCallLogs(me.userId, 2, { direction: "inbound" }, { window });
    await insertCallLogs(me.userId, 1, { direction: "web", duration: 90 }, { window });
    const { startDate, endDate } = nyMonthDays(now);
    const range = new URLSearchParams({ dateFilterType: "range", startDate, endDate, callType: "Both" });

    const usage = await call("/api/usage-stats", { token: me.accessToken });
    const dashboard = await call(`/api/call-logs/count?${range}`, { token: me.accessToken });
    const report = await call(`/api/export-report?${range}`, { token: me.accessToken });
    const reportRows = report.body.text.trimEnd().split("\r\n").length - 1;
    expect(dashboard.body.total).toBe(5);
    expect(reportRows).toBe(5);
    expect(usage.body.callsThisMonth).toBe(5);
    // The minutes are every call's, the browser call's 90 s included.
    const [all] = await (await shardOf(me.userId))
      .select({ seconds: sql<number>`sum(${callLogs.duration})` })
      .from(callLogs)
      .where(eq(callLogs.userId, me.userId));
    expect(usage.body.minutesThisMonth).toBe(Math.round(Number(all.seconds) / 6) / 10);
  });
});
