// The operations dashboard's figures for `npm run bench` (issue "Operations dashboard", Performance):
// each count endpoint end to end and its database time and rows read from Server-Timing, beside a
// naive query of the source rows on the same SQLite file; the streamed CSV export's rows/s, time to
// first byte and the worker's peak memory; the nightly roll-up over three days of 100,000 calls and
// whether a rerun writes the same bytes; the SPA's JavaScript per route, gzipped.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { localD1Files } from "../scripts/local-d1.mjs";

/**
 * Server-Timing of an answer: D1's SQL time (`db`), the time spent waiting on D1 (`db-wait`, round
 * trips included), and in development rows read, statements, statements without D1's timing and
 * sequential round trips.
 */
export function parseServerTiming(value) {
  if (!value) return null;
  const num = (re) => {
    const m = value.match(re);
    return m ? Number(m[1]) : null;
  };
  return {
    dbMs: num(/(?:^|[\s,])db;dur=([\d.]+)/),
    waitMs: num(/db-wait;dur=([\d.]+)/),
    rows: num(/db-rows;desc="(\d+)"/),
    queries: num(/db-queries;desc="(\d+)"/),
    unmetered: num(/db-unmetered;desc="(\d+)"/),
    trips: num(/db-trips;desc="(\d+)"/),
  };
}

export const median = (xs) => {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};

/**
 * The count endpoints of docs/product/api.md#dashboard-counts (and usage-stats, which reads the same roll-ups) over one range,
 * each with the naive query a count would be without roll-ups: the source rows of the range, read
 * through the source table's own indexes (O(rows in the range)).
 */
