// `npm run bench -- --shards [--accounts N] [--calls-per-account N] [--keep]`
//
// Issue 43, section 5: the same calls in one shard and in four, measured in one run, in process (no
// server), over node:sqlite files in a temporary directory, through the worker's own TypeScript (tsx):
//   1. Two layouts, 1 shard and 4: each a directory (migrations/) and its shards (migrations-shard/).
//   2. The same accounts (200) and calls (500 each over the last 60 days, worker/db/factories.ts) seeded
//      into both. An account goes to the shard with the fewest accounts, round-robin: what placement
//      does while the shards are within one 100 MB step of each other (it picks among equals at
//      random; round-robin keeps them exactly even). Ended calls carry the realistic transcript and
//      summary of bench/realistic-call.mjs; the transcript is an R2 object (decision 077: the row's
//      column is null), counted as R2 bytes, and the summary stays in the row. Each shard's full-text
//      index is written with worker/db/search-index.ts's statements (the transcript included, as the
//      index holds the text it searches), and the worker's roll-up job (runRollups, runHourlyRollups)
//      rolls up every shard through a D1 stand-in over the file that also writes (writableD1).
//   3. Bytes per call in D1 (SQLite's dbstat, bench/storage.mjs) and in R2; each shard's size.
//   4. Every count the dashboard reads from the account's shard (bench/ops.mjs countCases: the call-log
//      counts, the chart's volume, the month of usage statistics) through the worker's services and
//      D1Timer (worker/db/timed-d1.ts) at 0 and at 50 ms per round trip: trips and p50, 1 shard vs 4.
//   5. The roll-up job across every shard at once (as the cron runs it) at 0 and 50 ms per trip.
//   6. Capacity: accounts × calls a day → shards needed for two years under half of D1's 10 GB, and
//      days until the fullest shard reaches half with 4, 20 and 200 shards.
// It reports; it does not gate: a missed target still exits 0.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

// ---- Capacity arithmetic (pure; scripts/bench-shards.test.ts) ---------------------------------------

/** Two years of calls, the issue's horizon. */
export const TWO_YEARS_DAYS = 730;
/** The loads of the capacity table: accounts × calls a day per account. */
export const CAPACITY_LOADS = [
  { accounts: 100, callsPerDay: 50 },
  { accounts: 1_000, callsPerDay: 50 },
  { accounts: 1_000, callsPerDay: 100 },
  { accounts: 10_000, callsPerDay: 100 },
];
/** The shard counts whose days until half full the table shows. */
export const CAPACITY_SHARD_COUNTS = [4, 20, 200];

/**
 * What a shard's growth is made of, measured: `perCall`, D1 bytes of one call (its row with its
 * indexes and its full-text entry); `rollupPerAccountDay`, bytes of an account's daily roll-up rows
 * for one day (a few rows whatever its calls); `shardBase`, an empty shard's bytes.
 */
/** D1 bytes per call at `callsPerDay` calls a day per account: the call's own bytes and its share of the day's roll-up rows. */
export function bytesPerCallAt(model, callsPerDay) {
  return model.perCall + model.rollupPerAccountDay / callsPerDay;
}

/** Accounts on the fullest of `shards` shards, accounts spread evenly. */
export const fullestShardAccounts = (accounts, shards) => Math.ceil(accounts / shards);

/** Bytes the fullest shard gains a day. */
export function fullestShardBytesPerDay(model, { accounts, callsPerDay }, shards) {
  return fullestShardAccounts(accounts, shards) * callsPerDay * bytesPerCallAt(model, callsPerDay);
}

/** Days until the fullest of `shards` shards holds half of `limitBytes`. */
export function daysUntilHalf(model, load, shards, limitBytes) {
  return (limitBytes / 2 - model.shardBase) / fullestShardBytesPerDay(model, load, shards);
}

/** The fewest shards with none past half of `limitBytes` after `days` days (Infinity when one account alone passes it). */
export function shardsNeeded(model, { accounts, callsPerDay }, days, limitBytes) {
  const perAccount = callsPerDay * days * bytesPerCallAt(model, callsPerDay);
  const accountsPerShard = Math.floor((limitBytes / 2 - model.shardBase) / perAccount);
  return accountsPerShard < 1 ? Infinity : Math.ceil(accounts / accountsPerShard);
}

