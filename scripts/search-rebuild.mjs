// `npm run search:rebuild -- [--persist-to DIR] [--if-empty]`
// Rebuilds the local search database (SEARCH_DB, decision 059) from the local call logs: empties the
// index and writes every owned call log's row with the statements the worker uses
// (worker/db/search-index.ts), through node:sqlite, then merges the index into one segment. With
// --if-empty it does so only when the index is empty while owned call logs exist (the seed's check).
// Production: see docs/decisions/059-transcript-search.md ("Rebuilding").
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { bin, requireNodeSqlite, root, run } from "./lib.mjs";

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
 * Rebuilds the search index of the local state in `stateDir` (default .wrangler/state), applying the
 * search database's migrations first when it has none. Returns { calls, ms } or null when skipped.
 */
export async function rebuildLocalSearch({ stateDir = path.join(root, ".wrangler", "state"), ifEmpty = false, log = console.log } = {}) {
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
  const main = new DatabaseSync(mainFile, { readOnly: true });
  const search = new DatabaseSync(searchFile);
  try {
    if (ifEmpty) {
      const indexed = search.prepare("select exists(select 1 from call_search_docs) as x").get().x;
      const owned = main.prepare("select exists(select 1 from call_logs where user_id is not null) as x").get().x;
      if (indexed || !owned) return null;
    }
    const started = performance.now();
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
      const rows = read.all(after, CHUNK);
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