export function countCases({ start, end, startUtc, endUtc, staffId, monthStartUtc, monthEndUtc, connected }, svc) {
  const r = `startDate=${start}&endDate=${end}`;
  const range = { dateFilterType: "range", startDate: start, endDate: end };
  const calls = (m) => svc.callLogCounts(m, staffId, { ...range, callType: "Both" });
  const aircallQ = { ...range, userName: undefined, numberName: undefined };
  const apptQ = { ...range, store: undefined, bookedBy: undefined, appointmentType: undefined };
  const reasons = connected.map((x) => `'${x}'`).join(", ");
  const callLogs = {
    sql: `SELECT count(*) AS n, sum(ended_reason IN (${reasons})) AS c, sum(ended_reason = 'voicemail') AS v, sum(ended_reason = 'assistant-forwarded-call') AS f
          FROM call_logs WHERE user_id = ? AND start_time >= ? AND start_time < ? AND direction IN ('inbound', 'outbound')`,
    params: [staffId, startUtc, endUtc],
    rows: "SELECT count(*) AS n FROM call_logs WHERE user_id = ? AND start_time >= ? AND start_time < ?",
  };
  const aircall = (extra = "") => ({
    sql: `SELECT count(*) AS n FROM aircall_calls WHERE started_at >= ? AND started_at < ?${extra}`,
    params: [startUtc, endUtc],
    rows: "SELECT count(*) AS n FROM aircall_calls WHERE started_at >= ? AND started_at < ?",
  });
  const appointmentsBegin = {
    sql: `SELECT count(*) AS n, sum(status = 'Scheduled'), sum(status = 'Visited'), sum(status = 'Sold'), sum(status = 'No Show'), sum(status = 'Cancelled')
          FROM appointments WHERE begin_utc >= ? AND begin_utc < ?`,
    params: [startUtc, endUtc],
    rows: "SELECT count(*) AS n FROM appointments WHERE begin_utc >= ? AND begin_utc < ?",
  };
  return [
    { path: `/api/call-logs/count?${r}&callType=Both`, flag: "own calls", naive: callLogs, service: calls },
    { path: `/api/call-connected-count?${r}&callType=Both`, flag: "own calls", naive: callLogs, service: calls },
    { path: `/api/voicemail-count?${r}&callType=Both`, flag: "own calls", naive: callLogs, service: calls },
    { path: `/api/forwarded-count?${r}&callType=Both`, flag: "own calls", naive: callLogs, service: calls },
    { path: `/api/aircall/call-count?${r}&direction=inbound`, flag: "call_app", naive: aircall(" AND direction = 'inbound'"), service: (m) => svc.aircallCallCount(m, { ...aircallQ, direction: "inbound" }) },
    { path: `/api/aircall/outbound-answered-count?${r}`, flag: "call_app", naive: aircall(" AND direction = 'outbound' AND answered_at IS NOT NULL"), service: (m) => svc.aircallOutboundAnswered(m, aircallQ) },
    { path: `/api/aircall/store-transfer-solutions-count?${r}`, flag: "call_app", naive: aircall(" AND direction = 'inbound' AND transferred_to_store = 1"), service: (m) => svc.aircallStoreTransfers(m, aircallQ) },
    { path: `/api/appointment-count?${r}`, flag: "shopwindows_info", naive: appointmentsBegin, service: (m) => svc.appointmentCount(m, apptQ) },
    { path: `/api/appointment-status-count?${r}`, flag: "shopwindows_info", naive: appointmentsBegin, service: (m) => svc.appointmentStatusCounts(m, apptQ) },
    {
      path: `/api/appointment-category-count?${r}`,
      flag: "shopwindows_info",
      service: (m) => svc.appointmentCategoryCounts(m, apptQ),
      naive: {
        sql: `SELECT (SELECT count(*) FROM appointments WHERE begin_utc >= ?1 AND begin_utc < ?2 AND status <> 'Cancelled')
                   + (SELECT count(*) FROM appointments WHERE booked_at >= ?1 AND booked_at < ?2 AND booking_channel = 'inbound')
                   + (SELECT count(*) FROM appointments WHERE status = 'Scheduled' AND begin_utc >= ?2 AND booked_at < ?2) AS n`,
        params: [startUtc, endUtc],
        rows: `SELECT (SELECT count(*) FROM appointments WHERE begin_utc >= ?1 AND begin_utc < ?2)
                    + (SELECT count(*) FROM appointments WHERE booked_at >= ?1 AND booked_at < ?2)
                    + (SELECT count(*) FROM appointments WHERE status = 'Scheduled' AND begin_utc >= ?2) AS n`,
      },
    },
    {
      path: `/api/lead-counts/summary?${r}`,
      flag: "shopwindows_info",
      service: (m) => svc.leadSummary(m, { ...range, store: undefined }),
      naive: {
        sql: "SELECT store, count(*) AS n FROM leads WHERE submitted_at >= ? AND submitted_at < ? GROUP BY store",
        params: [startUtc, endUtc],
        rows: "SELECT count(*) AS n FROM leads WHERE submitted_at >= ? AND submitted_at < ?",
      },
    },
    {
      path: `/api/call-volume?${r}&callType=Both`,
      flag: "own calls (chart)",
      naive: callLogs,
      service: (m) => svc.callVolume(m, staffId, { ...range, callType: "Both" }),
    },
    {
      path: "/api/usage-stats",
      flag: "own calls, this month",
      service: (m) => svc.monthlyCalls({ $client: m.d1 }, staffId, new Date(), m.database),
      naive: {
        sql: "SELECT count(*) AS n, coalesce(sum(duration), 0) AS s FROM call_logs WHERE user_id = ? AND start_time >= ? AND start_time < ?",
        params: [staffId, monthStartUtc, monthEndUtc],
        rows: "SELECT count(*) AS n FROM call_logs WHERE user_id = ? AND start_time >= ? AND start_time < ?",
      },
    },
  ];
}

/**
 * A naive query's time on the same file (median of `runs`, after one warm-up) and the source rows it
 * has to read: the rows of every table range it walks, counted with the same WHERE.
 */
export function timeNaive(db, { sql, params }, runs = 5) {
  const stmt = db.prepare(sql);
  stmt.all(...params);
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    stmt.all(...params);
    times.push(performance.now() - t0);
  }
  return { ms: median(times) };
}

/**
 * A D1 binding over a node:sqlite database, enough for the count services: the statements they send
 * run in this process on the same file, so a count's SQL time and a naive query's compare alike
 * (the worker's Server-Timing also holds its round trips through workerd).
 */
export function sqliteD1(db) {
  const rows = (sql, params) => db.prepare(sql).all(...params);
  const stmt = (sql, params = []) => ({
    sql,
    params,
    bind: (...p) => stmt(sql, p),
    all: async () => ({ results: rows(sql, params), meta: {} }),
    run: async () => ({ results: [], meta: {} }),
    first: async (col) => {
      const r = db.prepare(sql).get(...params);
      return r ? (col ? r[col] : r) : null;
    },
    raw: async () => rows(sql, params).map((r) => Object.values(r)),
  });
  return { prepare: (sql) => stmt(sql), batch: async (stmts) => stmts.map((s) => ({ results: rows(s.sql, s.params), meta: {} })) };
}

