// `npm run seed -- [--calls N] [--aircall-calls N] [--appointments N] [--leads N] [--days N] [--seed N] [--reset] [--no-search-index] [--call-text r2|d1|none] [--persist-to DIR]`
// Fills the local D1 databases (the SQLite files `npm run db:migrate` made: the directory and every
// shard, scripts/local-d1.mjs) with the demo data set of worker/db/seed-data.ts, written directly
// through node:sqlite: prepared statements, one transaction per chunk. The demo accounts are placed on
// different shards (seed-data.ts demoShards) and each account's call logs go to its shard; a call no
// account owns stays in the directory, as the webhook leaves it. The calls' transcripts go to the
// local R2 bucket (CALL_TEXT, decision 077) before their rows, through Miniflare on the same state
// directory. Idempotent: a seeded state is left alone unless --reset, which first removes the demo
// accounts (and all they own, on every shard, their call text too) and the store-network data.
// --call-text: r2 (default, as the app writes them); d1 keeps them in the rows' column, as rows
// written before the move (the search bench, whose index reads them); none writes no transcript
// (benches that never read one: the rows are as small as r2's, and no object costs seeding time).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { bin, cliOptions, root } from "./lib.mjs";
import { openLocalCallText } from "./local-call-text.mjs";
import { localD1Files } from "./local-d1.mjs";
import { migrateAll } from "./migrate.mjs";
import { rebuildLocalSearch } from "./search-rebuild.mjs";

const ROLLUP_TABLES = [
  "call_log_daily",
  "call_log_user_daily",
  "call_log_hourly",
  "call_log_user_hourly",
  "aircall_daily",
  "aircall_number_daily",
  "aircall_user_daily",
  "aircall_all_daily",
  "appointment_begin_daily",
  "appointment_booked_daily",
  "appointment_begin_store_daily",
  "appointment_booked_store_daily",
  "appointment_begin_all_daily",
  "appointment_booked_all_daily",
  "appointment_upcoming_daily",
  "appointment_upcoming_all_daily",
  "lead_daily",
  "rollup_dirty_days",
  "rollup_state",
  "rollup_hour_state",
];

// node:sqlite needs Node 22; `npm run` puts the project's Node 22 first on PATH, a bare `node` may not.
if (!process.getBuiltinModule?.("node:sqlite")) {
  if (process.env.SEED_REEXEC) {
    console.error(`The seed needs Node 22 or later (node:sqlite); this is Node ${process.version}. Run it with: npm run seed`);
    process.exit(1);
  }
  const child = spawnSync(bin("node"), process.argv.slice(1), { stdio: "inherit", env: { ...process.env, SEED_REEXEC: "1" } });
  process.exit(child.status ?? 1);
}

const CHUNK_ROWS = 5_000;

const { args, wholeNumber } = cliOptions(
  {
    calls: { type: "string" },
    "aircall-calls": { type: "string" },
    appointments: { type: "string" },
    leads: { type: "string" },
    days: { type: "string" },
    seed: { type: "string" },
    reset: { type: "boolean", default: false },
    "persist-to": { type: "string" },
    // The bench builds (and times) the search index itself.
    "no-search-index": { type: "boolean", default: false },
    "call-text": { type: "string", default: "r2" },
  },
  "npm run seed -- [--calls N] [--aircall-calls N] [--appointments N] [--leads N] [--days N] [--seed N] [--reset] [--no-search-index] [--call-text r2|d1|none] [--persist-to DIR]",
);
const callTextMode = args["call-text"];
if (!["r2", "d1", "none"].includes(callTextMode)) {
  console.error("--call-text takes r2, d1 or none");
  process.exit(2);
}
const calls = wholeNumber("calls", 0);
// The store-network sources default to their ratios of the calls (seed-data.ts SEED_RATIOS).
const storeCounts = {
  aircallCalls: wholeNumber("aircall-calls", 0),
  appointments: wholeNumber("appointments", 0),
  leads: wholeNumber("leads", 0),
};
const days = wholeNumber("days", 1);
const seedNumber = wholeNumber("seed", 0);

const stateDir = args["persist-to"] ? path.resolve(args["persist-to"]) : path.join(root, ".wrangler", "state");
const persistArgs = args["persist-to"] ? ["--persist-to", stateDir] : [];

// The SQLite warning is about the API's stability, not this data; keep the output readable.
process.removeAllListeners("warning");
process.on("warning", (w) => {
  if (w.name !== "ExperimentalWarning") console.warn(w);
});
const { DatabaseSync } = await import("node:sqlite");

