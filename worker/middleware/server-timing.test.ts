// Server-Timing on the API answers of signed-in routes, from one middleware: lists, refusals and bad
// input alike; none for anonymous requests, nor on a public route whatever token comes with it; rows read and queries only outside production or for an
// admin; the timer counts overlapping queries once, and counts sequential round trips.
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { D1Timer } from "../db/timed-d1";
import type { AppConfig } from "../env";
import type { AppEnv } from "../app-env";
import type { CurrentUser } from "../services/profiles";
import { call, signUpAndSignIn, uniqueEmail } from "../test/helpers";
import { serverTiming } from "./server-timing";

const TIMING = /^db;dur=\d+\.\d\d;desc="D1 SQL", db-wait;dur=\d+\.\d\d;desc="D1 round trips"$/;
const DEV_TIMING =
  /^db;dur=\d+\.\d\d;desc="D1 SQL", db-wait;dur=\d+\.\d\d;desc="D1 round trips", db-rows;desc="(\d+)", db-queries;desc="(\d+)", db-unmetered;desc="(\d+)", db-trips;desc="(\d+)"$/;

describe("Server-Timing on signed-in API answers", () => {
  it("is on a signed-in request's answers of every kind: success, refusal, bad input", async () => {
    const a = await signUpAndSignIn();
    const answers = [
      await call("/api/call-logs", { token: a.accessToken }),
      await call("/api/usage-stats", { token: a.accessToken }),
      await call("/api/agents", { token: a.accessToken }),
      await call("/api/appointment-count?startDate=2026-03-01&endDate=2026-03-01", { token: a.accessToken }), // 403
      await call("/api/call-logs/count?startDate=nope&endDate=2026-03-01&callType=Both", { token: a.accessToken }), // 400
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 403, 400]);
    for (const r of answers) expect(r.headers.get("server-timing")).toMatch(/^db;dur=/);
  });

  it("is never on an anonymous answer, so the public account calls do not tell which emails have accounts", async () => {
    const answers = [
      await call("/api/health"),
      await call("/api/call-logs"), // 401
      await call("/api/call-logs", { token: "not-a-token" }), // 401
      await call("/api/no-such-thing"), // 404
      await call("/api/webhooks/aircall", { method: "POST", json: { token: "forged" } }), // refused
      await call("/api/admin/public/resend-activation", { method: "POST", json: { email: uniqueEmail("pending") } }),
      await call("/api/admin/public/user-exists", { method: "POST", json: { email: uniqueEmail("who") } }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 401, 404, 401, 200, 200]);
    for (const r of answers) expect(r.headers.get("server-timing")).toBeNull();
  });

  it("is never on a public route's answer, whatever token comes with it, so a signed-in stranger cannot tell pending accounts either", async () => {
    const stranger = await signUpAndSignIn();
    const pending = uniqueEmail("pending");
    const trial = await call("/api/stripe/start-trial", { method: "POST", json: { email: pending, priceId: "price_local_basic_month", first_name: "P", last_name: "T" } });
    expect(trial.status).toBe(200);
    const token = stranger.accessToken;
    const answers = [
      await call("/api/admin/public/resend-activation", { method: "POST", token, json: { email: pending } }),
      await call("/api/admin/public/resend-activation", { method: "POST", token, json: { email: uniqueEmail("nobody") } }),
      await call("/api/admin/public/user-exists", { method: "POST", token, json: { email: pending } }),
      await call("/api/admin/public/update-user-password", { method: "POST", token, json: { email: pending, password: "Secret123", sessionId: "cs_test_unknown" } }),
      await call("/api/stripe/start-trial", { method: "POST", token, json: { email: pending, priceId: "price_local_basic_month", first_name: "P", last_name: "T" } }),
      await call("/api/stripe/checkout-session/cs_test_unknown", { token }),
      await call("/api/stripe/products", { token }),
      await call("/api/health", { token }),
      await call("/api/config", { token }),
      await call("/api/no-such-thing", { token }), // 404
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 403, 200, expect.any(Number), 200, 200, 200, 404]);
    for (const r of answers) expect(r.headers.get("server-timing")).toBeNull();
  });

  it("adds rows read and queries sent outside production, counting the sign-in lookup too", async () => {
    const a = await signUpAndSignIn();
    const dev = await call("/api/call-logs", { token: a.accessToken, bindings: { APP_ENV: "development" } });
    expect(dev.status).toBe(200);
    const [, , queries, unmetered] = dev.headers.get("server-timing")!.match(DEV_TIMING)!;
    // The profile lookup and the page at least; drizzle's reads come back without D1's timing.
    expect(Number(queries)).toBeGreaterThanOrEqual(2);
    expect(Number(unmetered)).toBeGreaterThanOrEqual(1);
    expect(Number(unmetered)).toBeLessThanOrEqual(Number(queries));
  });

  it("says a real endpoint's sequential round trips: the sign-in's confirmation, then the agent list's one query", async () => {
    const a = await signUpAndSignIn();
    const trips = async (path: string) => {
      const res = await call(path, { token: a.accessToken, bindings: { APP_ENV: "development" } });
      expect(res.status).toBe(200);
      return Number(res.headers.get("server-timing")!.match(DEV_TIMING)![4]);
    };
    // GET /api/profile answers from the signed-in user alone: its trip is the sign-in's confirmation.
    expect(await trips("/api/profile")).toBe(1);
    // GET /api/agents sends its SELECT of the account's agents once the sign-in is confirmed.
    expect(await trips("/api/agents")).toBe(2);
  });

  it("in production gives counts to an admin only", async () => {
    const production = { APP_ENV: "production" } as AppConfig;
    const person = (isAdmin: boolean): CurrentUser => ({
      id: "u1", email: "u@example.com", username: null, company: null, firstName: null, lastName: null,
      isAdmin, shopwindowsInfo: false, callApp: false, shard: "SHARD_0",
    });
    const answer = async (user: CurrentUser | null, signedInRoute = true) => {
      const app = new Hono<AppEnv>()
        .use("*", async (c, next) => {
          c.set("config", production);
          c.set("dbTimer", new D1Timer());
          c.set("user", user);
          if (user && signedInRoute) c.set("signedInRoute", true);
          await next();
        })
        .use("*", serverTiming)
        .get("/x", (c) => c.json({}));
      return (await app.request("/x")).headers.get("server-timing");
    };
    expect(await answer(person(false))).toMatch(TIMING);
    expect(await answer(person(true))).toMatch(DEV_TIMING);
    expect(await answer(null)).toBeNull();
    // A signed-in user on a route that does not require one (a public route).
    expect(await answer(person(true), false)).toBeNull();
  });

  it("is not added to the SPA's pages", async () => {
    const res = await call("/auth/v1/settings");
    expect(res.headers.get("server-timing")).toBeNull();
  });
});