/** A count service's own SQL time on the file (median of `runs` after a warm-up), through sqliteD1. */
export async function timeService(d1, meterOf, service, runs = 5) {
  await service(meterOf(d1));
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await service(meterOf(d1));
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Rows a naive count must read: the source rows of the ranges its WHERE walks. */
export const naiveRows = (db, { rows, params }) => Number(db.prepare(rows).get(...params).n);

// ---- The worker's memory -------------------------------------------------------------------------

/** Resident memory (KB) of the workerd processes of a process group, from /proc (Linux). */
export function groupRssKb(pgid) {
  let total = 0;
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid || !/\(workerd\)/.test(stat)) continue;
      const rss = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/);
      if (rss) total += Number(rss[1]);
    } catch {
      // the process ended between the listing and the read
    }
  }
  return total;
}

/**
 * Each workerd process of the group with its resident memory split as the kernel counts it (kB):
 * anonymous (heaps, V8, SQLite's page cache), file-backed (mapped binaries and files) and shared.
 * wrangler dev runs two: one for its own proxy workers (`app: false`) and one for the app's worker, its
 * assets and the local D1 (`app: true`, the one workerd started with an inspector).
 */
export function groupWorkerdMemory(pgid) {
  const out = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid || !/\(workerd\)/.test(stat)) continue;
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const kb = (key) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? 0);
      const app = readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--inspector-addr");
      out.push({ pid: Number(pid), app, rssKb: kb("VmRSS"), anonKb: kb("RssAnon"), fileKb: kb("RssFile"), shmemKb: kb("RssShmem") });
    } catch {
      // the process ended between the listing and the read
    }
  }
  return out.sort((a, b) => a.pid - b.pid);
}

/**
 * Streams one CSV answer to its end: time to first byte, total time, bytes and rows (newlines), with
 * the worker's resident memory sampled every 50 ms (baseline before the request, peak during it).
 */
export async function streamCsv(url, token, pgid, onProgress, inspector = null) {
  // The worker's own memory (decision 028): its JS heap after a full GC before and after the
  // export, and the heap in use sampled during it (garbage not yet collected included).
  const heapBefore = inspector ? await inspector.heapAfterGc() : null;
  const baseline = groupRssKb(pgid);
  let peak = baseline;
  let heapPeak = heapBefore ?? 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, groupRssKb(pgid));
  }, 50);
  const heapSampler = inspector
    ? setInterval(() => {
        inspector.heapUsed().then((b) => (heapPeak = Math.max(heapPeak, b)), () => undefined);
      }, 250)
    : null;
  const t0 = performance.now();
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`${url} → ${res.status} ${(await res.text()).slice(0, 200)}`);
    let ttfb = null;
    let bytes = 0;
    let rows = 0;
    let lastReport = t0;
    for await (const chunk of res.body) {
      ttfb ??= performance.now() - t0;
      bytes += chunk.length;
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) rows++;
      if (onProgress && performance.now() - lastReport > 5000) {
        lastReport = performance.now();
        onProgress(rows, bytes);
      }
    }
    const ms = performance.now() - t0;
    clearInterval(sampler);
    if (heapSampler) clearInterval(heapSampler);
    const heapAfter = inspector ? await inspector.heapAfterGc() : null;
    // The header line is not a data row.
    return {
      ttfbMs: ttfb,
      ms,
      bytes,
      rows: Math.max(0, rows - 1),
      rowsPerSec: (Math.max(0, rows - 1) / ms) * 1000,
      baselineKb: baseline,
      peakKb: Math.max(peak, groupRssKb(pgid)),
      heap: inspector ? { beforeBytes: heapBefore, peakInUseBytes: heapPeak, afterBytes: heapAfter } : null,
    };
  } finally {
    clearInterval(sampler);
    if (heapSampler) clearInterval(heapSampler);
  }
}

// ---- Roll-ups --------------------------------------------------------------------------------------

/** A digest of every roll-up table, rows in a fixed order, for "a rerun writes the same bytes"; `db` is one database or a list. */
export function rollupDigest(db, tables) {
  // One database, or several (the directory and the shards): a table's rows from each that has it.
  const dbs = [db].flat();
  const has = (d, t) => Boolean(d.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t));
  const h = createHash("sha256");
  let rows = 0;
  for (const t of tables) {
    const all = dbs.flatMap((d) => (has(d, t) ? d.prepare(`SELECT * FROM ${t}`).all() : [])).map((r) => JSON.stringify(r)).sort();
    rows += all.length;
    h.update(`${t}\n${all.join("\n")}\n`);
  }
  return { digest: h.digest("hex").slice(0, 16), rows };
}

