// POST /api/batch (decision 064): each read it carries is answered exactly as it would be alone, with
// the caller's own rights; the batch refuses what it cannot carry, naming the field.
import { describe, expect, it } from "vitest";
import { BATCH_MAX_REQUESTS } from "@shared/batch";
import { insertAgent, insertCallLogs } from "../test/factories";
import { eq } from "drizzle-orm";
import { authUsers, rateLimits } from "../db/schema";
import { SESSION_LOOKUP_LIMIT } from "./billing";
import { call, db, signUpAndSignIn } from "../test/helpers";
import { alongsideFigures } from "./batch";

type Answer = { status: number; headers: Record<string, string>; body: string };

const today = new Date().toISOString().slice(0, 10);
const range = `dateFilterType=range&startDate=${today}&endDate=${today}`;

async function batch(token: string | undefined, requests: unknown, headers: Record<string, string> = {}) {
  return call("/api/batch", { method: "POST", token, json: { requests }, headers });
}

/** A body without the request id an error carries (each request has its own). */
const withoutRequestId = (body: Record<string, unknown>) => {
  const { requestId: _, ...rest } = body;
  return rest;
};

/** A read sent alone: its status and its body as the API answered it. */
async function alone(token: string, path: string) {
  const res = await call(path, { token });
  return { status: res.status, body: withoutRequestId(res.body) };
}

