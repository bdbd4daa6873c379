// The nightly daily reports: yesterday's New York day for all stores and each store, kept in D1,
// replaced on a rerun; listed and downloaded behind shopwindows_info.
import { STORES } from "@shared/constants";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { insertAircallCalls, insertAppointments, insertLeads } from "../test/factories";
import { call, db, signUpAndSignIn, testShards } from "../test/helpers";
import { runDailyReportJob } from "./daily-report";
import { DAILY_CRON, jobsByCron } from "./index";
import { runRollups } from "./rollups";
import { markDaysDirty } from "../services/rollup-dirty";
import { DAILY_REPORT_RETENTION_DAYS } from "../services/daily-report-store";
import { addDays } from "@shared/ny-time";

const DAY = "2026-08-10";
/** 00:30 New York time (EDT, UTC-4) on the 11th: yesterday is the 10th... */
const JUST_AFTER_NY_MIDNIGHT = new Date("2026-08-11T04:30:00Z");
/** ...while at 23:30 New York time on the 10th, already the 11th in UTC, yesterday is still the 9th. */
const JUST_BEFORE_NY_MIDNIGHT = new Date("2026-08-11T03:30:00Z");
/** The cron's 05:15 UTC on the 11th is 01:15 in New York: yesterday is the 10th. */
const CRON_TIME = new Date("2026-08-11T05:15:00Z");

const stored = async () =>
  (await env.DB.prepare("SELECT id, day, store, rows, csv FROM daily_reports ORDER BY store").all<{ id: number; day: string; store: string | null; rows: number; csv: string }>())
    .results;

