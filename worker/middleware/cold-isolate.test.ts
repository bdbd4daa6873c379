// The first count of a fresh isolate (just after `npm start`, or a new isolate at the edge) makes the
// round trips every later count makes: the sign-in's confirmation, then the count's own batch. The
// roll-ups' coverage a cold isolate has not read yet rides along the confirmation's batch
// (worker/services/warm-up.ts), instead of a round trip of its own; so does the oldest call an
// admin's statistics read.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { profiles } from "../db/schema";
import { nyToday } from "@shared/ny-time";
import { forgetOldestCall } from "../services/admin/stats";
import { forgetCoverage } from "../services/counts/engine";
import { insertAgent, insertCallLogs } from "../test/factories";
import { call, db, signUpAndSignIn } from "../test/helpers";

const DEV = { APP_ENV: "development" };
const trips = (res: { headers: Headers }) => Number(/db-trips;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "")?.[1]);
const qs = (q: Record<string, string>) => new URLSearchParams(q).toString();

describe("a cold isolate's first count", () => {
  for (const [name, range] of [
    ["over closed days", { startDate: "2026-03-01", endDate: "2026-03-05" }],
    ["reaching today", { startDate: nyToday(new Date()), endDate: nyToday(new Date()) }],
  ] as const) {
    it(`${name}: 2 round trips, as warm, and the same answer`, async () => {
      const s = await signUpAndSignIn({ appMetadata: { shopwindows_info: true, call_app: true } });
      const agent = await insertAgent(s.userId, {}, { store: "MIAMI", type: "inbound" });
      await insertCallLogs(s.userId, 4, {}, { agent: { vapiAssistantId: agent.vapiAssistantId, store: "MIAMI", type: "inbound" }, day: range.startDate });
      const path = `/api/call-logs/count?${qs({ dateFilterType: "range", ...range, callType: "Both" })}`;
      // The account's first request creates its profile (round trips of its own, once per account).
      expect((await call("/api/profile", { token: s.accessToken })).status).toBe(200);

      forgetCoverage();
      const first = await call(path, { token: s.accessToken, bindings: DEV });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(trips(first), "the first count after a start").toBe(2);

      const warm = await call(path, { token: s.accessToken, bindings: DEV });
      expect(trips(warm)).toBe(2);
      expect(first.body).toEqual(warm.body);
    });
  }

  for (const shard of ["SHARD_0", "SHARD_1"]) {
    it(`an account on ${shard}: its shard's coverage is read beside the sign-in, so its first count takes 2 round trips`, async () => {
      const s = await signUpAndSignIn();
      expect((await call("/api/profile", { token: s.accessToken })).status).toBe(200);
      await db().update(profiles).set({ shard }).where(eq(profiles.id, s.userId));
      await insertCallLogs(s.userId, 3, { direction: "inbound" }, { day: "2026-03-02" });
      const path = `/api/call-logs/count?${qs({ dateFilterType: "range", startDate: "2026-03-01", endDate: "2026-03-05", callType: "Both" })}`;
      forgetCoverage();
      const first = await call(path, { token: s.accessToken, bindings: DEV });
      expect(first.body).toEqual({ total: 3 });
      expect(trips(first), "the first count after a start").toBe(2);
      expect(trips(await call(path, { token: s.accessToken, bindings: DEV }))).toBe(2);
    });
  }

  it("a request that counts nothing reads the coverage with its confirmation too, and still takes 1 round trip", async () => {
    const s = await signUpAndSignIn();
    expect((await call("/api/profile", { token: s.accessToken })).status).toBe(200);
    forgetCoverage();
    const profile = await call("/api/profile", { token: s.accessToken, bindings: DEV });
    expect(profile.status).toBe(200);
    expect(trips(profile)).toBe(1);
    const path = `/api/call-logs/count?${qs({ dateFilterType: "range", startDate: "2026-03-01", endDate: "2026-03-05", callType: "Both" })}`;
    expect(trips(await call(path, { token: s.accessToken, bindings: DEV }))).toBe(2);
  });

  it("an admin's first statistics: 2 round trips, as warm (the oldest call rides along the sign-in too)", async () => {
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    await insertCallLogs(admin.userId, 3, {}, { day: "2026-03-02" });
    expect((await call("/api/profile", { token: admin.accessToken })).status).toBe(200);
    forgetCoverage();
    forgetOldestCall();
    const first = await call("/api/admin/stats/v2", { token: admin.accessToken, bindings: DEV });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    // Each shard's oldest call is read beside the sign-in, and every shard's figures beside the directory's.
    const warm = await call("/api/admin/stats/v2", { token: admin.accessToken, bindings: DEV });
    expect(trips(first), "the first statistics after a start").toBeLessThanOrEqual(2);
    expect(trips(warm)).toBeLessThanOrEqual(2);
    expect(first.body).toEqual(warm.body);
  });
});