describe("POST /api/batch", () => {
  it("answers every read as it is answered alone: the same status and body, each with the caller's own rights", async () => {
    const staff = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    await insertAgent(staff.userId, { name: "Batch desk" });
    await insertCallLogs(staff.userId, 5);
    const paths = [
      "/api/profile",
      "/api/agents",
      `/api/call-logs/count?${range}&callType=Outbound`,
      `/api/appointment-count?${range}`,
      `/api/aircall/call-count?${range}&direction=inbound`, // needs call_app: 403
      "/api/admin/users", // admin only: 403
      "/api/call-logs/count?dateFilterType=nonsense", // 400 naming its parameter
      "/api/no-such-read", // 404
    ];
    const res = await batch(staff.accessToken, paths);
    expect(res.status).toBe(200);
    const answers = res.body.responses as Answer[];
    expect(answers).toHaveLength(paths.length);
    for (const [i, path] of paths.entries()) {
      const single = await alone(staff.accessToken, path);
      expect({ path, status: answers[i].status, body: withoutRequestId(JSON.parse(answers[i].body)) }).toEqual({ path, ...single });
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 403, 403, 400, 404]);
    expect(JSON.parse(answers[1].body).agents.map((a: { name: string }) => a.name)).toEqual(["Batch desk"]);
  });

  it("never shows one account another's data", async () => {
    const owner = await signUpAndSignIn();
    const other = await signUpAndSignIn();
    const agent = await insertAgent(owner.userId, { name: "Owner's desk" });
    const mine = await batch(owner.accessToken, [`/api/agents/${agent.id}`]);
    const theirs = await batch(other.accessToken, [`/api/agents/${agent.id}`, "/api/agents"]);
    expect((mine.body.responses as Answer[])[0].status).toBe(200);
    const [one, list] = theirs.body.responses as Answer[];
    expect(one.status).toBe(404);
    expect(JSON.parse(list.body).agents).toEqual([]);
  });

  it("refuses a caller without a valid sign-in as a whole: no token, a forged one, a signed-out session's", async () => {
    expect((await batch(undefined, ["/api/profile"])).status).toBe(401);
    expect((await batch("not-a-token", ["/api/profile", "/api/agents"])).status).toBe(401);
    const s = await signUpAndSignIn();
    expect((await batch(s.accessToken, ["/api/profile"])).status).toBe(200);
    expect((await call("/auth/v1/logout", { method: "POST", token: s.accessToken })).status).toBeLessThan(300);
    const after = await batch(s.accessToken, ["/api/profile", "/api/agents"]);
    expect(after.status).toBe(401);
    expect(after.body.responses).toBeUndefined();
  });

  it("confirms the sign-in once for all its reads: each read sends its own statements only", async () => {
    const s = await signUpAndSignIn();
    const queriesOf = (timing: string | null | undefined) => Number(/db-queries;desc="(\d+)"/.exec(timing ?? "")?.[1]);
    const aloneAgents = queriesOf((await call("/api/agents", { token: s.accessToken })).headers.get("server-timing"));
    const aloneProfile = queriesOf((await call("/api/profile", { token: s.accessToken })).headers.get("server-timing"));
    const res = await batch(s.accessToken, ["/api/agents", "/api/profile"]);
    const [agents, profile] = res.body.responses as Answer[];
    // Alone, each read also sends the sign-in's confirmation: the session lookup and the profile read.
    expect(queriesOf(agents.headers["server-timing"])).toBe(aloneAgents - 2);
    expect(queriesOf(profile.headers["server-timing"])).toBe(aloneProfile - 2);
    // The batch sends that confirmation once.
    expect(queriesOf(res.headers.get("server-timing"))).toBe(aloneAgents + aloneProfile - 2);
  });

  it("answers a read the token's flags allow but the account no longer holds as that read alone: refused", async () => {
    const s = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    const path = `/api/appointment-count?${range}`;
    expect((await batch(s.accessToken, [path])).body.responses[0].status).toBe(200);
    // The flag is taken away; the token still claims it.
    await db().update(authUsers).set({ appMetadata: { provider: "email" } }).where(eq(authUsers.id, s.userId));
    const res = await batch(s.accessToken, [path, "/api/profile"]);
    expect(res.status).toBe(200);
    const [counts, profile] = res.body.responses as Answer[];
    expect(counts.status).toBe(403);
    expect(JSON.parse(profile.body).shopwindows_info).toBe(false);
    expect((await alone(s.accessToken, path)).status).toBe(403);
  });

  it("gives each read the caller's address, for its per-address limits", async () => {
    const s = await signUpAndSignIn();
    const windowStart = Math.floor(Date.now() / 1000 / SESSION_LOOKUP_LIMIT.windowSeconds) * SESSION_LOOKUP_LIMIT.windowSeconds;
    const full = "10.77.0.1";
    await db()
      .insert(rateLimits)
      .values({ key: `${SESSION_LOOKUP_LIMIT.name}:${full}`, windowStart, count: SESSION_LOOKUP_LIMIT.limit })
      .onConflictDoUpdate({ target: rateLimits.key, set: { windowStart, count: SESSION_LOOKUP_LIMIT.limit } });
    const path = "/api/stripe/checkout-session/cs_test_unknown";
    const fromFull = await call("/api/batch", { method: "POST", token: s.accessToken, json: { requests: [path] }, ip: full });
    expect((fromFull.body.responses as Answer[])[0].status).toBe(429);
    const fromOther = await call("/api/batch", { method: "POST", token: s.accessToken, json: { requests: [path] }, ip: "10.77.0.2" });
    expect((fromOther.body.responses as Answer[])[0].status).not.toBe(429);
  });

  it("refuses paths it cannot carry with a 400 naming the request", async () => {
    const s = await signUpAndSignIn();
    const refused = [
      "/api/batch",
      "/api/live?ticket=x",
      "/api/export-report?type=calls",
      "/api/local/mailbox",
      "/api/webhooks/vapi",
      "/api/../auth/v1/user",
      "/api/%2e%2e/auth/v1/user",
      "//evil.example/api/profile",
      "https://evil.example/api/profile",
      "/auth/v1/user",
      "/api/profile#x",
      // Spelled with percent-escapes: the router decodes them, so the check reads the decoded path.
      "/api/%6cocal/mailbox",
      "/api/%6C%6F%63%61%6C/mailbox",
      "/api/%62atch",
      "/api/w%65bhooks/vapi",
      "/api/%65xport-report?type=calls",
      "/api/l%69ve?ticket=x",
      // An encoded separator, and a path that does not decode.
      "/api/local%2Fmailbox",
      "/api/profile%2f..%2f..%2fauth/v1/user",
      "/api/profile%5C..",
      "/api/%E0%A4%A",
    ];
    for (const path of refused) {
      const res = await batch(s.accessToken, ["/api/profile", path]);
      expect({ path, status: res.status, field: res.body.field }).toEqual({ path, status: 400, field: "requests.1" });
    }
    // An escape the router decodes to an ordinary read is carried and answered as that read.
    const escaped = await batch(s.accessToken, ["/api/%70rofile"]);
    expect(escaped.status).toBe(200);
    expect((escaped.body.responses as Answer[])[0].status).toBe(200);
    expect((await batch(s.accessToken, [])).status).toBe(400);
    expect((await batch(s.accessToken, "/api/profile")).body.field).toBe("requests");
    const tooMany = await batch(s.accessToken, Array.from({ length: BATCH_MAX_REQUESTS + 1 }, () => "/api/profile"));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.field).toBe("requests");
    const extra = await call("/api/batch", { method: "POST", token: s.accessToken, json: { requests: ["/api/profile"], more: 1 } });
    expect(extra.status).toBe(400);
  });

  it("answers a read that is not JSON with 413 and no body, for the client to ask alone", async () => {
    const s = await signUpAndSignIn();
    // The unsubscribe link's page is HTML.
    const res = await batch(s.accessToken, ["/api/report-mail/unsubscribe?token=" + "a".repeat(43), "/api/profile"]);
    const [page, profile] = res.body.responses as Answer[];
    expect(page).toEqual({ status: 413, headers: {}, body: "" });
    expect(profile.status).toBe(200);
  });

  it("sends each read the caller's D1 bookmark, returns theirs, and overlaps their round trips", async () => {
    const s = await signUpAndSignIn();
    const first = await call("/api/profile", { token: s.accessToken });
    const bookmark = first.headers.get("x-d1-bookmark");
    // The count reads its roll-up coverage once per isolate (decision 054); read now, not in the batch.
    await call(`/api/call-logs/count?${range}&callType=Outbound`, { token: s.accessToken });
    expect(bookmark).toBeTruthy();
    const res = await batch(s.accessToken, ["/api/profile", "/api/agents", `/api/call-logs/count?${range}&callType=Outbound`], { "x-d1-bookmark": bookmark! });
    const answers = res.body.responses as Answer[];
    for (const a of answers) {
      expect(a.headers["x-d1-bookmark"]).toMatch(/^DB=/);
      expect(a.headers["content-type"]).toMatch(/^application\/json/);
    }
    // The profile is the batch's confirmed user: no query of its own. The others: one round trip each.
    expect(answers.map((a) => /db-trips;desc="(\d+)"/.exec(a.headers["server-timing"])?.[1])).toEqual(["0", "1", "1"]);
    // The batch's own sign-in, then the reads, sent together: two round trips, every read's
    // statements counted in.
    const timing = res.headers.get("server-timing") ?? "";
    expect(timing).toContain('db-trips;desc="2"');
    const statements = answers.reduce((n, a) => n + Number(/db-queries;desc="(\d+)"/.exec(a.headers["server-timing"])?.[1]), 0);
    expect(Number(/db-queries;desc="(\d+)"/.exec(timing)?.[1])).toBeGreaterThan(statements);
  });
});