const migrationCount = (dir) => readdirSync(path.join(root, dir)).filter((f) => f.endsWith(".sql")).length;

function appliedMigrations(file) {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return db.prepare("select count(*) as n from d1_migrations").get().n;
  } finally {
    db.close();
  }
}

/** The directory's and the shards' files when every one of them is migrated; null otherwise. */
function migratedFiles() {
  try {
    const found = localD1Files(DatabaseSync, stateDir);
    const behind =
      appliedMigrations(found.directory) < migrationCount("migrations") ||
      found.shards.some((s) => appliedMigrations(s.file) < migrationCount("migrations-shard"));
    return behind ? null : found;
  } catch {
    return null;
  }
}

let files = migratedFiles();
if (!files) {
  console.log("▸ applying D1 migrations to the local databases first (npm run db:migrate)");
  await migrateAll(["--local", ...persistArgs]);
  files = localD1Files(DatabaseSync, stateDir);
}
if (files.shards.length === 0) {
  console.error("wrangler.toml binds no shard (SHARD_0 …): the demo accounts' calls have nowhere to go.");
  process.exit(1);
}
const file = files.directory;

// The factories are TypeScript shared with the worker tests; tsx loads them here.
const { tsImport } = await import("tsx/esm/api");
const { getTableColumns, getTableName } = await import("drizzle-orm");
const seedData = await tsImport("../worker/db/seed-data.ts", import.meta.url);
const schema = await tsImport("../worker/db/schema.ts", import.meta.url);
const { hashPassword } = await tsImport("../worker/lib/crypto.ts", import.meta.url);
const searchIndex = await tsImport("../worker/db/search-index.ts", import.meta.url);
const callText = await tsImport("../worker/services/call-text.ts", import.meta.url);

function open(target) {
  const d = new DatabaseSync(target);
  d.exec("PRAGMA foreign_keys = ON");
  d.exec("PRAGMA busy_timeout = 10000");
  // A lost seed is simply rerun: durability per transaction is not worth the fsyncs.
  d.exec("PRAGMA synchronous = OFF");
  d.exec("PRAGMA cache_size = -262144");
  return d;
}
const db = open(file);
const shards = files.shards.map((s) => ({ ...s, db: open(s.file) }));

function transaction(fn, on = db) {
  on.exec("BEGIN IMMEDIATE");
  try {
    const out = fn();
    on.exec("COMMIT");
    return out;
  } catch (e) {
    on.exec("ROLLBACK");
    throw e;
  }
}

const demoEmails = Object.values(seedData.DEMO_EMAILS);
const emailList = demoEmails.map(() => "?").join(", ");
const seeded = db.prepare(`select 1 from profiles where lower(email) = ?`).get(seedData.DEMO_EMAILS.admin);
// A state seeded before the shards: the demo accounts' calls are in the directory, where no path reads
// them. It is seeded again, as --reset would.
const seededBeforeShards =
  seeded &&
  db.prepare(`select exists(select 1 from call_logs where user_id in (select id from profiles where lower(email) in (${emailList}))) as x`).get(...demoEmails).x;

/**
 * The demo subscriptions at the local billing provider, from their D1 rows, where the provider has none
 * yet (a state seeded before the seed wrote them): Settings → Subscription reads the provider.
 */
function writeMissingBillingObjects() {
  const rows = db
    .prepare(
      `select s.id, s.customer_id as customerId, p.email, p.first_name as firstName, p.last_name as lastName, s.status, s.current_period_end as currentPeriodEnd
       from subscriptions s join profiles p on p.id = s.user_id
       where lower(p.email) in (${emailList}) and s.price_id = ? and s.customer_id is not null and s.current_period_end is not null`,
    )
    .all(...demoEmails, seedData.DEMO_PRICE.id);
  const objects = seedData.localBillingObjects(rows.map((r) => ({ ...r, name: [r.firstName, r.lastName].filter(Boolean).join(" ") || null })));
  const insert = db.prepare("insert or ignore into billing_local_objects (id, kind, data) values (?, ?, ?)");
  let written = 0;
  transaction(() => {
    for (const o of objects) written += Number(insert.run(o.id, o.kind, JSON.stringify(o.data)).changes);
  });
  return written;
}

if (seededBeforeShards && !args.reset) console.log("▸ the local state was seeded before the shards (the demo calls are in the directory): seeding it again");
const reset = args.reset || seededBeforeShards;

