// `node bench/storage.mjs [--calls N]` (or through `npm run bench`, which prints storageTable of its database)
//
// Bytes on disk per row, indexes included, measured by SQLite itself: the `dbstat` virtual table gives
// every table's and index's pages (payload, b-tree overhead and free space inside the pages), summed
// per table with all of its indexes and divided by its rows. The page is D1's (4,096 bytes).
//
// Run alone, it builds a shard from migrations-shard/ (decision 076) in a temporary file with N call
// logs (20,000) as the seed makes them (worker/db/factories.ts: mixed directions, outcomes and
// stores), each ended call carrying the realistic transcript and summary of bench/realistic-call.mjs
// (~1,840 + ~175 characters; the seed's own are 3-9 turns), indexes them in the shard's full-text
// index (decision 059) as the worker does, and prints bytes per call: in the shard's D1, call_logs
// with its indexes and, apart, the search index; in R2, the transcript object per call (decision 077;
// its JSON body's bytes), the row keeping the summary. A row written before the move, with its
// transcript in D1, is measured too, for comparison. Target: at most 1,300 bytes of call_logs in D1
// per realistic call, indexes included.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { bin, root } from "../scripts/lib.mjs";

/**
 * Every table of the open node:sqlite database `db`: rows, bytes of the table and of its indexes (from
 * dbstat) and bytes per row. `tables` narrows it; D1's own bookkeeping (`_cf_*`, `d1_migrations`) and
 * SQLite's are left out.
 */
export function storageTable(db, tables) {
  const owner = new Map(db.prepare("select name, tbl_name from sqlite_schema where type in ('table', 'index')").all().map((r) => [r.name, r.tbl_name]));
  const bytes = new Map();
  for (const { name, size } of db.prepare("select name, sum(pgsize) as size from dbstat group by name").all()) {
    const table = owner.get(name) ?? name;
    const b = bytes.get(table) ?? { table: 0, indexes: 0 };
    if (table === name) b.table += size;
    else b.indexes += size;
    bytes.set(table, b);
  }
  const names = (tables ?? [...bytes.keys()]).filter((t) => bytes.has(t) && !/^(sqlite_|_cf_|d1_migrations)/.test(t));
  return names
    .map((t) => {
      const rows = db.prepare(`select count(*) as n from "${t}"`).get().n;
      const b = bytes.get(t);
      return { table: t, rows, tableBytes: b.table, indexBytes: b.indexes, perRow: rows ? (b.table + b.indexes) / rows : null };
    })
    .sort((a, b) => b.tableBytes + b.indexBytes - (a.tableBytes + a.indexBytes));
}

/**
 * A call log row's text as the app stores it (decision 077): the transcript leaves the row for an R2
 * object (its body, the JSON the worker's putCallText writes). Returns the object's bytes (0 without
 * a transcript); the row's column is null afterwards.
 */
export function moveTextToR2(row) {
  if (row.transcript == null) return 0;
  const bytes = Buffer.byteLength(JSON.stringify({ transcript: row.transcript }));
  row.transcript = null;
  return bytes;
}

/** D1's limit per call that issue 43 sets: a realistic call's row with its indexes. */
export const D1_BYTES_PER_CALL_TARGET = 1300;

/**
 * The shard's full-text index (decision 059: the FTS5 table's own tables, call_search_docs and its
 * index, call_search_state), as storageTable rows of `db`: every table named call_search*.
 */
export function searchIndexTables(db) {
  return storageTable(db).filter((r) => r.table.startsWith("call_search"));
}

/** The D1 page size, and a shard's schema (migrations-shard/, where call logs live) applied in order, into a new database at `file`. */
function migratedDatabase(DatabaseSync, file) {
  const db = new DatabaseSync(file);
  db.exec("PRAGMA page_size = 4096; PRAGMA journal_mode = WAL;");
  const dir = path.join(root, "migrations-shard");
  for (const f of readdirSync(dir).filter((x) => x.endsWith(".sql")).sort()) db.exec(readFileSync(path.join(dir, f), "utf8"));
  return db;
}

