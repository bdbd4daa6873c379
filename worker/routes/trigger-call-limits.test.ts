// A test call's rate limits are counted beside the plan and agent reads, once the sign-in is confirmed:
// a forged or stale token counts nothing; a request the plan refuses is taken back out of the counts;
// the limits stay exact under concurrency. And a test call, and the platform's reports of it, are
// written to the account's own shard (decision 076).
import { eq, inArray } from "drizzle-orm";
import { SignJWT } from "jose";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { TEST_CALLS_PER_DAY } from "@shared/constants";
import { PLAN_TEXT } from "@shared/messages";
import { nyToday } from "@shared/ny-time";
import type { Limit } from "../db/rate-limit";
import { authUsers, callLogs, deletedAccounts, profiles, rateLimits } from "../db/schema";
import { ACCOUNT_DELETED } from "../services/profiles";
import { COMPLETE_AGENT_FIELDS } from "../test/factories";
import { call, db, signUpAndSignIn, testShards, uniqueEmail, shardOf } from "../test/helpers";
import { vapiReport } from "../test/payloads";
import { DEV_VAPI_WEBHOOK_SECRET } from "../providers/voice/local";
import { VAPI_STANDIN } from "../test/standins/vapi";
import { AGENT_RATE_LIMITS } from "./agents";

type Session = Awaited<ReturnType<typeof signUpAndSignIn>>;

const MINUTE = AGENT_RATE_LIMITS.testCall;
const DAY = AGENT_RATE_LIMITS.testCallsPerDay;
const minuteKey = (s: Session) => `${MINUTE.name}:${s.userId}`;
const dayKey = (s: Session) => `${DAY.name}:${s.userId}:${nyToday()}`;
const windowOf = (rule: Limit) => Math.floor(Date.now() / 1000 / rule.windowSeconds) * rule.windowSeconds;

/** The account's two counters as stored: null where there is no row at all. */
async function counters(s: Session) {
  const row = (key: string) => db().query.rateLimits.findFirst({ where: eq(rateLimits.key, key) });
  const [minute, day] = await Promise.all([row(minuteKey(s)), row(dayKey(s))]);
  return { minute: minute?.count ?? null, day: day?.count ?? null };
}

/** Sets a counter of the current window to `count`. */
async function preset(rule: Limit, key: string, count: number) {
  const windowStart = windowOf(rule);
  await db().insert(rateLimits).values({ key, windowStart, count }).onConflictDoUpdate({ target: rateLimits.key, set: { windowStart, count } });
}

/**
 * The per-minute counter's window is the clock's minute: a test that counts within one waits, when
 * that minute ends within a few seconds, for the next one to begin.
 */
async function withinOneMinute() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 8_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/**
 * The voice platform as production has it (the VAPI adapter against its stand-in): the local simulator
 * keeps its calls in D1, round trips that production's platform does not make.
 */
const vapi = () => ({ VAPI_PRIVATE_KEY: VAPI_STANDIN.privateKey, VAPI_BASE_URL: inject("standins").vapi, VAPI_PHONE_NUMBER_ID: "pn-configured-default" });

/** Room for a test that waits for the next minute (withinOneMinute). */
const WAITS = { timeout: 30_000 };

const trigger = (s: { accessToken: string }) =>
  call("/api/trigger-call", { method: "POST", token: s.accessToken, json: { phoneNumber: "+15551234567" }, bindings: vapi() });
const tripsOf = (res: { headers: Headers }) => Number(/db-trips;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "")?.[1]);

