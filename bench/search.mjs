// `npm run bench -- --search [--calls N]` or `node bench/search.mjs [--calls N] [--requests N] [--keep] [--no-build]`
//
// Transcript and summary search (decision 059) at scale: seeds a throwaway local D1 with N call logs
// (default 200,000; the seed's calls carry the factories' transcripts and summaries), builds the
// search index from them (scripts/search-rebuild.mjs, the statements the worker writes), serves it
// with `wrangler dev`, signs in the demo staff account (which owns most calls) and times
// GET /api/call-logs/search for a common word, a rare word and a phone number: p50/p95 of the
// request's database time from Server-Timing (`db-wait`: every D1 round trip of the request) and of
// the whole request on loopback. In the same run, on the same files through node:sqlite, the same
// search by the FTS5 index against a `LIKE '%word%'` scan of the account's call logs, newest first
// (the ratio), the query plans, and the index's size per call.
import os from "node:os";
import { BENCH_MODES } from "./modes.mjs";
import { cliOptions, requireNodeSqlite } from "../scripts/lib.mjs";
import { exitOnStopSignals, throwawayApp } from "../scripts/local-app.mjs";
import { rebuildLocalSearch } from "../scripts/search-rebuild.mjs";
import { accountShardFile, localD1, parseServerTiming, percentile } from "./ops.mjs";

requireNodeSqlite("npm run bench -- --search");

const TARGET_P95_MS = 50;
const PAGE = 20;
const DEMO_PASSWORD = "demo-password-1";
const STAFF = "staff@demo.local";
const IN_PROCESS_RUNS = 15;

const { args, wholeNumber } = cliOptions(BENCH_MODES.search.options, BENCH_MODES.search.usage);
const CALLS = wholeNumber("calls", 1000, 200_000);
const REQUESTS = wholeNumber("requests", 5, 60);

const fmt = (ms) => (ms == null ? "-" : ms < 10 ? ms.toFixed(2) : ms.toFixed(1));
const fmtInt = (n) => n.toLocaleString("en-US");