// ---- The SPA's JavaScript ----------------------------------------------------------------------------

/**
 * JS of the built SPA, gzipped: the first page (the entry and every chunk index.html preloads), then
 * each lazily loaded chunk on its own (TanStack Router splits one per route; uplot is its own).
 */
export function spaSizes(clientDir) {
  const html = readFileSync(path.join(clientDir, "index.html"), "utf8");
  const firstPage = new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]));
  const dir = path.join(clientDir, "assets");
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".js")) : [];
  const size = (f) => {
    const buf = readFileSync(path.join(dir, f));
    return { file: f, kb: statSync(path.join(dir, f)).size / 1024, gzKb: gzipSync(buf, { level: 9 }).length / 1024 };
  };
  const all = files.map(size);
  const first = all.filter((f) => firstPage.has(`assets/${f.file}`));
  const lazy = all.filter((f) => !firstPage.has(`assets/${f.file}`)).sort((a, b) => b.gzKb - a.gzKb);
  return { first, firstGzKb: first.reduce((n, f) => n + f.gzKb, 0), firstKb: first.reduce((n, f) => n + f.kb, 0), lazy };
}

// ---- Shared by the bench and the load proof --------------------------------------------------------

/** The daily cron of wrangler.toml, as `wrangler dev --test-scheduled` is asked to run it. */
export const DAILY_CRON = "15 5 * * *";
const CRON_TIMEOUT_MS = 600_000;

/** The p-th percentile of an ascending list (nearest rank); null for an empty one. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The last lines of a log file ("" when it cannot be read). */
export function tail(file, lines = 30) {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

/**
 * The local D1 files of a wrangler state directory: `{ directory, shards: [{ name, file }] }`, each
 * binding's file named from its database_id as Miniflare names it (scripts/local-d1.mjs).
 */
export async function localD1(stateDir) {
  const { DatabaseSync } = await import("node:sqlite");
  return localD1Files(DatabaseSync, stateDir);
}

/** The directory's file (profiles, agents, daily reports, the store network) of a wrangler state directory. */
export async function findD1File(stateDir) {
  return (await localD1(stateDir)).directory;
}

/** The file of the shard the directory places an account on (decision 076): its calls, roll-ups, alerts and webhooks. */
export async function accountShardFile(stateDir, userId) {
  const { DatabaseSync } = await import("node:sqlite");
  const files = await localD1(stateDir);
  const db = new DatabaseSync(files.directory, { readOnly: true });
  let shard;
  try {
    shard = db.prepare("select shard from profiles where id = ?").get(userId)?.shard;
  } finally {
    db.close();
  }
  const found = files.shards.find((s) => s.name === shard);
  if (!found) throw new Error(`account ${userId} is on no local shard (${shard ?? "none"})`);
  return found.file;
}

/**
 * Runs the nightly cron through `wrangler dev --test-scheduled` and waits until its last job (the
 * daily report) has written: scheduled() hands the jobs to waitUntil, so the answer may come first.
 * `onPoll` runs between polls (the bench's Ctrl-C check).
 */
export async function runCron(baseUrl, d1File, { onPoll } = {}) {
  const { DatabaseSync } = await import("node:sqlite");
  const last = () => {
    const db = new DatabaseSync(d1File, { readOnly: true });
    try {
      return db.prepare("SELECT coalesce(max(created_at), '') AS t, count(*) AS n FROM daily_reports").get();
    } finally {
      db.close();
    }
  };
  const before = last();
  const t0 = performance.now();
  const res = await fetch(`${baseUrl}/__scheduled?cron=${encodeURIComponent(DAILY_CRON)}`, { signal: AbortSignal.timeout(CRON_TIMEOUT_MS) });
  await res.text();
  if (!res.ok) throw new Error(`/__scheduled → ${res.status}`);
  while (performance.now() - t0 < CRON_TIMEOUT_MS) {
    onPoll?.();
    const now = last();
    if (now.n > 0 && now.t !== before.t) return { ms: performance.now() - t0 };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("the nightly cron did not finish within 10 minutes");
}
