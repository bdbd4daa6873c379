// The Aircall counts over 90 days of a realistic store network (about 2,200 calls a day, as the
// bench's 200,000 over 90 days): the rows D1 reads for each endpoint and filter, against a naive
// scan of the same calls, and the answers equal to that scan.
import { env } from "cloudflare:workers";
import { STORE_NUMBER_NAMES, type Store } from "@shared/constants";
import type { AircallCountsQuery } from "@shared/schemas/counts";
import { addDays, nyDayOf } from "@shared/ny-time";
import { beforeAll, describe, expect, it } from "vitest";
import { CALL_CENTRE_STAFF } from "../../db/factories";
import { D1Timer } from "../../db/timed-d1";
import { rollupInsertSql, runRollups } from "../../jobs/rollups";
import { fullScans, RecordingMeter } from "../../test/explain";
import { db } from "../../test/helpers";
import { aircallCallCount, aircallCountsByNumber, aircallOutboundAnswered, aircallStoreTransfers, STORE_LINES_SQL } from "./aircall";
import { SPECS_BY_SOURCE } from "./figures";
import { DbMeter } from "./meter";
import { dayBounds } from "./ny-days";

// 12:37 in New York, as the bench's run.
const NOW = new Date("2026-08-20T16:37:00Z");
const TODAY = nyDayOf(NOW);
const DAYS = 90;
const CALLS = 200_000;
/** The nine store lines; a call's store is its line's (as the webhook stores it). */
const LINES = Object.values(STORE_NUMBER_NAMES);
const RANGE = { startDate: addDays(TODAY, -(DAYS - 1)), endDate: TODAY, dateFilterType: "range" as const };

/** D1's rows read by one count, coverage lookups included. */
async function rowsRead<T>(count: (meter: DbMeter) => Promise<T>) {
  const timer = new D1Timer();
  const result = await count(new DbMeter(timer.wrap(env.DB)));
  return { result, rows: timer.rowsRead };
}

/** The naive scan: the range's calls of one direction (and line, user) counted from the source table. */
async function naive(q: Query, direction: "inbound" | "outbound", figure: "total" | "answered" | "store_transfers") {
  const [from] = dayBounds([q.startDate]);
  const [, , to] = dayBounds([q.endDate])[0];
  const line = q.store ? STORE_NUMBER_NAMES[q.store] : q.numberName;
  const cond = { total: "1", answered: "answered_at IS NOT NULL", store_transfers: "transferred_to_store = 1" }[figure];
  const row = await env.DB.prepare(
    `SELECT count(*) AS n FROM aircall_calls WHERE started_at >= ? AND started_at < ? AND direction = ? AND ${cond}` +
      " AND (? IS NULL OR user_name = ?) AND (? IS NULL OR number_name = ?) AND (? IS NULL OR number_name = ?)",
  )
    .bind(from[1], to, direction, q.userName ?? null, q.userName ?? null, line ?? null, line ?? null, q.numberName ?? null, q.numberName ?? null)
    .first<{ n: number }>();
  return row!.n;
}

/**
 * What a count reads live: today's calls up to now of its direction and of the line or the user
 * (one index range; with both filters, whichever index the plan takes).
 */
async function todays(direction: "inbound" | "outbound", line: string | undefined, user: string | undefined) {
  const [[, s, e]] = dayBounds([TODAY]);
  const of = async (column: string, value: string | undefined) =>
    (await env.DB.prepare(`SELECT count(*) AS n FROM aircall_calls WHERE started_at >= ? AND started_at < ? AND direction = ? AND (? IS NULL OR ${column} = ?)`)
      .bind(s, e, direction, value ?? null, value ?? null)
      .first<{ n: number }>())!.n;
  if (line && user) return Math.max(await of("number_name", line), await of("user_name", user));
  return line ? of("number_name", line) : of("user_name", user);
}

type Query = AircallCountsQuery;
const query = (f: { userName?: string; numberName?: string; store?: Store }): Query => ({ ...RANGE, userName: f.userName, numberName: f.numberName, store: f.store });