describe("D1Timer", () => {
  it("counts statements, batch members included, and rows D1 read", async () => {
    const timer = new D1Timer();
    const d1 = timer.wrap(env.DB);
    await d1.prepare("SELECT 1 AS x").all();
    await d1.batch([d1.prepare("SELECT ? AS y").bind(2), d1.prepare("SELECT count(*) AS n FROM profiles")]);
    expect(timer.queries).toBe(3);
    expect(await d1.prepare("SELECT ? AS z").bind(7).first("z")).toBe(7);
    expect(await d1.prepare("SELECT 1 AS a, 2 AS b").raw()).toEqual([[1, 2]]);
    expect(timer.queries).toBe(5);
    expect(timer.rowsRead).toBeGreaterThanOrEqual(0);
    expect(timer.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("sums the SQL time D1 reports, and counts the reads that report none", async () => {
    const timer = new D1Timer();
    const d1 = timer.wrap(env.DB);
    // Enough rows that D1's own timing is not zero.
    const heavy = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT count(*) AS n FROM c";
    const one = await d1.prepare(heavy).bind(400_000).all();
    const [b1, b2] = await d1.batch([d1.prepare(heavy).bind(300_000), d1.prepare("SELECT 1 AS x")]);
    const reported = [one, b1, b2].map((r) => r.meta.timings?.sql_duration_ms ?? r.meta.duration);
    expect(reported[0]).toBeGreaterThan(0);
    expect(timer.sqlMs).toBe(reported.reduce((a, b) => a + b, 0));
    expect(timer.unmetered).toBe(0);
    await d1.prepare("SELECT 1 AS a").raw();
    await d1.prepare("SELECT 1 AS a").first();
    expect(timer.unmetered).toBe(2);
    // The round-trip time holds the SQL time.
    expect(timer.durationMs).toBeGreaterThanOrEqual(reported[0]);
  });

  it("counts time once while queries overlap", async () => {
    const timer = new D1Timer();
    const d1 = timer.wrap(env.DB);
    const started = performance.now();
    await Promise.all(Array.from({ length: 8 }, (_, i) => d1.prepare("SELECT ? AS i").bind(i).all()));
    const wall = performance.now() - started;
    expect(timer.durationMs).toBeLessThanOrEqual(wall + 0.01);
  });

  it("counts two queries awaited one after the other as 2 round trips", async () => {
    const timer = new D1Timer();
    const d1 = timer.wrap(env.DB);
    await d1.prepare("SELECT 1 AS x").all();
    await d1.prepare("SELECT 2 AS x").first();
    expect(timer.trips).toBe(2);
    expect(timer.serverTiming(true)).toMatch(/, db-trips;desc="2"$/);
  });

  it("counts queries in flight together as 1 round trip", async () => {
    const timer = new D1Timer();
    const d1 = timer.wrap(env.DB);
    await Promise.all([d1.prepare("SELECT 1 AS x").all(), d1.prepare("SELECT 2 AS x").raw()]);
    expect(timer.trips).toBe(1);
    expect(timer.queries).toBe(2);
  });

  it("counts a batch as 1 round trip, whatever its size", async () => {
    const timer = new D1Timer();
    const d1 = timer.wrap(env.DB);
    await d1.batch([d1.prepare("SELECT 1 AS x"), d1.prepare("SELECT 2 AS x"), d1.prepare("SELECT 3 AS x")]);
    expect(timer.trips).toBe(1);
    expect(timer.queries).toBe(3);
  });

  it("waits the simulated distance once per D1 call, before the call, and not at all without it", async () => {
    const waits: number[] = [];
    const delay = async (ms: number) => {
      waits.push(ms);
    };
    const timer = new D1Timer({ rttMs: 20, delay });
    const d1 = timer.wrap(env.DB);
    await d1.prepare("SELECT 1 AS x").all();
    await d1.prepare("SELECT 2 AS x").first();
    expect(waits).toEqual([20, 20]);
    await d1.batch([d1.prepare("SELECT 1 AS x"), d1.prepare("SELECT 2 AS x")]);
    await d1.exec("SELECT 1");
    expect(waits).toEqual([20, 20, 20, 20]);
    expect(timer.trips).toBe(4);

    const none: number[] = [];
    const plain = new D1Timer({ delay: async (ms) => void none.push(ms) });
    await plain.wrap(env.DB).prepare("SELECT 1 AS x").all();
    expect(none).toEqual([]);
  });
});