if (seeded && !reset) {
  const written = writeMissingBillingObjects();
  console.log(`The local database is already seeded (${seedData.DEMO_EMAILS.admin} exists); nothing to do. Use --reset to rebuild it.`);
  if (written > 0) console.log(`  wrote the demo subscriptions' ${written} missing records at the local billing provider`);
  db.close();
  for (const s of shards) s.db.close();
  // A state seeded before the search database existed gets its index once.
  if (!args["no-search-index"]) await rebuildLocalSearch({ stateDir, ifEmpty: true });
  process.exit(0);
}

const started = performance.now();

/** The local R2 bucket of the call text, opened on first use (disposed at the end). */
let localText;
const openText = async () => (localText ??= await openLocalCallText(stateDir));
/** Call id → stored transcript (null without one) of the calls the seed wrote with --call-text r2: the search index reads them from here. */
const written = new Map();

/** Removes what the accounts `ids` own from a shard, and its roll-ups (big tables at once, as above). */
function resetShard(on, ids, idList) {
  const tables = on
    .prepare("select name from sqlite_master where type = 'table' and sql not like 'CREATE VIRTUAL%' and name not like 'call_search%'")
    .all()
    .map((r) => r.name);
  const hasUserId = (t) => on.prepare(`select 1 from pragma_table_info('${t}') where name = 'user_id'`).get();
  const otherCalls = on.prepare(`select exists(select 1 from call_logs where user_id is null or user_id not in (${idList})) as x`).get(...ids).x;
  transaction(() => {
    for (const id of ids) for (const sql of searchIndex.REMOVE_ACCOUNT_STATEMENTS) on.prepare(sql).run(id);
    on.prepare(`delete from webhook_attempts where endpoint_id in (select id from webhook_endpoints where user_id in (${idList}))`).run(...ids);
    for (const table of tables) {
      if (ROLLUP_TABLES.includes(table)) on.exec(`delete from ${table}`);
      else if (table === "call_logs" && !otherCalls) on.exec("delete from call_logs");
      else if (hasUserId(table)) on.prepare(`delete from "${table}" where user_id in (${idList})`).run(...ids);
    }
  }, on);
}

