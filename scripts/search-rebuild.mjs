// `npm run search:rebuild -- [--persist-to DIR] [--if-empty]`
// Rebuilds the local search database (SEARCH_DB, decision 059) from the local call logs: empties the
// index and writes every owned call log's row with the statements the worker uses
// (worker/db/search-index.ts), through node:sqlite, then merges the index into one segment. A call's
// transcript is read from the local R2 bucket (decision 077) unless its row still holds it. With
// --if-empty it does so only when the index is empty while owned call logs exist (the seed's check).
// Production: see docs/decisions/059-transcript-search.md ("Rebuilding").
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { bin, requireNodeSqlite, root, run } from "./lib.mjs";
import { openLocalCallText } from "./local-call-text.mjs";

const CHUNK = 5_000;

/** The local D1 files under a wrangler state directory: the one whose schema has `table` (newest first). */
function d1File(DatabaseSync, stateDir, table) {
  const dir = path.join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")
    .map((f) => path.join(dir, f))
    .filter((file) => {
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        return Boolean(db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(table));
      } finally {
        db.close();
      }
    })
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return files[0] ?? null;
}

/**
 * The rows with their stored transcripts: a row's own column, else `known`'s (the seed's calls: what
 * it just put in R2, null for a call without one), else its R2 object under its account, else under
 * orphans/ (as the worker's storedTranscript reads them), many at a time; without `text`, none.
 */
async function withTranscripts(rows, text, keyOf, known) {
  if (known) rows = rows.map((r) => (r.transcript == null && known.has(r.callId) ? { ...r, transcript: known.get(r.callId) } : r));
  const missing = rows.filter((r) => r.transcript == null && !known?.has(r.callId));
  if (missing.length === 0 || !text) return rows;
  const own = await text.getMany(missing.map((r) => keyOf(r.userId, r.callId)));
  const orphans = await text.getMany(missing.filter((r) => !own.has(keyOf(r.userId, r.callId))).map((r) => keyOf(null, r.callId)));
  const transcript = (body) => {
    const t = body === undefined ? null : JSON.parse(body).transcript;
    return t == null ? null : typeof t === "string" ? t : JSON.stringify(t);
  };
  return rows.map((r) => (r.transcript != null ? r : { ...r, transcript: transcript(own.get(keyOf(r.userId, r.callId)) ?? orphans.get(keyOf(null, r.callId))) }));
}

/**
 * Rebuilds the search index of the local state in `stateDir` (default .wrangler/state), applying the
 * search database's migrations first when it has none. `callText`: the local R2 bucket already open
 * (scripts/local-call-text.mjs), else it is opened here, or false to read no transcript from R2 (a
 * seed that wrote none); `known`: call id → stored transcript (or null) of the calls the caller just
 * wrote, not read back. Returns { calls, ms } or null when skipped.
 */
export async function rebuildLocalSearch({ stateDir = path.join(root, ".wrangler", "state"), ifEmpty = false, log = console.log, callText, known } = {}) {
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
  const persistArgs = stateDir === path.join(root, ".wrangler", "state") ? [] : ["--persist-to", stateDir];
  let searchFile = d1File(DatabaseSync, stateDir, "call_search_docs");
  if (!searchFile) {
    await run(bin("node"), [path.join(root, "scripts/wrangler.mjs"), "d1", "migrations", "apply", "SEARCH_DB", "--local", ...persistArgs], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    searchFile = d1File(DatabaseSync, stateDir, "call_search_docs");
  }
  const mainFile = d1File(DatabaseSync, stateDir, "call_logs");
  if (!searchFile || !mainFile) throw new Error(`no local D1 databases under ${path.relative(root, stateDir) || stateDir}: run npm run db:migrate first`);

  const { tsImport } = await import("tsx/esm/api");
  const si = await tsImport("../worker/db/search-index.ts", import.meta.url);
  const { callTextKey } = await tsImport("../worker/services/call-text.ts", import.meta.url);
  const main = new DatabaseSync(mainFile, { readOnly: true });
  const search = new DatabaseSync(searchFile);
  let opened;
  try {
    if (ifEmpty) {
      const indexed = search.prepare("select exists(select 1 from call_search_docs) as x").get().x;
      const owned = main.prepare("select exists(select 1 from call_logs where user_id is not null) as x").get().x;
      if (indexed || !owned) return null;
    }
    const started = performance.now();
    const text = callText === false ? null : (callText ?? (opened = await openLocalCallText(stateDir)));
    search.exec("PRAGMA synchronous = OFF");
    search.exec("PRAGMA cache_size = -262144");
    const prepared = new Map();
    const prepare = (sql) => {
      let s = prepared.get(sql);
      if (!s) prepared.set(sql, (s = search.prepare(sql)));
      return s;
    };
    search.exec("BEGIN");
    for (const sql of si.CLEAR_STATEMENTS) search.exec(sql);
    search.exec("COMMIT");
    // The mark first: a call log written during the rebuild is then healed by the next cron run.
    const mark = main.prepare("select updated_at as u, id from call_logs order by updated_at desc, id desc limit 1").get();
    const read = main.prepare(`select ${si.SOURCE_COLUMNS} from call_logs where id > ? and user_id is not null order by id limit ?`);
    let after = 0;
    let calls = 0;
    for (;;) {
      const rows = await withTranscripts(read.all(after, CHUNK), text, callTextKey, known);
      if (rows.length === 0) break;
      search.exec("BEGIN");
      for (const json of si.writeChunks(rows.map(si.searchRow))) for (const sql of si.WRITE_STATEMENTS) prepare(sql).run(json);
      search.exec("COMMIT");
      calls += rows.length;
      after = rows[rows.length - 1].id;
      if (process.stdout.isTTY) process.stdout.write(`\r  search index: ${calls.toLocaleString("en-US")}`);
    }
    if (process.stdout.isTTY) process.stdout.write("\r\x1b[K");
    if (mark) search.prepare("update call_search_state set updated_at = ?, call_log_id = ? where id = 1").run(mark.u, mark.id);
    // One segment: the fewest b-trees for each query to read.
    search.exec("insert into call_search(call_search) values ('optimize')");
    search.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const ms = performance.now() - started;
    log(`▸ search index rebuilt: ${calls.toLocaleString("en-US")} calls in ${(ms / 1000).toFixed(1)} s (${path.relative(root, searchFile)})`);
    return { calls, ms, searchFile, mainFile };
  } finally {
    main.close();
    search.close();
    await opened?.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  requireNodeSqlite("npm run search:rebuild", { what: "The rebuild", flag: "SEARCH_REEXEC" });
  const { parseArgs } = await import("node:util");
  const { values } = parseArgs({ options: { "persist-to": { type: "string" }, "if-empty": { type: "boolean", default: false } } });
  const stateDir = values["persist-to"] ? path.resolve(values["persist-to"]) : undefined;
  rebuildLocalSearch({ stateDir, ifEmpty: values["if-empty"] })
    .then((r) => {
      if (!r) console.log("▸ search index: already built (or no owned calls); nothing to do");
    })
    .catch((e) => {
      console.error(`search:rebuild failed: ${e.message}`);
      process.exit(1);
    });
}