/** One row of the capacity table per load. */
export function capacityRows(model, limitBytes, loads = CAPACITY_LOADS, shardCounts = CAPACITY_SHARD_COUNTS) {
  return loads.map((load) => ({
    ...load,
    bytesPerCall: bytesPerCallAt(model, load.callsPerDay),
    callsInTwoYears: load.accounts * load.callsPerDay * TWO_YEARS_DAYS,
    shardsNeeded: shardsNeeded(model, load, TWO_YEARS_DAYS, limitBytes),
    daysUntilHalf: shardCounts.map((shards) => ({ shards, days: daysUntilHalf(model, load, shards, limitBytes) })),
  }));
}

// ---- Output --------------------------------------------------------------------------------------------

const fmtInt = (n) => Math.round(n).toLocaleString("en-US");
const fmtMs = (ms) => (ms == null ? "–" : ms < 10 ? ms.toFixed(2) : ms.toFixed(1));
const mb = (bytes) => (bytes / 1e6).toFixed(1);
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const days = (d) => (d >= 36_500 ? "over 100 years" : `${fmtInt(d)} d (${(d / 365).toFixed(1)} y)`);

/** A Markdown table, aligned, so it reads in the terminal and pastes into docs as it is. */
function table(headers, rows, alignRight = headers.map((_, i) => i > 0)) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => (alignRight[i] ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (alignRight[i] ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`;
  return [line(headers), rule, ...rows.map(line)].join("\n");
}

const verdict = (ok, text) => console.log(`  ${ok ? "✓ met   " : "✗ missed"}  ${text}`);

// ---- Databases -------------------------------------------------------------------------------------

/** A new SQLite file with D1's page size and the migrations of `dir` (migrations/ or migrations-shard/) applied in order. */
function migratedDatabase(DatabaseSync, file, dir) {
  const db = new DatabaseSync(file);
  db.exec("PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF;");
  const from = path.join(import.meta.dirname, "..", dir);
  for (const f of readdirSync(from).filter((x) => x.endsWith(".sql")).sort()) db.exec(readFileSync(path.join(from, f), "utf8"));
  return db;
}

/**
 * A D1 binding over a node:sqlite database that writes as well as reads (bench/ops.mjs's sqliteD1
 * only reads): a batch is one transaction, as D1's is, and synchronous from BEGIN to COMMIT, so two
 * batches in flight never interleave. Prepared statements are kept per SQL text, as D1 caches them.
 * Each answer's meta.duration is its SQL time in this process (D1Timer sums it as D1's).
 */
function writableD1(db) {
  const prepared = new Map();
  const prepare = (sql) => {
    let s = prepared.get(sql);
    if (!s) prepared.set(sql, (s = db.prepare(sql)));
    return s;
  };
  const values = (params) => params.map((p) => (p === undefined ? null : typeof p === "boolean" ? Number(p) : p));
  const execute = (sql, params) => {
    const s = prepare(sql);
    const t = performance.now();
    if (s.columns().length > 0) {
      const results = s.all(...values(params));
      return { results, meta: { duration: performance.now() - t } };
    }
    const r = s.run(...values(params));
    return { results: [], meta: { duration: performance.now() - t, changes: Number(r.changes), last_row_id: Number(r.lastInsertRowid) } };
  };
  const statement = (sql, params = []) => ({
    sql,
    params,
    bind: (...p) => statement(sql, p),
    all: async () => execute(sql, params),
    run: async () => execute(sql, params),
    first: async (column) => {
      const row = execute(sql, params).results[0] ?? null;
      return row && column ? row[column] : row;
    },
    raw: async (options) => {
      const { results } = execute(sql, params);
      const rows = results.map((r) => Object.values(r));
      return options?.columnNames ? [Object.keys(results[0] ?? {}), ...rows] : rows;
    },
  });
  return {
    prepare: (sql) => statement(sql),
    batch: async (statements) => {
      db.exec("BEGIN");
      try {
        const results = statements.map((s) => execute(s.sql, s.params));
        db.exec("COMMIT");
        return results;
      } catch (e) {
        db.exec("ROLLBACK");
        throw e;
      }
    },
    exec: async (sql) => {
      db.exec(sql);
      return { count: 1, duration: 0 };
    },
  };
}

/** The database's size as D1 counts it: its pages (after the WAL is written back into the file). */
function databaseBytes(db) {
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  return db.prepare("PRAGMA page_count").get().page_count * db.prepare("PRAGMA page_size").get().page_size;
}

// ---- The run ----------------------------------------------------------------------------------------

async function main() {
  const { requireNodeSqlite, cliOptions } = await import("../scripts/lib.mjs");
  requireNodeSqlite("npm run bench -- --shards");
  const { BENCH_MODES } = await import("./modes.mjs");
  const { args, wholeNumber } = cliOptions(BENCH_MODES.shards.options, BENCH_MODES.shards.usage);
  const ACCOUNTS = wholeNumber("accounts", 4, 200);
  const CALLS_PER_ACCOUNT = wholeNumber("calls-per-account", 10, 500);
  const SEED_DAYS = 60;
  const LAYOUTS = [1, 4];
  const RTTS = [0, 50];
  const COUNT_RANGE_DAYS = 30; // the counts' range: the last 30 New York days, today included
  const SAMPLE_ACCOUNTS = Math.min(16, ACCOUNTS); // the accounts the counts are timed on, the same in both layouts
  const RUNS_PER_ACCOUNT = { 0: 12, 50: 2 }; // timed runs of each count per account and layout, by round trip
  const JOB_RUNS = 3; // timed runs of each roll-up, median

  // Taken at run time (checked above): the web test project's bundler cannot bundle node:sqlite.
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
  const { tsImport } = await import("tsx/esm/api");
  const ts = (p) => tsImport(p, import.meta.url);
  const { drizzle } = await import("drizzle-orm/sqlite-proxy");
  const schema = await ts("../worker/db/schema.ts");
  const { Rng, makeCallLog, makeProfile } = await ts("../worker/db/factories.ts");
  const searchIndex = await ts("../worker/db/search-index.ts");
  const { runRollups, runHourlyRollups } = await ts("../worker/jobs/rollups.ts");
  const { D1_DATABASE_LIMIT_BYTES } = await ts("../worker/db/shards.ts");
  const { D1Timer } = await ts("../worker/db/timed-d1.ts");
  const { DbMeter } = await ts("../worker/services/counts/meter.ts");
  const nyTime = await ts("../shared/ny-time.ts");
  const { STORES } = await ts("../shared/constants.ts");
  const { CONNECTED_ENDED_REASONS } = await ts("../shared/call-outcomes.ts");
  const countServices = {
    ...(await ts("../worker/services/counts/call-logs.ts")),
    ...(await ts("../worker/services/counts/month.ts")),
    ...(await ts("../worker/services/insights.ts")),
  };
  const { countCases, percentile, median } = await import("./ops.mjs");
  const { storageTable } = await import("./storage.mjs");
  const { realisticSummary, realisticTranscript } = await import("./realistic-call.mjs");

  const started = Date.now();
  const now = new Date();
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-shards-"));
  const opened = [];
  const open = (file, migrations) => {
    const db = migratedDatabase(DatabaseSync, path.join(dir, file), migrations);
    opened.push(db);
    return db;
  };
  console.log(
    `▸ shards bench: ${fmtInt(ACCOUNTS)} accounts × ${fmtInt(CALLS_PER_ACCOUNT)} calls over the last ${SEED_DAYS} days, ` +
      `layouts of ${LAYOUTS.join(" and ")} shards, in ${dir}; ${os.cpus().length} cores, load ${os.loadavg().map((n) => n.toFixed(2)).join(" ")}, Node ${process.version}`,
  );

  try {
    // ---- 1. The layouts: a directory and its shards, migrated
    const emptyShardBytes = databaseBytes(open("empty-shard.sqlite", "migrations-shard"));
    /** A layout: its directory and shards, each a file, its node:sqlite handle and a D1 stand-in over it. */
    const makeLayout = (count) => {
      const key = `${count}-shard${count > 1 ? "s" : ""}`;
      const directory = open(`${key}-directory.sqlite`, "migrations");
      const shards = Array.from({ length: count }, (_, i) => {
        const db = open(`${key}-SHARD_${i}.sqlite`, "migrations-shard");
        return { name: `SHARD_${i}`, db, d1: writableD1(db), accounts: 0, calls: 0, insert: insertInto(db) };
      });
      for (const s of shards) directory.prepare("INSERT INTO shards (name, open, size_bytes) VALUES (?, 1, 0)").run(s.name);
      return { key, label: `${count} shard${count > 1 ? "s" : ""}`, directory, directoryD1: writableD1(directory), shards, shardOf: new Map() };
    };
    // drizzle's proxy driver turns the factory's rows into the INSERT the app's schema names.
    const insertInto = (db) => drizzle(async (sql, params) => {
      db.prepare(sql).run(...params);
      return { rows: [] };
    }, { schema });
    const layouts = LAYOUTS.map(makeLayout);

    // ---- 2. Accounts and calls, the same in both layouts
    let t0 = Date.now();
    const rng = new Rng(43);
    const window = { fromMs: now.getTime() - SEED_DAYS * 86_400_000, toMs: now.getTime() };
    const firstDay = nyTime.nyDayOf(new Date(window.fromMs));
    const r2 = { objects: 0, bytes: 0 };
    let callNumber = 0;

    /** The account's shard in a layout: the one with the fewest accounts, the first of equals (round-robin). */
    const placeAccount = (layout, profile) => {
      const shard = layout.shards.reduce((a, b) => (b.accounts < a.accounts ? b : a));
      shard.accounts++;
      layout.directory.prepare("INSERT INTO profiles (id, email, username, company, first_name, last_name, shard) VALUES (?, ?, ?, ?, ?, ?, ?)")
        .run(profile.id, profile.email, profile.username, profile.company, profile.firstName, profile.lastName, shard.name);
      layout.shardOf.set(profile.id, shard);
      return shard;
    };

    /** An account's calls as the webhook leaves them: realistic texts on ended calls, the transcript an R2 object (its bytes counted) and not in the row. */
    const callsOf = (userId, agents) => {
      const rows = [];
      const transcripts = new Map();
      for (let k = 0; k < CALLS_PER_ACCOUNT; k++) {
        const row = makeCallLog(rng, { userId, agent: agents[k % agents.length], window, nowMs: now.getTime() });
        if (row.transcript != null) {
          const i = callNumber++;
          const transcript = realisticTranscript(i);
          row.summary = realisticSummary(i);
          transcripts.set(row.callId, transcript);
          r2.objects++;
          r2.bytes += Buffer.byteLength(JSON.stringify({ transcript }));
        }
        row.transcript = null;
        rows.push(row);
      }
      return { rows, transcripts };
    };

    /** Inserts an account's calls into its shard and indexes them (the text from "R2"), in one transaction. */
    const writeCalls = async (shard, userId, { rows, transcripts }) => {
      shard.db.exec("BEGIN");
      for (let i = 0; i < rows.length; i += 500) await shard.insert.insert(schema.callLogs).values(rows.slice(i, i + 500));
      const written = shard.db.prepare(`SELECT ${searchIndex.SOURCE_COLUMNS}, call_id AS callId FROM call_logs WHERE user_id = ?`).all(userId);
      const searchRows = written.map((r) => searchIndex.searchRow({ ...r, transcript: transcripts.get(r.callId) ?? null }));
      for (const json of searchIndex.writeChunks(searchRows)) for (const sql of searchIndex.WRITE_STATEMENTS) shard.db.prepare(sql).run(json);
      shard.db.exec("COMMIT");
      shard.calls += rows.length;
    };

    for (let a = 0; a < ACCOUNTS; a++) {
      const profile = makeProfile(rng, { email: `account-${a}@bench.test` });
      const store = STORES[a % STORES.length];
      const agents = ["inbound", "outbound"].map((type, i) => ({ id: 2 * a + i + 1, vapiAssistantId: rng.uuid(), store, type }));
      const calls = callsOf(profile.id, agents);
      for (const layout of layouts) await writeCalls(placeAccount(layout, profile), profile.id, calls);
      if ((a + 1) % 50 === 0) console.log(`  … ${fmtInt(a + 1)} accounts seeded (${secs(Date.now() - t0)})`);
    }
    for (const layout of layouts) {
      for (const s of layout.shards) {
        const mark = s.db.prepare("SELECT updated_at AS u, id FROM call_logs ORDER BY updated_at DESC, id DESC LIMIT 1").get();
        if (mark) s.db.prepare("UPDATE call_search_state SET updated_at = ?, call_log_id = ? WHERE id = 1").run(mark.u, mark.id);
      }
    }
    const totalCalls = ACCOUNTS * CALLS_PER_ACCOUNT;
    console.log(`  seeded ${fmtInt(totalCalls)} calls into each layout, indexed for search, in ${secs(Date.now() - t0)}`);

    /** The roll-up job's context over a layout: the directory and every shard, each through its own timer when `timers` are given. */
    const jobContext = (layout, timers) => ({
      db: { $client: timers ? timers.directory.wrap(layout.directoryD1) : layout.directoryD1 },
      now,
      shards: layout.shards.map((s, i) => ({ name: s.name, db: { $client: timers ? timers.shards[i].wrap(s.d1) : s.d1 } })),
    });
    for (const layout of layouts) {
      t0 = Date.now();
      await runRollups(jobContext(layout), { backfillFrom: firstDay });
      await runHourlyRollups(jobContext(layout));
      console.log(`  ${layout.label}: first roll-up run (every day since ${firstDay}) and the intraday roll-up in ${secs(Date.now() - t0)}`);
    }

    // ---- 3. Bytes per call in D1 and in R2; each shard's size
    const GROUPS = [
      ["call_logs and its indexes", (t) => t === "call_logs"],
      ["full-text index (call_search*)", (t) => t.startsWith("call_search")],
      ["daily roll-ups", (t) => t === "call_log_daily" || t === "call_log_user_daily"],
      ["intraday roll-ups (2 days kept)", (t) => t === "call_log_hourly" || t === "call_log_user_hourly"],
      ["change log (1 day kept) and the rest", () => true],
    ];
    /** A shard's bytes by group (dbstat: tables with their indexes), its file's size and its daily roll-up's account-days. */
    const measureShard = (s) => {
      const bytes = databaseBytes(s.db);
      const groups = GROUPS.map(() => 0);
      for (const r of storageTable(s.db)) groups[GROUPS.findIndex(([, test]) => test(r.table))] += r.tableBytes + r.indexBytes;
      const accountDays = s.db.prepare("SELECT count(*) AS n FROM (SELECT DISTINCT user_id, day FROM call_log_user_daily)").get().n;
      return { bytes, groups, accountDays };
    };
    for (const layout of layouts) {
      for (const s of layout.shards) s.size = measureShard(s);
      layout.total = {
        bytes: layout.shards.reduce((n, s) => n + s.size.bytes, 0),
        groups: GROUPS.map((_, i) => layout.shards.reduce((n, s) => n + s.size.groups[i], 0)),
        accountDays: layout.shards.reduce((n, s) => n + s.size.accountDays, 0),
      };
      layout.directoryBytes = databaseBytes(layout.directory);
    }
    console.log(`\n## Bytes per call: ${fmtInt(totalCalls)} calls of ${fmtInt(ACCOUNTS)} accounts (dbstat, page 4,096 bytes; every shard of the layout summed)\n`);
    console.log(
      table(
        ["D1, in the shards", ...layouts.flatMap((l) => [`${l.label}: MB`, `${l.label}: bytes per call`])],
        [
          ...GROUPS.map(([name], i) => [name, ...layouts.flatMap((l) => [mb(l.total.groups[i]), fmtInt(l.total.groups[i] / totalCalls)])]),
          ["whole files (SQLite's own pages and free space included)", ...layouts.flatMap((l) => [mb(l.total.bytes), fmtInt(l.total.bytes / totalCalls)])],
        ],
      ),
    );
    const content = layouts[0].shards[0].db.prepare("SELECT sum(pgsize) AS bytes, sum(unused) AS unused FROM dbstat WHERE name = 'call_search_content'").get();
    console.log(
      `\nOf the full-text index (${layouts[0].label}), its copy of the texts (call_search_content) takes ${fmtInt(content.bytes / totalCalls)} bytes per call, ` +
        `${fmtInt(content.unused / totalCalls)} of them free space inside its pages (a summary and transcript of ~2 KB fit one to a 4 KB page)`,
    );
    console.log(
      `\nR2: ${fmtInt(r2.objects)} transcript objects (one per ended call) of ${fmtInt(r2.bytes / r2.objects)} bytes each, ` +
        `${fmtInt(r2.bytes / totalCalls)} bytes per call; ${mb(r2.bytes)} MB in all (the same in both layouts; R2 has no database limit)`,
    );
    console.log(`Directory (profiles and the shard map only here; it does not grow with calls): ${layouts.map((l) => `${l.label} ${mb(l.directoryBytes)} MB`).join(", ")}`);

    console.log("\n## Each shard's size\n");
    console.log(
      table(
        ["layout", "shard", "accounts", "calls", "MB", "call_logs MB", "full-text MB", "roll-ups MB", "bytes per call"],
        layouts.flatMap((l) =>
          l.shards.map((s) => [l.label, s.name, fmtInt(s.accounts), fmtInt(s.calls), mb(s.size.bytes), mb(s.size.groups[0]), mb(s.size.groups[1]), mb(s.size.groups[2] + s.size.groups[3]), fmtInt(s.size.bytes / s.calls)]),
        ),
        [false, false, true, true, true, true, true, true, true],
      ),
    );
    const one = layouts[0].total;
    const callLogsPerCall = one.groups[0] / totalCalls;
    const d1PerCall = (one.groups[0] + one.groups[1] + one.groups[2]) / totalCalls;
    console.log("\nD1 per call, target ≤ 1,300 bytes (issue 43, section 4):");
    verdict(callLogsPerCall <= 1300, `the call's row with its indexes: ${fmtInt(callLogsPerCall)} bytes`);
    verdict(d1PerCall <= 1300, `with its full-text entry (the transcript's words are in the index) and its roll-up share: ${fmtInt(d1PerCall)} bytes`);

    // ---- 4. The dashboard's counts on the account's shard, 1 shard vs 4, at 0 and 50 ms per round trip
    const today = nyTime.nyToday(now);
    const start = nyTime.addDays(today, -(COUNT_RANGE_DAYS - 1));
    const month = nyTime.nyMonthRange(now);
    const sample = [...layouts[0].shardOf.keys()].slice(0, SAMPLE_ACCOUNTS);
    /** The counts that read the account's shard (bench/ops.mjs countCases: "own calls"), for one account. */
    const casesOf = (userId) =>
      countCases(
        {
          start,
          end: today,
          startUtc: nyTime.nyDayBounds(start).startUtc,
          endUtc: nyTime.nyDayBounds(today).endUtc,
          staffId: userId,
          monthStartUtc: month.start,
          monthEndUtc: month.end,
          connected: CONNECTED_ENDED_REASONS,
        },
        countServices,
      ).filter((c) => c.flag.startsWith("own calls"));
    const cases = sample.map(casesOf);
    const caseNames = cases[0].map((c) => `GET ${c.path.split("?")[0]}`);
    /** One count for one account on its shard, as a request runs it: a new D1Timer, a meter over the shard named as the worker names it. */
    const countOnce = async (layout, accountIndex, caseIndex, rttMs) => {
      const shard = layout.shardOf.get(sample[accountIndex]);
      const timer = new D1Timer({ rttMs });
      // The coverage an isolate remembers is kept per database name: one name per layout's shard.
      const meter = new DbMeter(timer.wrap(shard.d1), `${layout.key}/${shard.name}`);
      const t = performance.now();
      await cases[accountIndex][caseIndex].service(meter);
      return { ms: performance.now() - t, trips: timer.trips };
    };
    // Warm, as a signed-in isolate is (the sign-in's batch reads each shard's coverage): every count once on every shard.
    for (const layout of layouts) {
      for (let a = 0; a < sample.length; a++) for (let c = 0; c < caseNames.length; c++) await countOnce(layout, a, c, 0);
    }
    const counts = [];
    for (const rtt of RTTS) {
      console.log(
        `\n▸ counts at ${rtt} ms per round trip: ${RUNS_PER_ACCOUNT[rtt]} runs per count, account and layout over ${sample.length} accounts, ` +
          "account after account, the layouts taking turns",
      );
      for (let c = 0; c < caseNames.length; c++) {
        const byLayout = layouts.map(() => ({ ms: [], trips: [] }));
        // Account after account, not a new account (and in 4 shards a new SQLite connection) every run:
        // switching among 4 connections at every run costs this one process ~15 % of a 0.2 ms count
        // (none when the runs stay on one shard), a cost D1, each shard its own database, does not have.
        for (let a = 0; a < sample.length; a++) {
          for (let i = 0; i < RUNS_PER_ACCOUNT[rtt]; i++) {
            for (let l = 0; l < layouts.length; l++) {
              const r = await countOnce(layouts[l], a, c, rtt);
              byLayout[l].ms.push(r.ms);
              byLayout[l].trips.push(r.trips);
            }
          }
        }
        const figures = byLayout.map((b) => ({
          p50: percentile([...b.ms].sort((x, y) => x - y), 50),
          trips: median(b.trips),
          tripsVary: Math.min(...b.trips) !== Math.max(...b.trips),
        }));
        counts.push({ name: caseNames[c], rtt, figures });
      }
    }
    console.log(`\n## Dashboard counts on the account's shard (${start} – ${today}; usage statistics: this month), ${layouts.map((l) => l.label).join(" vs ")}\n`);
    console.log("   trips = sequential D1 round trips (D1Timer, median; * when runs differ); p50 = the service's time in process, simulated round trips included\n");
    console.log(
      table(
        ["count", "ms per trip", ...layouts.flatMap((l) => [`${l.label}: trips`, `${l.label}: p50 ms`]), "p50 change"],
        counts.map((r) => [
          r.name,
          r.rtt,
          ...r.figures.flatMap((f) => [`${f.trips}${f.tripsVary ? "*" : ""}`, fmtMs(f.p50)]),
          `${r.figures[1].p50 >= r.figures[0].p50 ? "+" : ""}${((r.figures[1].p50 / r.figures[0].p50 - 1) * 100).toFixed(1)} %`,
        ]),
        [false, true, true, true, true, true, true],
      ),
    );
    console.log(`\nCounts, ${layouts[1].label} against ${layouts[0].label}: the same trips, p50 within 10 %`);
    for (const r of counts) {
      const [a, b] = r.figures;
      verdict(a.trips === b.trips && !a.tripsVary && !b.tripsVary, `${r.name} at ${r.rtt} ms: trips ${a.trips} and ${b.trips}`);
      verdict(Math.abs(b.p50 / a.p50 - 1) <= 0.1, `${r.name} at ${r.rtt} ms: p50 ${fmtMs(a.p50)} and ${fmtMs(b.p50)} ms`);
    }

    // ---- 5. The roll-up job across every shard, 1 shard vs 4, at 0 and 50 ms per round trip
    /**
     * A job over the directory and every shard of the layout at once, as the cron runs it (median of
     * JOB_RUNS): its time, and per database (each its own D1Timer) the sequential round trips and the
     * SQL time: the directory's, the most of any shard, the shards' sum and the slowest shard's.
     */
    const timeJob = async (job, layout, rttMs) => {
      const runs = [];
      for (let i = 0; i < JOB_RUNS; i++) {
        const timers = { directory: new D1Timer({ rttMs }), shards: layout.shards.map(() => new D1Timer({ rttMs })) };
        const t = performance.now();
        await job(jobContext(layout, timers));
        runs.push({
          ms: performance.now() - t,
          directoryTrips: timers.directory.trips,
          shardTrips: Math.max(...timers.shards.map((x) => x.trips)),
          shardSqlSum: timers.shards.reduce((n, x) => n + x.sqlMs, 0),
          shardSqlMax: Math.max(...timers.shards.map((x) => x.sqlMs)),
        });
      }
      const mid = (key) => median(runs.map((r) => r[key]));
      return { ms: mid("ms"), directoryTrips: mid("directoryTrips"), shardTrips: mid("shardTrips"), shardSqlSum: mid("shardSqlSum"), shardSqlMax: mid("shardSqlMax") };
    };
    const JOBS = [
      ["nightly roll-up (runRollups: the last 3 days)", (ctx) => runRollups(ctx)],
      ["intraday roll-up (runHourlyRollups)", (ctx) => runHourlyRollups(ctx)],
    ];
    const jobs = [];
    console.log("");
    for (const [name, job] of JOBS) {
      for (const rtt of RTTS) {
        const row = { name, rtt, layouts: [] };
        for (const layout of layouts) row.layouts.push(await timeJob(job, layout, rtt));
        jobs.push(row);
        console.log(`▸ ${name} at ${rtt} ms: ${row.layouts.map((x, i) => `${layouts[i].label} ${fmtMs(x.ms)} ms`).join("; ")}`);
      }
    }
    console.log(`\n## The roll-up job over the directory and every shard at once (shardOutcomes, as the cron runs it; median of ${JOB_RUNS}), ${layouts.map((l) => l.label).join(" vs ")}\n`);
    console.log("   ms = the whole job, in this one process (SQLite runs one statement at a time here; D1 runs each shard's database apart);");
    console.log("   trips = sequential round trips of the directory (the store network's roll-ups) and of each shard (the most of any);");
    console.log("   shard SQL = the shards' SQL time in all, and the slowest shard's: what each shard's database spends, at once on D1\n");
    console.log(
      table(
        ["job", "ms per trip", ...layouts.flatMap((l) => [`${l.label}: ms`, `${l.label}: trips directory / shard`, `${l.label}: shard SQL ms, all / slowest`])],
        jobs.map((r) => [
          r.name,
          r.rtt,
          ...r.layouts.flatMap((x) => [fmtMs(x.ms), `${x.directoryTrips} / ${x.shardTrips}`, `${fmtMs(x.shardSqlSum)} / ${fmtMs(x.shardSqlMax)}`]),
        ]),
        [false, true, true, true, true, true, true, true],
      ),
    );

    // ---- 6. Capacity
    const model = {
      perCall: (one.groups[0] + one.groups[1]) / totalCalls,
      rollupPerAccountDay: one.groups[2] / one.accountDays,
      shardBase: emptyShardBytes,
    };
    const rows = capacityRows(model, D1_DATABASE_LIMIT_BYTES);
    console.log(`\n## Capacity: D1 stops a database at ${fmtInt(D1_DATABASE_LIMIT_BYTES / 1e9)} GB; a shard is "half full" at ${fmtInt(D1_DATABASE_LIMIT_BYTES / 2e9)} GB\n`);
    console.log(
      `   measured: ${fmtInt(model.perCall)} bytes per call (row, indexes, full-text entry) + ${fmtInt(model.rollupPerAccountDay)} bytes of daily roll-ups ` +
        `per account and day (${fmtInt(one.accountDays)} account-days), an empty shard ${fmtInt(model.shardBase / 1000)} KB; accounts spread evenly;`,
    );
    console.log("   the change log (a day) and the intraday roll-ups (two days) stay bounded and are left out; transcripts are in R2\n");
    console.log(
      table(
        ["accounts", "calls a day each", "bytes per call", "calls in 2 years", "shards needed (≤ half, 2 years)", ...CAPACITY_SHARD_COUNTS.map((n) => `days to half, ${n} shards`)],
        rows.map((r) => [fmtInt(r.accounts), fmtInt(r.callsPerDay), fmtInt(r.bytesPerCall), fmtInt(r.callsInTwoYears), fmtInt(r.shardsNeeded), ...r.daysUntilHalf.map((d) => days(d.days))]),
      ),
    );
    const target = rows.find((r) => r.accounts === 1_000 && r.callsPerDay === 100);
    const held = daysUntilHalf(model, target, target.shardsNeeded, D1_DATABASE_LIMIT_BYTES);
    console.log("\nTarget (issue 43, section 5):");
    verdict(
      held >= TWO_YEARS_DAYS,
      `1,000 accounts × 100 calls a day for two years (${fmtInt(target.callsInTwoYears)} calls) on ${target.shardsNeeded} shards: ` +
        `the fullest reaches half of 10 GB after ${days(held)} (≥ ${TWO_YEARS_DAYS} d); the directory does not grow with calls`,
    );
    const tenThousand = rows.find((r) => r.accounts === 10_000);
    console.log(`  –         10,000 accounts × 100 calls a day: ${fmtInt(tenThousand.shardsNeeded)} shards for two years (a Worker binds about 5,000 databases)`);
    console.log(`\n(${secs(Date.now() - started)} in all; load ${os.loadavg().map((n) => n.toFixed(2)).join(" ")})`);
    if (args.keep) console.log(`databases kept in ${dir}`);
  } finally {
    for (const db of opened) db.close();
    if (!args.keep) rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
