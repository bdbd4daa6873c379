// `npm run search:rebuild -- [--persist-to DIR] [--if-empty]`
// Rebuilds the local search index of every shard (decision 059; the index lives in each shard beside
// its call logs, decision 076) from that shard's call logs: empties the index and writes every owned
// call log's row with the statements the worker uses (worker/db/search-index.ts), through
// node:sqlite, then merges the index into one segment. A call's transcript is read from the local R2
// bucket (decision 077) unless its row still holds it. With --if-empty a shard is rebuilt only when
// its index is empty while it holds owned call logs (the seed's check).
// Production: see docs/decisions/059-transcript-search.md ("Rebuilding").
import path from "node:path";
import { requireNodeSqlite, root } from "./lib.mjs";
import { openLocalCallText } from "./local-call-text.mjs";
import { localD1Files } from "./local-d1.mjs";

const CHUNK = 5_000;

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
 * Rebuilds the search index of every shard of the local state in `stateDir` (default
 * .wrangler/state; migrated by npm run db:migrate). `callText`: the local R2 bucket already open
 * (scripts/local-call-text.mjs), else it is opened here when a shard is rebuilt, or false to read no
 * transcript from R2 (a seed that wrote none); `known`: call id → stored transcript (or null) of the
 * calls the caller just wrote, not read back. Returns { calls, ms, shards: [{ name, file, calls, ms }] }
 * for the shards it rebuilt, or null when it rebuilt none.
 */
export async function rebuildLocalSearch({ stateDir = path.join(root, ".wrangler", "state"), ifEmpty = false, log = console.log, callText, known } = {}) {
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
  const modules = await loadModules();
  const files = localD1Files(DatabaseSync, stateDir).shards;
  let opened;
  /** The bucket, opened once for all the shards, on the first that reads from it. */
  const text = async () => (callText === false ? null : (callText ?? (opened ??= await openLocalCallText(stateDir))));
  const done = [];
  try {
    for (const { name, file } of files) {
      const r = await rebuildShard(DatabaseSync, modules, file, { ifEmpty, text, known });
      if (!r) continue;
      done.push({ name, file, ...r });
      log(`▸ search index of ${name} rebuilt: ${r.calls.toLocaleString("en-US")} calls in ${(r.ms / 1000).toFixed(1)} s (${path.relative(root, file)})`);
    }
  } finally {
    await opened?.dispose();
  }
  if (done.length === 0) return null;
  return { calls: done.reduce((n, d) => n + d.calls, 0), ms: done.reduce((n, d) => n + d.ms, 0), shards: done };
}

let modules;
async function loadModules() {
  const { tsImport } = await import("tsx/esm/api");
  modules ??= {
    si: await tsImport("../worker/db/search-index.ts", import.meta.url),
    callTextKey: (await tsImport("../worker/services/call-text.ts", import.meta.url)).callTextKey,
  };
  return modules;
}

/** One shard's index from its own call logs; null when `ifEmpty` and there is nothing to do. */
async function rebuildShard(DatabaseSync, { si, callTextKey }, file, { ifEmpty, text: openText, known }) {
  const shard = new DatabaseSync(file);
  try {
    if (ifEmpty) {
      const indexed = shard.prepare("select exists(select 1 from call_search_docs) as x").get().x;
      const owned = shard.prepare("select exists(select 1 from call_logs where user_id is not null) as x").get().x;
      if (indexed || !owned) return null;
    }
    const started = performance.now();
    const text = await openText();
    shard.exec("PRAGMA synchronous = OFF");
    shard.exec("PRAGMA cache_size = -262144");
    const prepared = new Map();
    const prepare = (sql) => {
      let s = prepared.get(sql);
      if (!s) prepared.set(sql, (s = shard.prepare(sql)));
      return s;
    };
    shard.exec("BEGIN");
    for (const sql of si.CLEAR_STATEMENTS) shard.exec(sql);
    shard.exec("COMMIT");
    // The mark first: a call log written during the rebuild is then healed by the next cron run.
    const mark = shard.prepare("select updated_at as u, id from call_logs order by updated_at desc, id desc limit 1").get();
    const read = shard.prepare(`select ${si.SOURCE_COLUMNS} from call_logs where id > ? and user_id is not null order by id limit ?`);
    let after = 0;
    let calls = 0;
    for (;;) {
      const rows = await withTranscripts(read.all(after, CHUNK), text, callTextKey, known);
      if (rows.length === 0) break;
      shard.exec("BEGIN");
      for (const json of si.writeChunks(rows.map(si.searchRow))) for (const sql of si.WRITE_STATEMENTS) prepare(sql).run(json);
      shard.exec("COMMIT");
      calls += rows.length;
      after = rows[rows.length - 1].id;
      if (process.stdout.isTTY) process.stdout.write(`\r  search index: ${calls.toLocaleString("en-US")}`);
    }
    if (process.stdout.isTTY) process.stdout.write("\r\x1b[K");
    if (mark) shard.prepare("update call_search_state set updated_at = ?, call_log_id = ? where id = 1").run(mark.u, mark.id);
    // One segment: the fewest b-trees for each query to read.
    shard.exec("insert into call_search(call_search) values ('optimize')");
    shard.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    return { calls, ms: performance.now() - started };
  } finally {
    shard.close();
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