describe("alongsideFigures", () => {
  it("takes the largest round trips and wait, and sums SQL time, rows and statements", () => {
    const a = 'db;dur=1.50;desc="D1 SQL", db-wait;dur=40.00;desc="D1 round trips", db-rows;desc="10", db-queries;desc="2", db-unmetered;desc="1", db-trips;desc="1"';
    const b = 'db;dur=2.00;desc="D1 SQL", db-wait;dur=90.00;desc="D1 round trips", db-rows;desc="5", db-queries;desc="3", db-unmetered;desc="0", db-trips;desc="2"';
    expect(alongsideFigures([a, undefined, b])).toEqual({ sqlMs: 3.5, durationMs: 90, rowsRead: 15, queries: 5, unmetered: 1, trips: 2 });
    // Production's figures for a non-admin: the times only.
    expect(alongsideFigures(['db;dur=1.00;desc="D1 SQL", db-wait;dur=3.00;desc="D1 round trips"'])).toEqual({
      sqlMs: 1,
      durationMs: 3,
      rowsRead: 0,
      queries: 0,
      unmetered: 0,
      trips: 0,
    });
    expect(alongsideFigures([undefined])).toEqual({ sqlMs: 0, durationMs: 0, rowsRead: 0, queries: 0, unmetered: 0, trips: 0 });
  });
});
