// The Aircall backfill against the Aircall stand-in: paged, resumable from its stored cursor,
// idempotent when rerun, stopped (not skipping) by a failing Aircall.
import { env } from "cloudflare:workers";
import { between, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { aircallCalls, rollupDirtyDays, systemConfig } from "../db/schema";
import { parseConfig } from "../env";
import { createCallCentre } from "../providers";
import { aircallCall, standinCompany } from "../test/aircall";
import { db, testShards } from "../test/helpers";
import { AIRCALL_CURSOR_KEY, readCursor, runAircallBackfill } from "./aircall-backfill";
import { FREQUENT_CRON, runJobs } from "./index";

// The job runs at 2026-03-05 12:00 UTC; the first run reads the 7 days before.
const NOW = new Date(Date.UTC(2026, 2, 5, 12, 0, 0));
const NOW_S = NOW.getTime() / 1000;
const START_S = NOW_S - 7 * 86_400;
let nextId = 4_000_000_000;

/** A stand-in company with `n` calls an hour apart from the first run's start, and a job context using it. */
async function setup(n: number, over: (i: number) => Record<string, unknown> = () => ({})) {
  const company = standinCompany();
  const ids = Array.from({ length: n }, () => ++nextId);
  const calls = ids.map((id, i) => aircallCall(id, START_S + 600 + i * 60, over(i)));
  await company.putCalls(calls);
  const config = parseConfig({ ...bindings, ...company.bindings });
  const ctx = { db: db(), shards: testShards(), config, now: NOW };
  return { company, ids, calls, ctx, port: createCallCentre(config) };
}

/** The rows of these calls (consecutive ids of one length, so a text range; D1 binds at most 100 values). */
const rowsOf = (ids: number[]) =>
  db().select().from(aircallCalls).where(between(aircallCalls.aircallId, String(ids[0]), String(ids[ids.length - 1]))).orderBy(aircallCalls.aircallId);
const bindings = env as unknown as Record<string, unknown>;

describe("Aircall backfill job", () => {
  beforeEach(async () => {
    // One cursor per database: each test starts from a first run.
    await db().delete(systemConfig).where(eq(systemConfig.key, AIRCALL_CURSOR_KEY));
  });

  it("reads the history window by window, page by page, through the same upsert as the webhooks", async () => {
    const { ids, ctx, port, company } = await setup(120, (i) => (i === 3 ? { transferred_to: { id: 1, name: "Tulsa" }, user: null } : {}));
    const result = await runAircallBackfill(ctx, port);
    // 7 windows up to now − 1 h (the last 23 h long): the first holds the 120 calls (3 pages), each other one empty page.
    expect(result.calls).toBe(120);
    expect(result.pages).toBe(3 + 6);
    const rows = await rowsOf(ids);
    expect(rows).toHaveLength(120);
    expect(rows.find((r) => r.aircallId === String(ids[3]))).toMatchObject({
      store: "MIAMI",
      status: "done",
      userName: null,
      transferredTo: "Tulsa",
      transferredToStore: true,
      lastEventAt: NOW.toISOString(),
    });
    expect(await db().select({ source: rollupDirtyDays.source, day: rollupDirtyDays.day }).from(rollupDirtyDays).where(eq(rollupDirtyDays.day, "2026-02-26"))).toEqual([{ source: "aircall", day: "2026-02-26" }]);
    // Caught up: the cursor sits at the horizon, and a run right now reads nothing.
    expect(await readCursor(db())).toEqual({ from: NOW_S - 3600, to: NOW_S - 3600, page: 1 });
    const before = (await company.requests()).length;
    expect(await runAircallBackfill(ctx, port)).toMatchObject({ pages: 0, calls: 0 });
    expect((await company.requests()).length).toBe(before);
  });

  it("stops at its page budget and resumes at the next page, never reading a stored page again", async () => {
    const { ids, ctx, port, company } = await setup(120);
    const first = await runAircallBackfill(ctx, port, { maxPages: 2 });
    expect(first).toEqual({ pages: 2, calls: 100, cursor: { from: START_S, to: START_S + 86_400, page: 3 } });
    expect(await readCursor(db())).toEqual({ from: START_S, to: START_S + 86_400, page: 3 });
    expect(await rowsOf(ids)).toHaveLength(100);

    const second = await runAircallBackfill(ctx, port, { maxPages: 2 });
    expect(second.calls).toBe(20);
    expect(await rowsOf(ids)).toHaveLength(120);
    const pagesRead = (await company.requests()).map((r) => [r.query.from, r.query.page]);
    expect(pagesRead).toEqual([
      [String(START_S), "1"],
      [String(START_S), "2"],
      [String(START_S), "3"],
      [String(START_S + 86_400), "1"],
    ]);
  });

  it("gives the same rows when the whole history is read again", async () => {
    const { ids, ctx, port } = await setup(60);
    await runAircallBackfill(ctx, port);
    const snapshot = await rowsOf(ids);
    await db().delete(systemConfig).where(eq(systemConfig.key, AIRCALL_CURSOR_KEY));
    await runAircallBackfill(ctx, port);
    expect(snapshot).toHaveLength(60);
    expect(await rowsOf(ids)).toEqual(snapshot);
  });

  it("keeps the pages stored before Aircall failed, with the cursor after them, and resumes there", async () => {
    const { ids, calls, ctx, port, company } = await setup(120);
    // Page 1 answers, page 2 fails: the run ends in an error after storing page 1.
    await company.queueFaults([
      { status: 200, json: { calls: calls.slice(0, 50), meta: { total: 120, count: 50, current_page: 1, per_page: 50, next_page_link: "https://api.aircall.io/v1/calls?page=2" } } },
      { status: 500 },
    ]);
    await expect(runAircallBackfill(ctx, port)).rejects.toMatchObject({ status: 502, code: "provider_error" });
    expect(await readCursor(db())).toEqual({ from: START_S, to: START_S + 86_400, page: 2 });
    expect(await rowsOf(ids)).toHaveLength(50);
    await runAircallBackfill(ctx, port);
    expect(await rowsOf(ids)).toHaveLength(120);
    expect((await company.requests()).slice(2).map((r) => r.query.page).slice(0, 2)).toEqual(["2", "3"]);
  });

  it("splits a window that holds more calls than Aircall lists", async () => {
    const { ctx, port, company } = await setup(3);
    // The stand-in reports its real totals; a tiny listing limit is simulated by a window total.
    await company.queueFaults([{ status: 200, json: { calls: [], meta: { total: 20_000, next_page_link: "x" } } }]);
    const result = await runAircallBackfill(ctx, port, { maxPages: 2 });
    expect(result.cursor).toEqual({ from: START_S + 43_200, to: START_S + 43_200, page: 1 });
    const queries = (await company.requests()).map((r) => [Number(r.query.from), Number(r.query.to)]);
    expect(queries).toEqual([
      [START_S, START_S + 86_399],
      [START_S, START_S + 43_199],
    ]);
  });

  it("runs on the frequent cron only when the Aircall API is configured", async () => {
    const local = await runJobs(FREQUENT_CRON, { db: db(), shards: testShards(), config: parseConfig(bindings), now: NOW });
    expect(local).toContainEqual({ name: "aircall-backfill", ok: true });
    expect(await readCursor(db())).toBeNull();

    const { ids, ctx } = await setup(5);
    const real = await runJobs(FREQUENT_CRON, ctx);
    expect(real).toContainEqual({ name: "aircall-backfill", ok: true });
    expect(await rowsOf(ids)).toHaveLength(5);
  });
});