if (reset) {
  const ids = db
    .prepare(
      `select id from profiles where lower(email) in (${emailList}) union select id from auth_users where lower(email) in (${emailList})`,
    )
    .all(...demoEmails, ...demoEmails)
    .map((r) => r.id);
  const idList = ids.map(() => "?").join(", ") || "null";
  const demoBillingIds = demoEmails.flatMap((email) => [seedData.demoCustomerId(email), seedData.demoSubscriptionId(email)]);
  const demoBillingList = demoBillingIds.map(() => "?").join(", ");
  const otherCalls = db
    .prepare(`select exists(select 1 from call_logs where user_id is null or user_id not in (${idList})) as x`)
    .get(...ids).x;
  // Their calls' text in R2 (decision 077), under each account's prefix.
  if (ids.length > 0) {
    const { bucket } = await openText();
    for (const id of ids) await callText.deleteAccountTexts(bucket, id);
  }
  // The big tables first, with foreign-key checks off: none of them is a parent, and an unqualified
  // delete then lets SQLite drop the table's pages at once (its truncate optimisation) instead of
  // removing a million rows one index entry at a time. Store-network data and the roll-ups derived
  // from it are seed data as a whole.
  db.exec("PRAGMA foreign_keys = OFF");
  transaction(() => {
    if (otherCalls) db.prepare(`delete from call_logs where user_id in (${idList})`).run(...ids);
    else db.exec("delete from call_logs");
    for (const table of ["aircall_calls", "appointments", "leads"]) db.exec(`delete from ${table}`);
    // The roll-ups with their state: without the state every count reads live (docs/decisions/011-rollups.md).
    for (const table of ROLLUP_TABLES) db.exec(`delete from ${table}`);
  });
  db.exec("PRAGMA foreign_keys = ON");
  // On every shard (the accounts may have moved): whatever the demo accounts own, by user_id, their
  // search index rows, and the call logs' roll-ups, all of them, as above.
  for (const shard of shards) resetShard(shard.db, ids, idList);
  // Then the accounts, children first, with the schema's cascades (sessions, tokens) in force.
  transaction(() => {
    for (const sql of [
      `delete from sim_assistants where owner_id in (${idList})`,
      `delete from sim_calls where owner_id in (${idList})`,
      `delete from agents where user_id in (${idList})`,
      `delete from phone_numbers where user_id in (${idList})`,
      `delete from subscriptions where user_id in (${idList})`,
      // The demo customers' records at the local billing provider: customers, subscriptions, sessions, invoices.
      `delete from billing_local_objects where id in (${demoBillingList}) or json_extract(data, '$.customer') in (${demoBillingList})`,
      `delete from customers where user_id in (${idList})`,
      `delete from auth_users where id in (${idList})`,
      `delete from profiles where id in (${idList})`,
    ]) {
      db.prepare(sql).run(...(sql.includes("billing_local_objects") ? [...demoBillingIds, ...demoBillingIds] : ids));
    }
  });
  // After a large seed most of the file is free pages; give them back.
  const { page_count: pages } = db.prepare("PRAGMA page_count").get();
  const { freelist_count: free } = db.prepare("PRAGMA freelist_count").get();
  if (free > 25_000 && free > pages / 2) db.exec("VACUUM");
  for (const shard of shards) {
    const { page_count: p } = shard.db.prepare("PRAGMA page_count").get();
    const { freelist_count: f } = shard.db.prepare("PRAGMA freelist_count").get();
    if (f > 25_000 && f > p / 2) shard.db.exec("VACUUM");
  }
  console.log(`▸ reset: removed the demo accounts, their agents, numbers, subscriptions (in D1 and at the local billing provider), call logs (their text in R2 too), alerts and webhooks (on every shard), and the store-network data (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

const nextId = (table) => db.prepare(`select coalesce(max(id), 0) + 1 as n from ${table}`).get().n;
const seed = seedData.buildSeed({
  seed: seedNumber,
  days,
  calls,
  counts: storeCounts,
  firstIds: { agent: nextId("agents"), phoneNumber: nextId("phone_numbers") },
  shards: shards.map((s) => s.name),
});

/** Rows per multi-row insert: fewer calls into SQLite, well under its 32,766 bound parameters. */
const ROWS_PER_STATEMENT = 50;

/** Writes factory rows (drizzle's camelCase keys) to their table, in `on`, with prepared multi-row inserts. */
function writer(table, on = db) {
  const columns = getTableColumns(table);
  const name = getTableName(table);
  const statements = new Map();
  let keys;
  let written = 0;
  const statement = (rowCount) => {
    let stmt = statements.get(rowCount);
    if (!stmt) {
      const cols = keys.map((k) => `"${columns[k].name}"`).join(", ");
      const tuple = `(${keys.map(() => "?").join(", ")})`;
      stmt = on.prepare(`insert into "${name}" (${cols}) values ${Array(rowCount).fill(tuple).join(", ")}`);
      statements.set(rowCount, stmt);
    }
    return stmt;
  };
  return {
    name,
    get written() {
      return written;
    },
    write(rows) {
      if (rows.length === 0) return;
      keys ??= Object.keys(rows[0]).filter((k) => columns[k]);
      transaction(() => {
        for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
          const slice = rows.slice(i, i + ROWS_PER_STATEMENT);
          const params = [];
          for (const row of slice) {
            for (const k of keys) params.push(row[k] == null ? null : columns[k].mapToDriverValue(row[k]));
          }
          statement(slice.length).run(...params);
        }
      }, on);
      written += rows.length;
    },
  };
}

// A salt of its own for each account, as sign-up would give it.
const passwordHashes = Object.fromEntries(
  await Promise.all(seed.profiles.map(async (p) => [p.email, await hashPassword(seedData.DEMO_PASSWORD)])),
);
const counts = [];
function load(table, rowsOrChunks) {
  const t0 = performance.now();
  const w = writer(table);
  if (Array.isArray(rowsOrChunks)) {
    for (let i = 0; i < rowsOrChunks.length; i += CHUNK_ROWS) w.write(rowsOrChunks.slice(i, i + CHUNK_ROWS));
  } else {
    for (const chunk of rowsOrChunks) {
      w.write(chunk);
      if (process.stdout.isTTY) process.stdout.write(`\r  ${w.name}: ${w.written.toLocaleString("en-US")}`);
    }
    if (process.stdout.isTTY) process.stdout.write("\r\x1b[K");
  }
  counts.push([w.name, w.written, (performance.now() - t0) / 1000]);
}

/**
 * Writes an account's call logs to its shard and calls no account owns (user_id null) to the directory,
 * as the webhook does, a chunk at a time; each database's count is listed on its own line. With
 * --call-text r2 each chunk's transcripts are put in the local R2 bucket first, under the key the app
 * uses (the account's, or orphans/ for a call no account owns), and the rows carry none (as the
 * webhook writes them); with none the rows carry none either and no object is written.
 */
async function loadCallLogs(chunks) {
  const table = schema.callLogs;
  const shardOfAccount = new Map(seed.profiles.map((p) => [p.id, shards.find((s) => s.name === p.shard) ?? shards[0]]));
  const targets = new Map([[null, { label: "DB", w: writer(table, db), t: 0 }]]);
  for (const s of shards) targets.set(s, { label: s.name, w: writer(table, s.db), t: 0 });
  const text = callTextMode === "r2" ? await openText() : null;
  let objects = 0;
  let textSeconds = 0;
  for (const chunk of chunks) {
    if (callTextMode !== "d1") {
      const puts = [];
      for (const row of chunk) {
        if (text) written.set(row.callId, row.transcript);
        if (row.transcript == null) continue;
        puts.push({ key: callText.callTextKey(row.userId, row.callId), body: JSON.stringify({ transcript: row.transcript }) });
        row.transcript = null;
      }
      if (text) {
        const t = performance.now();
        await text.putMany(puts);
        textSeconds += (performance.now() - t) / 1000;
        objects += puts.length;
      }
    }
    const parts = new Map();
    for (const row of chunk) {
      const target = row.userId == null ? null : (shardOfAccount.get(row.userId) ?? null);
      let part = parts.get(target);
      if (!part) parts.set(target, (part = []));
      part.push(row);
    }
    for (const [target, rows] of parts) {
      const entry = targets.get(target);
      const t0 = performance.now();
      entry.w.write(rows);
      entry.t += performance.now() - t0;
    }
    if (process.stdout.isTTY) process.stdout.write(`\r  ${getTableName(table)}: ${[...targets.values()].reduce((n, e) => n + e.w.written, 0).toLocaleString("en-US")}`);
  }
  if (process.stdout.isTTY) process.stdout.write("\r\x1b[K");
  for (const { label, w, t } of targets.values()) if (w.written > 0 || label !== "DB") counts.push([`${w.name} → ${label}`, w.written, t / 1000]);
  if (text) counts.push(["call text (R2)", objects, textSeconds]);
}

// Parents before children: numbers before the agents that point at them, profiles before what they own.
load(schema.authUsers, seed.authUsers(passwordHashes));
load(schema.profiles, seed.profiles);
load(schema.subscriptions, seed.subscriptions);
load(schema.customers, seed.customers);
load(schema.billingLocalObjects, seed.billingObjects);
load(schema.phoneNumbers, seed.phoneNumbers);
load(schema.agents, seed.agents);
load(schema.simAssistants, seed.simAssistants);
await loadCallLogs(seed.callLogChunks(CHUNK_ROWS));
load(schema.aircallCalls, seed.aircallCallChunks(CHUNK_ROWS));
load(schema.appointments, seed.appointmentChunks(CHUNK_ROWS));
load(schema.leads, seed.leadChunks(CHUNK_ROWS));

for (const d of [db, ...shards.map((s) => s.db)]) {
  d.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  d.close();
}

const elapsed = (performance.now() - started) / 1000;
const sizeOf = (f) => ["", "-wal"].reduce((n, ext) => n + (existsSync(f + ext) ? statSync(f + ext).size : 0), 0);
const mb = (f) => `${(sizeOf(f) / 1024 / 1024).toFixed(1)} MB`;
const o = seed.options;
console.log(`▸ seeded ${path.relative(root, path.dirname(file))} (seed ${o.seed}, ${o.days} days up to ${o.now})`);
for (const [name, n, secs] of counts) console.log(`  ${name.padEnd(24)} ${n.toLocaleString("en-US").padStart(11)}  ${secs.toFixed(1)} s`);
console.log(`  done in ${elapsed.toFixed(1)} s; directory ${mb(file)}, ${shards.map((s) => `${s.name} ${mb(s.file)}`).join(", ")}`);
const shardOfEmail = new Map(seed.profiles.map((p) => [p.email, p.shard]));
console.log(`  sign in as ${demoEmails.map((e) => `${e} (${shardOfEmail.get(e)})`).join(", ")} with the password '${seedData.DEMO_PASSWORD}'`);
// The call logs' search index of every shard (decision 059), rebuilt from what is now in the shards and R2.
try {
  if (!args["no-search-index"]) await rebuildLocalSearch({ stateDir, callText: callTextMode === "none" ? false : localText, known: written });
} finally {
  await localText?.dispose();
}
