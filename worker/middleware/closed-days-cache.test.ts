// Answers over closed days carry an ETag and are kept by the browser (decision 056): a matching
// If-None-Match is answered 304 after one read of the closed-day version, never of the data; a range
// reaching today is never tagged; a tag is the user's, the flags', the URL's and the data's.
import { env } from "cloudflare:workers";
import { nyToday } from "@shared/ny-time";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { app } from "../app";
import { authUsers, profiles } from "../db/schema";
import { insertCallLogs, insertLeads } from "../test/factories";
import { call, db, shardNameOf, shardOf, signUpAndSignIn } from "../test/helpers";
import { DEV_INGEST_API_KEY } from "../routes/ingest";
import { CLOSED_DAYS_CACHE_CONTROL, VersionedMeter } from "./closed-days-cache";

const DEV = { APP_ENV: "development" };

/** A GET as the browser sends it, with the raw answer (a 304's body must be empty, not parsed). */
async function get(path: string, token: string, ifNoneMatch?: string, bindings: Record<string, unknown> = {}) {
  const headers = new Headers({ authorization: `Bearer ${token}`, "cf-connecting-ip": "10.9.8.7" });
  if (ifNoneMatch) headers.set("if-none-match", ifNoneMatch);
  const res = await app.request(`http://localhost${path}`, { headers }, { ...env, ...DEV, ...bindings });
  const text = await res.text();
  const timing = res.headers.get("server-timing") ?? "";
  const figure = (name: string) => Number(timing.match(new RegExp(`${name};desc="(\\d+)"`))?.[1] ?? NaN);
  return { status: res.status, text, headers: res.headers, trips: figure("db-trips"), queries: figure("db-queries") };
}

const CLOSED = "startDate=2026-03-01&endDate=2026-03-05";