async function main() {
  const { parseArgs } = await import("node:util");
  const { values } = parseArgs({ options: { calls: { type: "string", default: "20000" } } });
  const calls = Number(values.calls);
  if (!Number.isInteger(calls) || calls < 1000) {
    console.error("--calls takes a whole number of at least 1,000");
    process.exit(2);
  }
  // Taken at run time (checked below): the web test project's bundler cannot bundle node:sqlite.
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
  const { tsImport } = await import("tsx/esm/api");
  const { drizzle } = await import("drizzle-orm/sqlite-proxy");
  const schema = await tsImport("../worker/db/schema.ts", import.meta.url);
  const { Rng, makeCallLog } = await tsImport("../worker/db/factories.ts", import.meta.url);
  const si = await tsImport("../worker/db/search-index.ts", import.meta.url);
  const { realisticSummary, realisticTranscript } = await import("./realistic-call.mjs");

  const dir = mkdtempSync(path.join(os.tmpdir(), "storage-"));
  try {
    const measure = (label, realistic, textInR2) => {
      const db = migratedDatabase(DatabaseSync, path.join(dir, `${label}.sqlite`));
      // drizzle's proxy driver turns the factory's rows into the INSERT the app's schema names.
      const proxy = drizzle(async (sql, params) => {
        db.prepare(sql).run(...params);
        return { rows: [] };
      }, { schema });
      // Ids as long as the app's: a UUID user (the identity's), numbered agents with UUID assistants.
      const userId = "6f1c2d3e-4b5a-4c6d-8e7f-901234567890";
      const rng = new Rng(24);
      const agents = ["inbound", "outbound"].map((type, i) => ({ id: i + 1, vapiAssistantId: `0b9e${i}c1a-7d2f-4e3b-9a8c-5f6e7d8c9b0a`, store: "MIAMI", type }));
      const now = Date.now();
      const window = { fromMs: now - 90 * 86_400_000, toMs: now - 86_400_000 };
      let textBytes = 0;
      let r2Bytes = 0;
      let objects = 0;
      /** Call id → the transcript moved to R2: the index reads it from there (as the worker's storedTranscript does). */
      const inR2 = new Map();
      return (async () => {
        db.exec("BEGIN");
        for (let i = 0; i < calls; i += 500) {
          const rows = [];
          for (let k = i; k < Math.min(calls, i + 500); k++) {
            const row = makeCallLog(rng, { userId, agent: agents[k % 2], window });
            if (realistic && row.transcript != null) {
              row.transcript = realisticTranscript(k);
              row.summary = realisticSummary(k);
            }
            textBytes += Buffer.byteLength(row.transcript ?? "") + Buffer.byteLength(row.summary ?? "");
            if (textInR2) {
              if (row.transcript != null) inR2.set(row.callId, row.transcript);
              const bytes = moveTextToR2(row);
              r2Bytes += bytes;
              objects += bytes > 0 ? 1 : 0;
            }
            rows.push(row);
          }
          await proxy.insert(schema.callLogs).values(rows);
        }
        db.exec("COMMIT");
        // The shard's search index of these calls, written with the worker's statements and merged into
        // one segment, as scripts/search-rebuild.mjs leaves it.
        const read = db.prepare(`select ${si.SOURCE_COLUMNS} from call_logs where id > ? order by id limit 2000`);
        for (let after = 0; ; ) {
          const sources = read.all(after).map((r) => (r.transcript == null && inR2.has(r.callId) ? { ...r, transcript: inR2.get(r.callId) } : r));
          if (sources.length === 0) break;
          db.exec("BEGIN");
          for (const json of si.writeChunks(sources.map(si.searchRow))) for (const sql of si.WRITE_STATEMENTS) db.prepare(sql).run(json);
          db.exec("COMMIT");
          after = sources[sources.length - 1].id;
        }
        db.exec("insert into call_search(call_search) values ('optimize')");
        db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        const [row] = storageTable(db, ["call_logs"]);
        const searchTables = searchIndexTables(db);
        const indexBytes = searchTables.reduce((n, t) => n + t.tableBytes + t.indexBytes, 0);
        db.close();
        return {
          ...row,
          textPerRow: textBytes / calls,
          searchPerRow: indexBytes / calls,
          searchTables,
          r2PerRow: r2Bytes / calls,
          r2PerObject: objects ? r2Bytes / objects : 0,
        };
      })();
    };
    const seedLike = await measure("seed", false, true);
    const full = await measure("realistic", true, true);
    const before = await measure("realistic-in-d1", true, false);
    const kb = (n) => `${(n / 1024).toFixed(2)} KB`;
    console.log(
      `One shard's D1 (migrations-shard/), ${calls.toLocaleString("en-US")} calls over 90 days, page 4,096 bytes (dbstat): call_logs (table + its indexes) and, apart, ` +
        `the shard's full-text index of those calls (call_search*); R2: the transcript objects' bodies\n`,
    );
    console.log("| transcripts | transcript + summary per call | call_logs table per call | call_logs indexes per call | call_logs per call (D1) | search index per call (D1) | R2 bytes per call (per object) |");
    console.log("|---|--:|--:|--:|--:|--:|--:|");
    for (const [label, r] of [
      ["as the seed makes them, transcript in R2", seedLike],
      ["realistic (bench/realistic-call.mjs) on ended calls, transcript in R2", full],
      ["realistic, transcript in the row (a row written before decision 077)", before],
    ]) {
      const r2 = r.r2PerRow ? `${Math.round(r.r2PerRow)} B (${Math.round(r.r2PerObject)} B)` : "0 B";
      console.log(
        `| ${label} | ${Math.round(r.textPerRow)} B | ${Math.round(r.tableBytes / r.rows)} B | ${Math.round(r.indexBytes / r.rows)} B | ${Math.round(r.perRow)} B (${kb(r.perRow)}) | ${Math.round(r.searchPerRow)} B (${kb(r.searchPerRow)}) | ${r2} |`,
      );
    }
    const ok = full.perRow <= D1_BYTES_PER_CALL_TARGET;
    console.log(`\nD1 call_logs per realistic call: ${Math.round(full.perRow)} B, ${ok ? "within" : "OVER"} the target of ${D1_BYTES_PER_CALL_TARGET.toLocaleString("en-US")} B (indexes included).`);
    console.log(`The shard's search index per realistic call: ${Math.round(full.searchPerRow)} B more in the same D1 (${Math.round(full.perRow + full.searchPerRow)} B per call in all); R2: ${Math.round(full.r2PerRow)} B per call.`);
    const parts = full.searchTables.map((t) => `${t.table} ${Math.round((t.tableBytes + t.indexBytes) / calls)} B`);
    console.log(`  its tables per realistic call: ${parts.join(", ")} (call_search_content is FTS5's copy of the indexed text, which snippets read).`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // node:sqlite needs Node 22: a bare `node` may be older; the project's own is in node_modules/.bin.
  if (!process.getBuiltinModule?.("node:sqlite")) {
    if (process.env.STORAGE_REEXEC) {
      console.error(`bench/storage.mjs needs Node 22 or later (node:sqlite); this is Node ${process.version}`);
      process.exit(1);
    }
    const child = spawnSync(bin("node"), process.argv.slice(1), { stdio: "inherit", env: { ...process.env, STORAGE_REEXEC: "1" } });
    process.exit(child.status ?? 1);
  }
  process.removeAllListeners("warning");
  await main();
}