beforeAll(async () => {
  // Evenly over the 90 whole days before today and today up to now; direction, answer, user, line
  // and transfer from fixed residues of the call's number, in the factory's proportions.
  const startMs = Date.parse(`${addDays(TODAY, -DAYS)}T04:00:00Z`);
  const stepS = (NOW.getTime() - startMs) / 1000 / CALLS;
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1),
     c AS (SELECT i, CASE WHEN (i * 7919) % 100 < 55 THEN 'outbound' ELSE 'inbound' END AS dir, (i * 104729) % 100 AS a FROM n)
     INSERT INTO aircall_calls (aircall_id, direction, status, answered, user_name, number_name, store, transferred_to_store, started_at, answered_at, duration)
     SELECT 'rows-' || i, dir, 'done', a < (CASE dir WHEN 'outbound' THEN 48 ELSE 80 END),
       CASE WHEN dir = 'outbound' OR a < 80 THEN json_extract(?, '$[' || ((i * 31) % 8) || ']') END,
       json_extract(?, '$[' || ((i * 13) % 9) || ']'), json_extract(?, '$[' || ((i * 13) % 9) || ']'),
       a < (CASE dir WHEN 'outbound' THEN 48 ELSE 80 END) AND (i * 17) % 100 < (CASE dir WHEN 'inbound' THEN 20 ELSE 5 END),
       strftime('%Y-%m-%dT%H:%M:%fZ', ? + i * ?, 'unixepoch'),
       CASE WHEN a < (CASE dir WHEN 'outbound' THEN 48 ELSE 80 END) THEN strftime('%Y-%m-%dT%H:%M:%fZ', ? + i * ? + 10, 'unixepoch') END,
       60
     FROM c`,
  )
    .bind(CALLS, JSON.stringify(CALL_CENTRE_STAFF), JSON.stringify(LINES), JSON.stringify(Object.keys(STORE_NUMBER_NAMES)), startMs / 1000, stepS, startMs / 1000, stepS)
    .run();
  await runRollups({ db: db(), now: NOW });
}, 120_000);

const FILTERS: [string, { userName?: string; numberName?: string; store?: Store }][] = [
  ["none", {}],
  ["user", { userName: CALL_CENTRE_STAFF[2] }],
  ["line", { numberName: LINES[4] }],
  ["store", { store: "MIAMI" }],
  ["user + line", { userName: CALL_CENTRE_STAFF[2], numberName: LINES[4] }],
  ["user + store", { userName: CALL_CENTRE_STAFF[5], store: "OKC" }],
  ["line + store, the same", { numberName: "Tulsa", store: "TULSA" }],
  ["line + store, different", { numberName: "Tulsa", store: "MIAMI" }],
];

const ENDPOINTS = [
  ["call-count inbound", "inbound", "total", (m: DbMeter, q: Query) => aircallCallCount(m, { ...q, direction: "inbound" })],
  ["call-count outbound", "outbound", "total", (m: DbMeter, q: Query) => aircallCallCount(m, { ...q, direction: "outbound" })],
  ["outbound-answered-count", "outbound", "answered", aircallOutboundAnswered],
  ["store-transfer-solutions-count", "inbound", "store_transfers", aircallStoreTransfers],
] as const;

describe("Aircall counts over 90 days of 200,000 calls", { timeout: 120_000 }, () => {
  it("read one roll-up row a day and today's calls of their direction, whatever the filters, and equal the naive scan", async () => {
    // A store filter also reads the store's lines (STORE_LINES_SQL, a few rows per line name) in each
    // of the count's two parts, the roll-up's and today's.
    const { rows: storeLines } = await rowsRead(async (m) => m.batch([m.statement(`SELECT * FROM (${STORE_LINES_SQL})`, ["MIAMI"])]));
    expect(storeLines).toBeLessThanOrEqual(5 * LINES.length);
    for (const [name, f] of FILTERS) {
      const q = query(f);
      const line = f.store ? STORE_NUMBER_NAMES[f.store] : f.numberName;
      for (const [endpoint, direction, figure, count] of ENDPOINTS) {
        const { result, rows } = await rowsRead((m) => count(m, q));
        expect(result, `${endpoint}, ${name}`).toBe(await naive(q, direction, figure));
        // Coverage (two small reads), a row a day of the 89 rolled-up days, today's calls live.
        expect(rows, `${endpoint}, ${name}`).toBeLessThanOrEqual(DAYS + (await todays(direction, line, f.userName)) + 10 + (f.store ? 3 * storeLines : 0));
      }
    }
  });

  it("read each roll-up by its covering index and each live day by a covering index of its direction", async () => {
    for (const [name, f] of FILTERS) {
      const rec = new RecordingMeter();
      for (const [, , , count] of ENDPOINTS) await count(rec, query(f));
      const plans = (await rec.plans()).filter((p) => /aircall/.test(p.sql));
      expect(plans.length, name).toBe(ENDPOINTS.length * 2);
      for (const p of plans) {
        const plan = p.plan.join(" | ");
        if (/FROM aircall_\w*daily r/.test(p.sql)) expect(plan, `${name}: ${p.sql}`).toMatch(/SEARCH r USING COVERING INDEX aircall_\w*daily_read_idx \((\w+=\? AND )+day>\? AND day<\?\)/);
        else expect(plan, `${name}: ${p.sql}`).toMatch(/SEARCH r USING COVERING INDEX aircall_calls_(direction_time|number_time|user)_idx \(((number|user)_name=\? AND )?direction=\? AND started_at>\? AND started_at<\?\)/);
      }
    }
  });

  it("give the daily report's lines from the same tables, per day, without a full scan", async () => {
    const rec = new RecordingMeter();
    const byLine = await aircallCountsByNumber(rec, RANGE, { byDay: true });
    const [, , , callCount] = ENDPOINTS[0];
    let inbound = 0;
    for (const [key, v] of byLine) if (key.endsWith(`|${LINES[4]}`)) inbound += v.inbound;
    expect(inbound).toBe(await callCount(new DbMeter(env.DB), query({ numberName: LINES[4] })));
    const plans = (await rec.plans()).filter((p) => /aircall/.test(p.sql));
    expect(plans.length).toBe(4);
    for (const p of plans) expect(fullScans(p.plan), p.sql).toEqual([]);
  });

  it("are rolled up from the calls' time index alone", async () => {
    for (const spec of SPECS_BY_SOURCE.aircall) {
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${rollupInsertSql(spec)}`).bind(JSON.stringify(dayBounds([TODAY]))).all<{ detail: string }>();
      expect(results.map((r) => r.detail).join(" | "), spec.rollupTable).toMatch(/SEARCH r USING COVERING INDEX aircall_calls_time_idx \(started_at>\? AND started_at<\?\)/);
    }
  });
});