describe("answers over closed days", { timeout: 30_000 }, () => {
  it("a closed range is tagged and kept privately; the same request with its tag is answered 304 after one read of the version", async () => {
    const a = await signUpAndSignIn();
    await insertCallLogs(a.userId, 12, {}, { day: "2026-03-03" });
    const path = `/api/call-logs/count?${CLOSED}&callType=Both`;
    const first = await get(path, a.accessToken);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text)).toEqual({ total: expect.any(Number) });
    const tag = first.headers.get("etag");
    expect(tag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("cache-control")).toBe(CLOSED_DAYS_CACHE_CONTROL);
    expect(first.headers.get("vary")).toMatch(/authorization/i);

    // The sign-in's own cost, from an answer made of the signed-in user alone.
    const signIn = await get("/api/profile", a.accessToken);
    const again = await get(path, a.accessToken, tag!);
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(tag);
    expect(again.headers.get("cache-control")).toBe(CLOSED_DAYS_CACHE_CONTROL);
    // Two statements beyond the sign-in's, the version rows of the account's shard and of the directory
    // (read at once), and none of the count's queries; at most one round trip beyond the sign-in's
    // (none where the sign-in is confirmed in the same round trip).
    expect(again.queries).toBe(signIn.queries + 2);
    expect(again.trips).toBeLessThanOrEqual(signIn.trips + 1);
    // The count's own queries are what the 304 saves (its round trips match the version read's).
    expect(first.queries).toBeGreaterThan(again.queries);
    expect(first.trips).toBeGreaterThanOrEqual(again.trips);
    // The headers every answer carries are on the 304 too.
    expect(again.headers.get("server-timing")).toMatch(/^db;dur=/);
    expect(again.headers.get("x-content-type-options")).toBe("nosniff");
    expect(again.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(again.headers.get("vary")).toMatch(/authorization/i);
    // A tag in a list, or weak, matches the same way; another tag does not.
    expect((await get(path, a.accessToken, `"other", W/${tag}`)).status).toBe(304);
    expect((await get(path, a.accessToken, `"other"`)).status).toBe(200);
  });

  it("a first answer reads the version in the count's own first round trip: no trip more than a range reaching today", async () => {
    const a = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    const today = nyToday();
    const open = `/api/appointment-status-count?startDate=2026-03-01&endDate=${today}`;
    const closed = `/api/appointment-status-count?${CLOSED}`;
    await get(open, a.accessToken); // this isolate has read the coverage once
    const openAnswer = await get(open, a.accessToken);
    const closedAnswer = await get(closed, a.accessToken);
    expect(closedAnswer.status).toBe(200);
    expect(closedAnswer.headers.get("etag")).toBeTruthy();
    expect(closedAnswer.trips).toBeLessThanOrEqual(openAnswer.trips);
  });

  it("a range reaching today gets no tag and stays no-store", async () => {
    const a = await signUpAndSignIn();
    const today = nyToday();
    const path = `/api/call-logs/count?startDate=2026-03-01&endDate=${today}&callType=Both`;
    const res = await get(path, a.accessToken);
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBeNull();
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect((await get(path, a.accessToken, '"anything"')).status).toBe(200);
  });

  it("another account's tag never matches, even for the same URL and the same body", async () => {
    const a = await signUpAndSignIn();
    const b = await signUpAndSignIn();
    const path = `/api/call-connected-count?${CLOSED}&callType=Both`;
    const ofA = await get(path, a.accessToken);
    const ofB = await get(path, b.accessToken);
    expect(ofA.text).toBe(ofB.text);
    expect(ofA.headers.get("etag")).not.toBe(ofB.headers.get("etag"));
    const bWithA = await get(path, b.accessToken, ofA.headers.get("etag")!);
    expect(bWithA.status).toBe(200);
    expect(bWithA.headers.get("etag")).toBe(ofB.headers.get("etag"));
  });

  it("another query or a changed flag gives another tag", async () => {
    const a = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    const path = `/api/lead-counts/summary?${CLOSED}`;
    const before = await get(path, a.accessToken);
    expect(before.status).toBe(200);
    const tag = before.headers.get("etag")!;
    expect((await get(`${path}&store=MIAMI`, a.accessToken)).headers.get("etag")).not.toBe(tag);

    // The identity service grants callApp: the same token's next request carries it (local tokens
    // are checked against the account row on every request).
    await db().update(authUsers).set({ appMetadata: { shopwindows_info: true, call_app: true } }).where(eq(authUsers.id, a.userId));
    const after = await get(path, a.accessToken, tag);
    expect(after.status).toBe(200);
    expect(after.text).toBe(before.text);
    expect(after.headers.get("etag")).not.toBe(tag);
  });

  it("a deploy gives every answer another tag", async () => {
    const a = await signUpAndSignIn();
    const path = `/api/voicemail-count?${CLOSED}&callType=Both`;
    const build = (id: string) => ({ CF_VERSION_METADATA: { id, tag: "", timestamp: "" } });
    const before = await get(path, a.accessToken, undefined, build("deploy-1"));
    const tag = before.headers.get("etag")!;
    expect((await get(path, a.accessToken, tag, build("deploy-1"))).status).toBe(304);
    const after = await get(path, a.accessToken, tag, build("deploy-2"));
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(tag);
  });

  it("a write to a closed day changes the answer and its tag; a write to a day still open changes neither", async () => {
    const a = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    const p = `cdc-${Date.now()}-`;
    await insertLeads(3, {}, { day: "2026-03-02", store: "TULSA" });
    const path = `/api/lead-counts/summary?${CLOSED}&store=OKC`;
    const before = await get(path, a.accessToken);
    const tag = before.headers.get("etag")!;
    const ingest = (submittedAt: string, id: string) =>
      call("/api/ingest/leads", {
        method: "POST",
        headers: { authorization: `Bearer ${DEV_INGEST_API_KEY}` },
        json: { leads: [{ external_id: `${p}${id}`, store: "OKC", submitted_at: submittedAt, email: null, phone: null }] },
      });

    // A lead of a day the triggers count as open: the closed range's answer and tag stand. Six hours
    // ahead is New York's today, or, in the hours after midnight UTC (when the triggers' bound,
    // date('now', '-230 minutes'), already counts New York's today as closed), its tomorrow.
    expect((await ingest(new Date(Date.now() + 6 * 3_600_000).toISOString(), "open")).status).toBe(200);
    expect((await get(path, a.accessToken, tag)).status).toBe(304);

    // A late lead of a closed day, through the real ingestion: the old tag no longer matches.
    expect((await ingest("2026-03-04T15:00:00Z", "late")).status).toBe(200);
    const after = await get(path, a.accessToken, tag);
    expect(after.status).toBe(200);
    expect(JSON.parse(after.text).totalSubmissions).toBe(JSON.parse(before.text).totalSubmissions + 1);
    expect(after.headers.get("etag")).not.toBe(tag);
  });
});