function stats(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/** Times `fn` `runs` times after one warm-up; p50/p95 in ms. */
function timeInProcess(fn, runs = IN_PROCESS_RUNS) {
  fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return stats(times);
}

async function main() {
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
  const { tsImport } = await import("tsx/esm/api");
  const si = await tsImport("../worker/db/search-index.ts", import.meta.url);
  console.log(`▸ search bench: ${fmtInt(CALLS)} call logs, ${REQUESTS} requests per query; ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(2)}`);
  const app = throwawayApp("bench-search", { keep: args.keep });
  exitOnStopSignals(() => app.stop());
  try {
    const assets = await app.servedBuild({ build: !args["no-build"] });
    await app.migrate();
    await app.seed(["--calls", String(CALLS), "--aircall-calls", "0", "--appointments", "0", "--leads", "0", "--days", "365", "--no-search-index", "--call-text", "d1"], { loud: true });
    // A rare word: the seed's conversations come from a few templates, so its rarest words are still in
    // about 1% of calls. One call in ten thousand mentions a warranty claim, as a real call might.
    const files = await localD1(app.stateDir);
    for (const { file } of files.shards) {
      const db = new DatabaseSync(file);
      db.exec("UPDATE call_logs SET summary = coalesce(summary, '') || ' The customer asked about a warranty claim.' WHERE id % 10000 = 7");
      db.close();
    }
    // Seeded with --call-text d1: the transcripts are in the rows, nothing to read from R2.
    const built = await rebuildLocalSearch({ stateDir: app.stateDir, callText: false });
    const directory = new DatabaseSync(files.directory, { readOnly: true });
    const staffId = directory.prepare("select id from profiles where email = ?").get(STAFF).id;
    directory.close();
    // The staff's shard holds its call logs and their index (decision 076): one file, as D1 has it.
    const shardFile = await accountShardFile(app.stateDir, staffId);
    const indexed = built.shards.find((s) => s.file === shardFile)?.calls ?? 0;
    const main = new DatabaseSync(shardFile);
    const search = main;

    // ---- what to look for: chosen from the index's own vocabulary ----
    const staffCalls = main.prepare("select count(*) as n from call_logs where user_id = ?").get(staffId).n;
    search.exec("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, call_search, row)");
    const words = search
      .prepare("select term, doc from temp.vocab where length(term) >= 4 and term glob '[a-z]*' and term not glob 'o[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]*' order by doc desc")
      .all();
    const common = words[0];
    // Rare: in about one call in ten thousand (at least a few), and said in one of the staff's calls.
    const rareTarget = Math.max(3, Math.round(indexed / 10_000));
    const staffToken = si.ownerToken(staffId);
    const staffHas = search.prepare("select 1 from call_search where call_search match ? limit 1");
    const rare = words.find((w) => w.term === "warranti") ??
      [...words].reverse().find((w) => w.doc >= rareTarget && staffHas.get(`owner : "${staffToken}" AND {summary transcript} : "${w.term}"`));
    const phoneRow = main.prepare("select phone_number as p from call_logs where user_id = ? and phone_number is not null order by start_time desc limit 1 offset 500").get(staffId);
    const phone = phoneRow.p.replace(/\D/g, "").slice(-10);
    const cases = [
      { name: `common word "${common.term}" (in ${fmtInt(common.doc)} calls)`, q: common.term, word: common.term },
      // The index holds stems ("warranti"); a person types the word.
      { name: `rare word "${rare.term === "warranti" ? "warranty" : rare.term}" (in ${fmtInt(rare.doc)} calls)`, q: rare.term === "warranti" ? "warranty" : rare.term, word: rare.term === "warranti" ? "warranty" : rare.term },
      { name: `phone number ${phone.replace(/(\d{3})(\d{3})(\d{4})/, "($1) $2-$3")}`, q: phone.replace(/(\d{3})(\d{3})(\d{4})/, "($1) $2-$3"), word: null },
    ];

    // ---- in process: the index's query against a LIKE scan over the same rows ----
    const ftsSql = `SELECT rowid & 2147483647 AS id, snippet(call_search, 2, char(2), char(3), '…', 16) AS s, snippet(call_search, 3, char(2), char(3), '…', 16) AS t FROM call_search WHERE call_search MATCH ?1 ORDER BY rowid DESC LIMIT ?2`;
    const likeSql = `SELECT id FROM call_logs WHERE user_id = ?1 AND (summary LIKE ?2 OR transcript LIKE ?2) ORDER BY start_time DESC, id DESC LIMIT ?3`;
    const likePhoneSql = `SELECT id FROM call_logs WHERE user_id = ?1 AND phone_number LIKE ?2 ORDER BY start_time DESC, id DESC LIMIT ?3`;
    const fts = search.prepare(ftsSql);
    const like = main.prepare(likeSql);
    const likePhone = main.prepare(likePhoneSql);
    for (const c of cases) {
      const match = si.searchMatch(staffId, c.q);
      c.ftsRows = fts.all(match, PAGE + 1).length;
      c.fts = timeInProcess(() => fts.all(match, PAGE + 1));
      const [stmt, pattern] = c.word ? [like, `%${c.word}%`] : [likePhone, `%${phone}%`];
      c.likeRows = stmt.all(staffId, pattern, PAGE + 1).length;
      c.like = timeInProcess(() => stmt.all(staffId, pattern, PAGE + 1), 5);
      c.plan = search.prepare(`EXPLAIN QUERY PLAN ${ftsSql}`).all(match, PAGE + 1).map((r) => r.detail).join("; ");
    }
    const likePlan = main.prepare(`EXPLAIN QUERY PLAN ${likeSql}`).all(staffId, "%x%", PAGE + 1).map((r) => r.detail).join("; ");
    search.exec("DROP TABLE temp.vocab");

    // ---- size: the index's pages (dbstat) and the file per call ----
    const pageSize = search.prepare("PRAGMA page_size").get().page_size;
    const pages = search.prepare("PRAGMA page_count").get().page_count;
    let tables = [];
    try {
      tables = search
        .prepare("select name, sum(pgsize) as bytes from dbstat group by name order by bytes desc")
        .all()
        .filter((r) => r.bytes > 0);
    } catch {
      // dbstat is not compiled into every SQLite
    }
    main.close();
    // The index's own pages in the shard (its FTS5 tables and the docs map), beside the call logs.
    const fileBytes = tables.filter((t) => t.name.startsWith("call_search")).reduce((n, t) => n + t.bytes, 0);

    // ---- through the worker: Server-Timing per request ----
    const { baseUrl } = await app.serve({ assets });
    const signIn = await fetch(`${baseUrl}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: STAFF, password: DEMO_PASSWORD }),
    });
    const token = (await signIn.json()).access_token;
    // The floor: the call-log list's first page (one round trip) in the same run, same server.
    cases.push({ name: "list page (GET /api/call-logs, baseline)", path: `/api/call-logs?limit=${PAGE}`, baseline: true });
    for (const c of cases) {
      const dbWait = [];
      const sqlMs = [];
      const wall = [];
      const trips = new Set();
      for (let i = 0; i < REQUESTS + 3; i++) {
        const t0 = performance.now();
        const url = c.path ?? `/api/call-logs/search?${new URLSearchParams({ q: c.q, limit: String(PAGE) })}`;
        const res = await fetch(`${baseUrl}${url}`, { headers: { authorization: `Bearer ${token}` } });
        const body = await res.json();
        const ms = performance.now() - t0;
        if (!res.ok) throw new Error(`search ${c.q} → ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
        if (i < 3) continue; // warm-up
        const timing = parseServerTiming(res.headers.get("server-timing"));
        dbWait.push(timing.waitMs);
        sqlMs.push(timing.dbMs);
        wall.push(ms);
        trips.add(timing.trips);
        c.results = (body.results ?? body.logs).length;
      }
      c.server = stats(dbWait);
      c.sql = stats(sqlMs);
      c.wall = stats(wall);
      c.trips = [...trips].join("/");
    }

    // ---- report ----
    const lines = [];
    const out = (s = "") => {
      lines.push(s);
      console.log(s);
    };
    out(`\nSearch at ${fmtInt(built.calls)} indexed calls (${fmtInt(staffCalls)} of them the staff account's), index built in ${(built.ms / 1000).toFixed(1)} s`);
    out(`query                                      | results | db-trips | D1 SQL p50 / p95 ms | db-wait p50 / p95 ms | request p50 / p95 ms | FTS in-process p50 | LIKE scan p50 | LIKE / FTS | db-wait p95 ≤ ${TARGET_P95_MS} ms`);
    for (const c of cases) {
      const ratio = c.baseline ? null : c.like.p50 / Math.max(c.fts.p50, 0.001);
      out(
        `${c.name.padEnd(43)}| ${String(c.results).padStart(7)} | ${String(c.trips).padStart(8)} | ${`${fmt(c.sql.p50)} / ${fmt(c.sql.p95)}`.padStart(19)} | ${`${fmt(c.server.p50)} / ${fmt(c.server.p95)}`.padStart(20)} | ${`${fmt(c.wall.p50)} / ${fmt(c.wall.p95)}`.padStart(20)} | ${(c.baseline ? "-" : fmt(c.fts.p50)).padStart(18)} | ${(c.baseline ? "-" : fmt(c.like.p50)).padStart(13)} | ${(ratio === null ? "-" : `${ratio.toFixed(1)}×`).padStart(10)} | ${c.server.p95 <= TARGET_P95_MS ? "met" : "MISSED"}`,
      );
    }
    out(`\nQuery plans: FTS ${cases[0].plan}\n             LIKE ${likePlan}`);
    out(`Index size in the staff's shard: ${(fileBytes / 1024 / 1024).toFixed(1)} MB of ${fmtInt(pages * pageSize)} bytes in pages, ${fmtInt(Math.round(fileBytes / indexed))} bytes per indexed call (${fmtInt(indexed)})`);
    for (const t of tables.filter((x) => x.name.startsWith("call_search")).slice(0, 6)) out(`  ${t.name.padEnd(28)} ${(t.bytes / 1024 / 1024).toFixed(1).padStart(8)} MB  ${fmtInt(Math.round(t.bytes / indexed)).padStart(6)} B/call`);
    out(`(Server-Timing: D1 SQL = D1's own SQL time, db-wait = the time any D1 round trip of the request was in flight, identity included; request = loopback wall time; in-process = node:sqlite on the same files, ${IN_PROCESS_RUNS} FTS / 5 LIKE runs; load ${os.loadavg()[0].toFixed(2)})`);
  } finally {
    await app.stop();
  }
}

main().catch((e) => {
  console.error(`\nsearch bench failed: ${e.stack ?? e.message}`);
  process.exit(1);
});