/** An account (on a plan unless `plan` is null) with an active agent that test calls go out from. */
async function caller(opts: { plan?: "basic" | "pro" | null; appMetadata?: Record<string, unknown> } = {}): Promise<Session> {
  const s = await signUpAndSignIn(opts);
  const created = await call("/api/agents", { method: "POST", token: s.accessToken, json: { name: "Desk", ...COMPLETE_AGENT_FIELDS } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  if (opts.plan === null) return s;
  const activated = await call("/api/create-vapi-assistant", { method: "POST", token: s.accessToken, json: { agent_id: created.body.agent.id }, bindings: vapi() });
  expect(activated.status, JSON.stringify(activated.body)).toBe(200);
  return s;
}

describe("the limits, counted beside the plan and agent reads", WAITS, () => {
  let s: Session;
  beforeAll(async () => {
    s = await caller();
  });

  it("counts a call once in each limit, in 3 round trips: the sign-in, the limits with the reads, the call's row", async () => {
    await withinOneMinute();
    const before = await counters(s);
    const res = await trigger(s);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(tripsOf(res)).toBe(3);
    expect(await counters(s)).toEqual({ minute: (before.minute ?? 0) + 1, day: (before.day ?? 0) + 1 });
  });

  it("refuses at the per-minute limit, without counting the refused call against the daily cap", async () => {
    await withinOneMinute();
    await preset(MINUTE, minuteKey(s), MINUTE.limit - 1);
    await preset(DAY, dayKey(s), 5);
    expect((await trigger(s)).status).toBe(200);
    expect(await counters(s)).toEqual({ minute: MINUTE.limit, day: 6 });
    const refused = await trigger(s);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    expect(await counters(s)).toEqual({ minute: MINUTE.limit + 1, day: 6 });
  });

  it("refuses at the daily cap with its own message once the per-minute limit allows", async () => {
    await withinOneMinute();
    await preset(MINUTE, minuteKey(s), 0);
    await preset(DAY, dayKey(s), TEST_CALLS_PER_DAY);
    const refused = await trigger(s);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe(PLAN_TEXT.testCallDailyCap(TEST_CALLS_PER_DAY));
    expect(await counters(s)).toEqual({ minute: 1, day: TEST_CALLS_PER_DAY + 1 });
  });

  it("lets exactly one of two concurrent calls take the last slot", async () => {
    await withinOneMinute();
    await preset(MINUTE, minuteKey(s), MINUTE.limit - 1);
    await preset(DAY, dayKey(s), 0);
    const answers = await Promise.all([trigger(s), trigger(s)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 429]);
    expect(await counters(s)).toEqual({ minute: MINUTE.limit + 1, day: 1 });
  });
});

describe("a request the plan refuses is not counted", WAITS, () => {
  it("takes back both counts of a request without a subscription (402)", async () => {
    const s = await caller({ plan: null });
    await withinOneMinute();
    await preset(MINUTE, minuteKey(s), 3);
    await preset(DAY, dayKey(s), 7);
    const res = await trigger(s);
    expect(res.status).toBe(402);
    expect(res.body.code).toBe("subscription_required");
    expect(await counters(s)).toEqual({ minute: 3, day: 7 });
  });

  it("takes back the counts of a request past the plan's minutes (403), and counts none of a fresh account", async () => {
    const s = await caller({ plan: "basic" });
    // The month's minutes are counted on the account's shard, where its calls are (decision 076).
    await (await shardOf(s.userId)).insert(callLogs).values({ userId: s.userId, callId: `call-${crypto.randomUUID()}`, direction: "outbound", status: "ended", startTime: new Date().toISOString(), duration: 1000 * 60 });
    await withinOneMinute();
    const res = await trigger(s);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("minutes_limit_reached");
    const after = await counters(s);
    expect({ minute: after.minute ?? 0, day: after.day ?? 0 }).toEqual({ minute: 0, day: 0 });
  });
});

describe("a token the database no longer bears out counts nothing", WAITS, () => {
  it("a signed-out session's token: 401, and no counter row at all", async () => {
    const s = await caller();
    expect((await call("/auth/v1/logout", { method: "POST", token: s.accessToken })).status).toBe(204);
    const res = await trigger(s);
    expect(res.status).toBe(401);
    expect(await counters(s)).toEqual({ minute: null, day: null });
  });

  it("a deleted account's token: 401, and no counter row at all", async () => {
    const s = await caller();
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    const deleted = await call("/api/admin/cleanup-user", { method: "POST", token: admin.accessToken, json: { email: s.email } });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const res = await trigger(s);
    expect(res.status).toBe(401);
    expect(await counters(s)).toEqual({ minute: null, day: null });
  });

  it("a deleted account's Supabase token: 401, and no counter row at all", async () => {
    const url = `${inject("standins").supabase}/p/trigger-limits-${Date.now().toString(36)}`;
    const secret = "trigger-call-limits-secret-of-enough-length";
    const bindings = { ...vapi(), SUPABASE_URL: url, SUPABASE_ANON_KEY: "anon", SUPABASE_JWT_SECRET: secret };
    const id = crypto.randomUUID();
    const day = new Date().toISOString();
    await db().insert(deletedAccounts).values({ userId: id, deletedAt: day, expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
    const iat = Math.floor(Date.now() / 1000) - 10;
    const token = await new SignJWT({ iss: `${url}/auth/v1`, aud: "authenticated", role: "authenticated", sub: id, email: uniqueEmail("sb"), iat, exp: iat + 3600, app_metadata: {} })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .sign(new TextEncoder().encode(secret));
    const res = await call("/api/trigger-call", { method: "POST", token, json: { phoneNumber: "+15551234567" }, bindings });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe(ACCOUNT_DELETED);
    expect(await counters({ userId: id } as Session)).toEqual({ minute: null, day: null });
  });

  it("a call whose flags changed at the identity since the token is counted once, after the profile is mirrored", async () => {
    // A customer's plan is read; an admin's is not.
    for (const appMetadata of [{}, { is_admin: true }]) {
      const s = await caller({ appMetadata });
      await db()
        .update(authUsers)
        .set({ appMetadata: { ...appMetadata, call_app: true } })
        .where(eq(authUsers.id, s.userId));
      await withinOneMinute();
      const res = await trigger(s);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await db().query.profiles.findFirst({ where: eq(profiles.id, s.userId) }))?.callApp).toBe(true);
      expect(await counters(s), JSON.stringify(appMetadata)).toEqual({ minute: 1, day: 1 });
    }
  });
});

describe("accounts on different shards", WAITS, () => {
  it("each finds its triggered and webhooked calls on its own shard only, and none in the directory", async () => {
    const [a, b] = await Promise.all([signUpAndSignIn(), signUpAndSignIn()]);
    // Placed before their first call, one on each shard, whatever the placement picked.
    const placed = { [a.userId]: "SHARD_0", [b.userId]: "SHARD_1" };
    for (const [id, shard] of Object.entries(placed)) await db().update(profiles).set({ shard }).where(eq(profiles.id, id));
    for (const s of [a, b]) {
      const created = await call("/api/agents", { method: "POST", token: s.accessToken, json: { name: "Shard desk", ...COMPLETE_AGENT_FIELDS }, bindings: vapi() });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const activated = await call("/api/create-vapi-assistant", { method: "POST", token: s.accessToken, json: { agent_id: created.body.agent.id }, bindings: vapi() });
      expect(activated.status, JSON.stringify(activated.body)).toBe(200);
      const triggered = await trigger(s);
      expect(triggered.status, JSON.stringify(triggered.body)).toBe(200);
      // The platform's reports of the triggered call, and of a call the agent took.
      const taken = crypto.randomUUID();
      for (const id of [triggered.body.callId as string, taken]) {
        const report = await call("/api/webhooks/vapi", {
          method: "POST",
          body: JSON.stringify(vapiReport(id, activated.body.id)),
          headers: { "content-type": "application/json", "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET },
        });
        expect(report.body).toEqual({ received: true, duplicate: false });
      }
      const ids = [triggered.body.callId as string, taken];
      for (const shard of testShards()) {
        const rows = await shard.db.select({ callId: callLogs.callId, userId: callLogs.userId, status: callLogs.status }).from(callLogs).where(inArray(callLogs.callId, ids));
        if (shard.name === placed[s.userId]) {
          expect(rows.map((r) => r.callId).sort(), shard.name).toEqual([...ids].sort());
          expect(rows.every((r) => r.userId === s.userId && r.status === "ended"), JSON.stringify(rows)).toBe(true);
        } else {
          expect(rows, shard.name).toEqual([]);
        }
      }
      expect(await db().select().from(callLogs).where(inArray(callLogs.callId, ids))).toEqual([]);
      // And the account's own list shows them, from its shard.
      const list = await call("/api/call-logs", { token: s.accessToken });
      expect(list.body.logs.map((l: { call_id: string }) => l.call_id).sort()).toEqual([...ids].sort());
    }
  });
});