describe("answers over closed days of an account's calls, on its shard (decision 076)", { timeout: 30_000 }, () => {
  const bump = (d1: D1Database) => d1.prepare("UPDATE closed_day_version SET version = version + 1 WHERE id = 1").run();

  it("change their tag when the shard's version, the directory's version or the account's shard changes", async () => {
    const a = await signUpAndSignIn();
    await insertCallLogs(a.userId, 4, {}, { day: "2026-03-03" });
    const shard = (await shardOf(a.userId)).$client;
    const path = `/api/call-logs/count?${CLOSED}&callType=Both`;
    const first = await get(path, a.accessToken);
    expect(JSON.parse(first.text)).toEqual({ total: 4 });
    let tag = first.headers.get("etag")!;
    expect((await get(path, a.accessToken, tag)).status).toBe(304);

    for (const [what, change] of [
      ["the shard's version", () => bump(shard)],
      ["the directory's version", () => bump(env.DB)],
    ] as const) {
      await change();
      const after = await get(path, a.accessToken, tag);
      expect(after.status, what).toBe(200);
      expect(after.headers.get("etag"), what).not.toBe(tag);
      // The first answer's tag (read with the count) and the revalidation's (read alone) agree.
      expect((await get(path, a.accessToken, after.headers.get("etag")!)).status, what).toBe(304);
      tag = after.headers.get("etag")!;
    }

    // The account placed on the other shard: its calls are read there (none), under another tag.
    const other = (await shardNameOf(a.userId)) === "SHARD_0" ? "SHARD_1" : "SHARD_0";
    await db().update(profiles).set({ shard: other }).where(eq(profiles.id, a.userId));
    const moved = await get(path, a.accessToken, tag);
    expect(moved.status).toBe(200);
    expect(JSON.parse(moved.text)).toEqual({ total: 0 });
    expect(moved.headers.get("etag")).not.toBe(tag);
  });
});

describe("the meter of a first answer", () => {
  /** A D1 stand-in that logs each batch's SQL as it is sent and as it returns. */
  function fakeD1(fail?: (sqls: string[]) => Error | null) {
    const log: string[] = [];
    const d1 = {
      prepare: (sql: string) => ({ bind: () => ({ sql }), sql }),
      batch: async (statements: { sql: string }[]) => {
        const sqls = statements.map((s) => s.sql);
        log.push(`send ${sqls.join(" ; ")}`);
        await new Promise((r) => setTimeout(r, 5));
        const error = fail?.(sqls);
        if (error) throw error;
        log.push(`done ${sqls.join(" ; ")}`);
        return sqls.map((q) => ({ results: q.includes("closed_day_version") ? [{ version: 7 }] : [{ q }] }));
      },
    };
    return { d1: d1 as unknown as D1Database, log };
  }

  it("reads the version in the first batch, and a batch asked for meanwhile waits for it", async () => {
    const { d1, log } = fakeD1();
    const meter = new VersionedMeter(d1);
    const [a, b] = await Promise.all([meter.batch([meter.statement("SELECT a")]), meter.batch([meter.statement("SELECT b")])]);
    expect(a).toEqual([[{ q: "SELECT a" }]]);
    expect(b).toEqual([[{ q: "SELECT b" }]]);
    expect(meter.version).toBe(7);
    expect(log).toEqual([
      "send SELECT version FROM closed_day_version WHERE id = 1 ; SELECT a",
      "done SELECT version FROM closed_day_version WHERE id = 1 ; SELECT a",
      "send SELECT b",
      "done SELECT b",
    ]);
  });

  it("without the version's table, answers the count and gives no version; any other failure is the count's", async () => {
    const missing = fakeD1((sqls) => (sqls[0].includes("closed_day_version") ? new Error("D1_ERROR: no such table: closed_day_version") : null));
    const meter = new VersionedMeter(missing.d1);
    expect(await meter.batch([meter.statement("SELECT a")])).toEqual([[{ q: "SELECT a" }]]);
    expect(meter.version).toBeNull();

    const down = fakeD1(() => new Error("D1 is unavailable"));
    await expect(new VersionedMeter(down.d1).batch([down.d1.prepare("SELECT a") as unknown as D1PreparedStatement])).rejects.toThrow("unavailable");
  });

  it("of a shard reads the directory's version beside its first batch, at once, and gives both", async () => {
    const shard = fakeD1();
    const directory = { versionRead: 0 };
    const directoryDb = {
      $client: {
        prepare: () => ({
          all: async () => {
            directory.versionRead++;
            // Still in flight when the shard's batch is sent (before that batch returns): the two overlap.
            await new Promise((r) => setTimeout(r, 1));
            expect(shard.log).toEqual(["send SELECT version FROM closed_day_version WHERE id = 1 ; SELECT a"]);
            return { results: [{ version: 3 }] };
          },
        }),
      },
    };
    const meter = new VersionedMeter(shard.d1, "SHARD_0", directoryDb as never);
    expect(await meter.batch([meter.statement("SELECT a")])).toEqual([[{ q: "SELECT a" }]]);
    expect(directory.versionRead).toBe(1);
    expect(meter.versions()).toEqual([7, 3]);
    expect(new VersionedMeter(shard.d1).versions()).toBeNull();
  });
});
