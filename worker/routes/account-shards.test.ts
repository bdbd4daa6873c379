// Two accounts on different shards (decision 076): each one's reads of its calls and call figures
// (the list, a call's details, the counts, the chart, the report, the public API) find its own
// calls on its own shard and none of the other's, and the directory's call_logs holds neither's.
import { env } from "cloudflare:workers";
import { API_KEY_SCOPES } from "@shared/schemas/api-keys";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { profiles } from "../db/schema";
import { insertAgent, insertCallLogs } from "../test/factories";
import { call, db, shardNameOf, shardOf, signUpAndSignIn } from "../test/helpers";

type Session = Awaited<ReturnType<typeof signUpAndSignIn>>;
type Account = { session: Session; shard: string; callIds: string[]; assistantId: string };

const DAY = "2026-03-03";
const RANGE = new URLSearchParams({ dateFilterType: "range", startDate: "2026-03-01", endDate: "2026-03-05", callType: "Both" });

/** A signed-in account placed on `shard` before any of its calls is written, with `n` inbound calls on DAY. */
async function accountOn(shard: string, n: number): Promise<Account> {
  const session = await signUpAndSignIn();
  // The first signed-in request makes the profile; the placement is then forced.
  expect((await call("/api/profile", { token: session.accessToken })).status).toBe(200);
  await db().update(profiles).set({ shard }).where(eq(profiles.id, session.userId));
  const agent = await insertAgent(session.userId, {}, { store: "MIAMI", type: "inbound" });
  const calls = await insertCallLogs(session.userId, n, { direction: "inbound", endedReason: "customer-ended-call" }, { agent: { ...agent, type: "inbound" }, day: DAY });
  return { session, shard, callIds: calls.map((c) => c.callId), assistantId: agent.vapiAssistantId! };
}

let a: Account;
let b: Account;

beforeAll(async () => {
  a = await accountOn("SHARD_0", 3);
  b = await accountOn("SHARD_1", 5);
});

const get = (who: Account, path: string) => call(path, { token: who.session.accessToken });

describe("two accounts on different shards", { timeout: 30_000 }, () => {
  it("are placed where the test put them, and each one's calls are on its shard alone", async () => {
    expect(await shardNameOf(a.session.userId)).toBe("SHARD_0");
    expect(await shardNameOf(b.session.userId)).toBe("SHARD_1");
    for (const [who, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const own = await (await shardOf(who.session.userId)).$client
        .prepare("SELECT call_id FROM call_logs WHERE user_id IN (?, ?) ORDER BY call_id")
        .bind(who.session.userId, other.session.userId)
        .all<{ call_id: string }>();
      expect(own.results.map((r) => r.call_id)).toEqual([...who.callIds].sort());
    }
    // The directory's call_logs holds none of them (only calls no account owns wait there).
    const inDirectory = await env.DB.prepare("SELECT count(*) AS n FROM call_logs WHERE user_id IN (?, ?) OR call_id IN (SELECT value FROM json_each(?))")
      .bind(a.session.userId, b.session.userId, JSON.stringify([...a.callIds, ...b.callIds]))
      .first<{ n: number }>();
    expect(inDirectory?.n).toBe(0);
  });

  it("each sees only its own calls in the list and a call's details, and the other's call is not found", async () => {
    for (const [who, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const list = await get(who, "/api/call-logs?limit=50");
      expect(list.status).toBe(200);
      expect(list.body.logs.map((l: { call_id: string }) => l.call_id).sort()).toEqual([...who.callIds].sort());
      expect(list.body.logs.every((l: { user_id: string }) => l.user_id === who.session.userId)).toBe(true);
      const mine = await get(who, `/api/vapi/call/${who.callIds[0]}`);
      expect(mine.status).toBe(200);
      expect(mine.body.id).toBe(who.callIds[0]);
      expect((await get(who, `/api/vapi/call/${other.callIds[0]}`)).status).toBe(404);
    }
  });

  it("each one's counts, chart, report and month are its own calls' figures", async () => {
    for (const who of [a, b]) {
      const n = who.callIds.length;
      expect((await get(who, `/api/call-logs/count?${RANGE}`)).body).toEqual({ total: n });
      expect((await get(who, `/api/call-connected-count?${RANGE}`)).body).toEqual({ count: n });
      expect((await get(who, `/api/voicemail-count?${RANGE}`)).body).toEqual({ count: 0 });
      const volume = await get(who, `/api/call-volume?${RANGE}`);
      expect(volume.body.days.find((d: { date: string }) => d.date === DAY).inbound.total).toBe(n);
      const agentCount = await get(who, `/api/call-logs/count?${RANGE}&agent=${encodeURIComponent(who.assistantId)}`);
      expect(agentCount.body).toEqual({ total: n });
      const report = await get(who, `/api/export-report?${RANGE}`);
      const rows = report.body.text.trimEnd().split("\r\n").slice(1);
      expect(rows).toHaveLength(n);
      for (const id of who.callIds) expect(report.body.text).toContain(id);
    }
    // The other account's agent filter finds nothing of it on this account's shard.
    expect((await get(a, `/api/call-logs/count?${RANGE}&agent=${encodeURIComponent(b.assistantId)}`)).body).toEqual({ total: 0 });
  });

  it("each one's API key reads its own calls and counts through /v1, and not the other's call", async () => {
    for (const [who, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const made = await call("/api/api-keys", { method: "POST", token: who.session.accessToken, json: { name: "Shards", scopes: API_KEY_SCOPES } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const token = made.body.secret as string;
      const list = await call("/v1/calls?limit=50", { token });
      expect(list.status).toBe(200);
      expect(list.body.data.map((c: { id: string }) => c.id).sort()).toEqual([...who.callIds].sort());
      expect((await call(`/v1/calls/${who.callIds[0]}`, { token })).body.id).toBe(who.callIds[0]);
      expect((await call(`/v1/calls/${other.callIds[0]}`, { token })).status).toBe(404);
      const counts = await call(`/v1/counts?start_date=${DAY}&end_date=${DAY}`, { token });
      expect(counts.body).toMatchObject({ total: who.callIds.length, connected: who.callIds.length });
    }
  });
});