describe("nightly daily report job", { timeout: 60_000 }, () => {
  it("runs after the roll-ups on the daily cron", () => {
    const names = jobsByCron[DAILY_CRON].map((j) => j.name);
    expect(names.indexOf("daily-report")).toBe(names.indexOf("rollups") + 1);
  });

  it("stores yesterday's (New York) report for all stores and each store; a rerun replaces them", async () => {
    const w = { fromMs: Date.parse(`${DAY}T04:00:00Z`), toMs: Date.parse(`${DAY}T23:00:00Z`) };
    await insertAppointments(60, {}, { window: w, nowMs: CRON_TIME.getTime() });
    await insertAircallCalls(40, {}, { window: w });
    await insertLeads(20, {}, { window: w });
    // The report reads the roll-ups as on the night: the roll-up job runs first.
    await runRollups({ db: db(), shards: testShards(), now: CRON_TIME });
    expect(await runDailyReportJob({ db: db(), now: CRON_TIME })).toEqual({ day: DAY, reports: 10, refreshed: [], pruned: 0 });
    const first = await stored();
    expect(first).toHaveLength(10);
    expect(first.map((r) => r.day)).toEqual(Array(10).fill(DAY));
    expect(first.map((r) => r.store).sort()).toEqual([null, ...STORES].sort());
    const all = first.find((r) => r.store === null)!;
    expect(all.rows).toBe(10);
    expect(first.filter((r) => r.store !== null).every((r) => r.rows === 2)).toBe(true);

    // The stored all-stores report is what the endpoint answers for that date.
    const staff = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    const live = await call(`/api/daily-report?date=${DAY}`, { token: staff.accessToken });
    expect("\uFEFF" + live.body.text).toBe(all.csv);

    await runDailyReportJob({ db: db(), now: CRON_TIME });
    const second = await stored();
    expect(second).toHaveLength(10);
    expect(second.map((r) => r.csv)).toEqual(first.map((r) => r.csv));
    // A replace, not an update in place: new ids.
    expect(second.map((r) => r.id).some((id) => first.some((f) => f.id === id))).toBe(false);
    // The unique index holds the all-stores report (store NULL) to one a day too.
    await expect(env.DB.prepare("INSERT INTO daily_reports (day, store, csv, rows) VALUES (?, NULL, '', 0)").bind(DAY).run()).rejects.toThrow(/UNIQUE/);
  });

  it("takes yesterday on the New York calendar, not the UTC one", async () => {
    expect((await runDailyReportJob({ db: db(), now: JUST_AFTER_NY_MIDNIGHT })).day).toBe(DAY);
    expect((await runDailyReportJob({ db: db(), now: JUST_BEFORE_NY_MIDNIGHT })).day).toBe("2026-08-09");
    const days = (await stored()).map((r) => r.day);
    expect(days.filter((d) => d === DAY)).toHaveLength(10);
    expect(days.filter((d) => d === "2026-08-09")).toHaveLength(10);
  });

  it("lists newest first, 30 a page with a cursor to the next, and downloads one, behind shopwindows_info", async () => {
    await env.DB.prepare("DELETE FROM daily_reports").run();
    for (const now of ["2026-08-11", "2026-08-12", "2026-08-13", "2026-08-14"]) await runDailyReportJob({ db: db(), now: new Date(`${now}T05:15:00Z`) });
    const staff = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    const list = await call("/api/daily-reports", { token: staff.accessToken });
    expect(list.status).toBe(200);
    const reports = list.body.reports as { id: number; date: string; store: string | null; created_at: string; rows: number }[];
    expect(reports).toHaveLength(30);
    // Newest day first, its all-stores report leading.
    expect(reports.slice(0, 2).map((r) => [r.date, r.store])).toEqual([["2026-08-13", null], ["2026-08-13", "IOWA"]]);
    expect(reports.map((r) => r.date)).toEqual([...reports.map((r) => r.date)].sort().reverse());
    expect(new Set(reports.map((r) => r.date))).toEqual(new Set(["2026-08-13", "2026-08-12", "2026-08-11"]));
    expect(Object.keys(reports[0]).sort()).toEqual(["created_at", "date", "id", "rows", "store"]);
    expect(reports[0].rows).toBe(10);
    // The fourth night is on the next page, which is the last.
    expect(list.body.nextCursor).toBe("2026-08-11~WOODLANDS");
    const next = await call(`/api/daily-reports?cursor=${encodeURIComponent(list.body.nextCursor)}`, { token: staff.accessToken });
    expect(next.status).toBe(200);
    expect(next.body.reports.map((r: { date: string; store: string | null }) => `${r.date} ${r.store ?? "ALL"}`)).toEqual(
      ["ALL", ...STORES.slice().sort()].map((s) => `2026-08-10 ${s}`),
    );
    expect(next.body.nextCursor).toBeNull();

    const miami = reports.find((r) => r.store === "MIAMI")!;
    const file = await call(`/api/daily-reports/${miami.id}`, { token: staff.accessToken });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="daily-report-${miami.date}-MIAMI.csv"`);
    const [storedRow] = (await env.DB.prepare("SELECT csv FROM daily_reports WHERE id = ?").bind(miami.id).all<{ csv: string }>()).results;
    expect("\uFEFF" + file.body.text).toBe(storedRow.csv);

    expect((await call("/api/daily-reports/999999", { token: staff.accessToken })).status).toBe(404);
    const bad = await call("/api/daily-reports/abc", { token: staff.accessToken });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("id");

    const callCentre = await signUpAndSignIn({ appMetadata: { call_app: true } });
    for (const path of ["/api/daily-reports", `/api/daily-reports/${miami.id}`]) {
      expect((await call(path)).status).toBe(401);
      expect((await call(path, { token: callCentre.accessToken })).status).toBe(403);
    }
  });

  it("pages through every stored report once, in order, and refuses a bad limit or cursor naming it", async () => {
    await env.DB.prepare("DELETE FROM daily_reports").run();
    // 100 nights of reports, ten a night as the job stores them.
    const first = "2026-05-01";
    const values = Array.from({ length: 100 }, (_, i) => addDays(first, i)).flatMap((day) => [null, ...STORES].map((store) => ({ day, store })));
    for (let i = 0; i < values.length; i += 20) {
      const chunk = values.slice(i, i + 20);
      await env.DB.prepare(`INSERT INTO daily_reports (day, store, csv, rows) VALUES ${chunk.map(() => "(?, ?, 'x', 1)").join(", ")}`)
        .bind(...chunk.flatMap((v) => [v.day, v.store]))
        .run();
    }
    const staff = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: Record<string, any> } = await call(`/api/daily-reports?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { token: staff.accessToken });
      expect(res.status).toBe(200);
      expect(res.body.reports.length).toBeLessThanOrEqual(100);
      seen.push(...res.body.reports.map((r: { date: string; store: string | null }) => `${r.date} ${r.store ?? ""}`));
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(10);
    const want = [...values].sort((a, b) => (a.day === b.day ? (a.store ?? "").localeCompare(b.store ?? "") : b.day.localeCompare(a.day)));
    expect(seen).toEqual(want.map((v) => `${v.day} ${v.store ?? ""}`));

    // The Daily Report section's dates and store: only those days' reports of that store, paged alike.
    const naples: string[] = [];
    cursor = null;
    do {
      const res: { status: number; body: Record<string, any> } = await call(
        `/api/daily-reports?startDate=2026-05-10&endDate=2026-06-15&store=naples&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        { token: staff.accessToken },
      );
      expect(res.status).toBe(200);
      naples.push(...res.body.reports.map((r: { date: string; store: string | null }) => `${r.date} ${r.store ?? ""}`));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(naples).toEqual(want.filter((v) => v.store === "NAPLES" && v.day >= "2026-05-10" && v.day <= "2026-06-15").map((v) => `${v.day} NAPLES`));
    const days = await call("/api/daily-reports?startDate=2026-05-10&endDate=2026-05-10", { token: staff.accessToken });
    expect(days.body.reports.map((r: { store: string | null }) => r.store)).toEqual([null, ...STORES.slice().sort()]);

    for (const [query, field] of [
      ["limit=0", "limit"], ["limit=101", "limit"], ["limit=x", "limit"], ["cursor=abc", "cursor"], ["cursor=2026-13-01~", "cursor"], ["cursor=2026-08-01~NOWHERE", "cursor"],
      ["startDate=2026-05-10", "endDate"], ["endDate=2026-05-10", "startDate"], ["startDate=2026-05-10&endDate=2026-05-09", "endDate"], ["store=ATLANTIS", "store"],
    ]) {
      const bad = await call(`/api/daily-reports?${query}`, { token: staff.accessToken });
      expect(bad.status, query).toBe(400);
      expect(bad.body.field, query).toBe(field);
    }
  });

  it(`keeps ${DAILY_REPORT_RETENTION_DAYS} days of reports (at least 90) and deletes older ones with their refresh marks`, async () => {
    expect(DAILY_REPORT_RETENTION_DAYS).toBeGreaterThanOrEqual(90);
    await env.DB.batch([env.DB.prepare("DELETE FROM daily_reports"), env.DB.prepare("DELETE FROM rollup_dirty_days")]);
    // Yesterday at CRON_TIME is DAY; the oldest day kept is DAY minus the retention.
    const oldestKept = addDays(DAY, -DAILY_REPORT_RETENTION_DAYS);
    const days = [addDays(oldestKept, -30), addDays(oldestKept, -1), oldestKept, addDays(DAY, -90), addDays(DAY, -1)];
    for (const day of days) await env.DB.prepare("INSERT INTO daily_reports (day, store, csv, rows) VALUES (?, NULL, 'x', 1)").bind(day).run();
    await env.DB.prepare("INSERT INTO rollup_dirty_days (source, day) VALUES ('daily_reports', ?)").bind(addDays(oldestKept, -1)).run();

    const result = await runDailyReportJob({ db: db(), now: CRON_TIME });
    expect(result.pruned).toBe(2);
    const kept = [...new Set((await stored()).map((r) => r.day))].sort();
    expect(kept).toEqual([oldestKept, addDays(DAY, -90), addDays(DAY, -1), DAY]);
    // The old day's mark went with it, so no later night regenerates it.
    expect(result.refreshed).toEqual([]);
    const marks = await env.DB.prepare("SELECT day FROM rollup_dirty_days WHERE source = 'daily_reports'").all();
    expect(marks.results).toEqual([]);
    await env.DB.prepare("DELETE FROM daily_reports").run();
  });

  it("refreshes a stored report when a late event arrives for its day, and only days with stored reports", async () => {
    const w = { fromMs: Date.parse(`${DAY}T13:00:00Z`), toMs: Date.parse(`${DAY}T21:00:00Z`) };
    await insertAppointments(30, { store: "MIAMI" }, { window: w, nowMs: CRON_TIME.getTime() });
    await runRollups({ db: db(), shards: testShards(), now: CRON_TIME });
    await runDailyReportJob({ db: db(), now: CRON_TIME });
    const miami = async () => (await stored()).find((r) => r.day === DAY && r.store === "MIAMI")!;
    const before = await miami();

    // Days later, a late appointment for that day is ingested (its day marked in the same batch),
    // and another for a day that has no stored report.
    const later = new Date("2026-08-15T05:15:00Z");
    const d = db();
    const late = await insertAppointments(1, { store: "MIAMI", status: "Sold" }, { window: w, nowMs: later.getTime() });
    await insertAppointments(1, { store: "MIAMI" }, { day: "2026-08-01", nowMs: later.getTime() });
    await d.batch([markDaysDirty(d, "appointments", [DAY, "2026-08-01"])[0]]);
    expect(late).toHaveLength(1);

    // The night: the roll-up job turns the mark of a day with stored reports into a report mark...
    await runRollups({ db: d, shards: testShards(), now: later });
    const marks = await env.DB.prepare("SELECT source, day FROM rollup_dirty_days ORDER BY source, day").all();
    expect(marks.results).toEqual([{ source: "daily_reports", day: DAY }]);
    // ...and the report job regenerates that day besides yesterday, clearing the mark.
    expect(await runDailyReportJob({ db: d, now: later })).toEqual({ day: "2026-08-14", reports: 10, refreshed: [DAY], pruned: 0 });
    expect((await env.DB.prepare("SELECT count(*) AS n FROM rollup_dirty_days").first())).toEqual({ n: 0 });
    const after = await miami();
    expect(after.csv).not.toBe(before.csv);
    const staff = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
    const live = await call(`/api/daily-report?date=${DAY}&store=MIAMI`, { token: staff.accessToken });
    expect("\uFEFF" + live.body.text).toBe(after.csv);
    expect(after.csv.split("\n")[1]).toMatch(/^2026-08-10,MIAMI,/);

    // A rerun with nothing marked refreshes nothing.
    expect((await runDailyReportJob({ db: d, now: later })).refreshed).toEqual([]);
  });
});
