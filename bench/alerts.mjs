// `npm run bench -- --alerts [--full] [--calls N] [--accounts N] [--rules-per-account N] [--minutes-rules N] [--recent N] [--events N] [--keep]`
//
// The alert evaluation (decision 071) on a throwaway seeded local D1: the seed's call logs (200,000 by
// default, 1,000,000 with --full) as the big table, then N accounts (500) with R rules each (10: the
// call metrics over 15 min, 1 h and 24 h, all and per agent, a silent line, a store rule on every tenth
// account) and `recent` calls each in the last 24 hours. One cron run of evaluateAlerts is timed in
// process over the SQLite file (the worker's own TypeScript through a D1 stand-in that counts round
// trips: each batch or statement one): with 10 % and then all of the accounts holding rules, and again
// with ten times the recent calls, so the table shows trips growing with accounts-with-rules, not
// calls; then with `minutes-rules` (50) "minutes used" rules more on every account, each on a Pro
// plan, so the table shows trips unchanged by them (each account's plan and month are read once per
// run, in its chunk's batch). Then `events` single-account runs after a failing call (what the call webhook starts): the
// event → alert time in process (SQL and the service's work; no network, no mail vendor).
import os from "node:os";
import { BENCH_MODES } from "./modes.mjs";
import { cliOptions, requireNodeSqlite } from "../scripts/lib.mjs";
import { exitOnStopSignals, throwawayApp } from "../scripts/local-app.mjs";
import { localD1, percentile, sqliteD1 } from "./ops.mjs";

requireNodeSqlite("npm run bench -- --alerts");

const { args, wholeNumber } = cliOptions(BENCH_MODES.alerts.options, BENCH_MODES.alerts.usage);
const CALLS = args.full ? 1_000_000 : wholeNumber("calls", 1000, 200_000);
const ACCOUNTS = wholeNumber("accounts", 10, 500);
const RULES = wholeNumber("rules-per-account", 10, 10);
const RECENT = wholeNumber("recent", 0, 20);
const MINUTES_RULES = wholeNumber("minutes-rules", 0, 50);
const EVENTS = wholeNumber("events", 5, 50);

const fmt = (ms) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(0));
const fmtInt = (n) => n.toLocaleString("en-US");

/**
 * The D1 stand-in, counting round trips: a batch is one, and so is every statement run alone. A
 * batch is one transaction, as D1's is (ops.mjs's stand-in leaves each statement its own).
 */
function countingD1(file, counter = { trips: 0 }) {
  const d1 = sqliteD1(file);
  const wrap = (stmt) => ({
    ...stmt,
    bind: (...p) => wrap(stmt.bind(...p)),
    all: () => (counter.trips++, stmt.all()),
    first: (c) => (counter.trips++, stmt.first(c)),
    raw: () => (counter.trips++, stmt.raw()),
    run: () => (counter.trips++, stmt.all()),
  });
  return {
    counter,
    d1: {
      prepare: (sql) => wrap(d1.prepare(sql)),
      batch: async (stmts) => {
        counter.trips++;
        // Synchronous from BEGIN to COMMIT, so two batches in flight never interleave.
        file.exec("BEGIN");
        try {
          const results = stmts.map((st) => ({ results: file.prepare(st.sql).all(...st.params), meta: {} }));
          file.exec("COMMIT");
          return results;
        } catch (e) {
          file.exec("ROLLBACK");
          throw e;
        }
      },
    },
  };
}

/** The rules of one account: the call metrics in each window and scope, a silent line, maybe a store rule. */
function rulesOf(i, agentId, numberId) {
  const all = (metric, threshold, window) => [metric, "all", "", threshold, window];
  const agent = (metric, threshold, window) => [metric, "agent", String(agentId), threshold, window];
  const list = [
    agent("error_calls", 3, 15),
    all("error_calls", 10, 60),
    all("call_count", 50, 15),
    agent("call_count", 200, 1440),
    all("forwarded_share", 60, 60),
    agent("forwarded_share", 80, 1440),
    all("total_cost", 100, 1440),
    agent("total_cost", 20, 60),
    ["silent_line", "number", String(numberId), 30, 0],
    i % 10 === 0 ? ["leads_drop", "store", "MIAMI", 40, 0] : all("call_count", 500, 1440),
  ];
  return list.slice(0, RULES);
}

async function main() {
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
  const { tsImport } = await import("tsx/esm/api");
  const { evaluateAlerts } = await tsImport("../worker/services/alerts/evaluate.ts", import.meta.url);
  console.log(
    `▸ alerts bench: ${fmtInt(CALLS)} seeded call logs, ${fmtInt(ACCOUNTS)} accounts × ${RULES} rules, ${RECENT} recent calls each; ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(2)}`,
  );
  const app = throwawayApp("bench-alerts", { keep: args.keep });
  exitOnStopSignals(() => app.stop());
  try {
    await app.migrate();
    await app.seed(["--calls", String(CALLS), "--aircall-calls", "0", "--appointments", "0", "--leads", "1000", "--days", "90", "--no-search-index", "--call-text", "none"], { loud: true });
    // The directory (profiles, agents, numbers, plans) and the shard the bench's accounts are placed on
    // (their calls, rules and states), as the cron's run on that shard reads them (decision 076).
    const files = await localD1(app.stateDir);
    const file = new DatabaseSync(files.directory);
    const shardName = files.shards[0].name;
    const shard = new DatabaseSync(files.shards[0].file);
    const now = Date.now();
    const iso = (ms) => new Date(ms).toISOString();

    // The accounts, each with an agent, its number and its rules; none holds rules until `enable`.
    const accounts = [];
    file.exec("BEGIN");
    for (let i = 0; i < ACCOUNTS; i++) {
      const id = `bench-alerts-${i}`;
      file.prepare("INSERT INTO profiles (id, email, shopwindows_info, shard) VALUES (?, ?, ?, ?)").run(id, `${id}@bench.local`, i % 10 === 0 ? 1 : 0, shardName);
      const agentId = Number(file.prepare("INSERT INTO agents (user_id, name, vapi_assistant_id) VALUES (?, ?, ?) RETURNING id").get(id, `Agent ${i}`, `asst-bench-${i}`).id);
      const numberId = Number(file.prepare("INSERT INTO phone_numbers (user_id, phone_number, agent_id) VALUES (?, ?, ?) RETURNING id").get(id, `+1555${String(1_000_000 + i)}`, agentId).id);
      accounts.push({ id, agentId, numberId, index: i });
    }
    file.exec("COMMIT");

    const addRecentCalls = (perAccount) => {
      shard.exec("BEGIN");
      const insert = shard.prepare(
        "INSERT INTO call_logs (user_id, call_id, assistant_id, direction, status, ended_reason, start_time, duration, cost) VALUES (?, ?, ?, 'inbound', 'ended', ?, ?, 60, 0.1)",
      );
      for (const a of accounts) {
        for (let k = 0; k < perAccount; k++) {
          const reason = k % 7 === 0 ? "pipeline-error-openai-llm-failed" : k % 5 === 0 ? "assistant-forwarded-call" : "customer-ended-call";
          insert.run(a.id, `bench-${a.index}-${crypto.randomUUID()}`, `asst-bench-${a.index}`, reason, iso(now - Math.floor(Math.random() * 86_400_000)));
        }
      }
      shard.exec("COMMIT");
    };

    const enable = (from, to) => {
      shard.exec("BEGIN");
      const rule = shard.prepare(
        "INSERT INTO alert_rules (user_id, name, metric, scope_kind, scope_id, comparison, threshold, window_minutes, cooldown_minutes, severity, webhook) VALUES (?, ?, ?, ?, ?, 'gte', ?, ?, 30, 'warning', 1) RETURNING id",
      );
      const state = shard.prepare("INSERT INTO alert_rule_state (rule_id, user_id, status, since) VALUES (?, ?, 'ok', ?)");
      for (const a of accounts.slice(from, to)) {
        for (const [metric, kind, scope, threshold, window] of rulesOf(a.index, a.agentId, a.numberId)) {
          const { id } = rule.get(a.id, `${metric} ${kind}`, metric, kind, scope, threshold, window);
          state.run(id, a.id, iso(now - 3_600_000));
        }
      }
      shard.exec("COMMIT");
    };

    // One count over both databases: a trip to the directory and one to the shard are two here, even
    // where the service sends them at once.
    const { d1, counter } = countingD1(file);
    const { d1: shardD1 } = countingD1(shard, counter);
    let mails = 0;
    let webhooks = 0;
    const deps = {
      db: { $client: d1 },
      shard: { name: shardName, db: { $client: shardD1 } },
      mail: { kind: "local", send: async () => void mails++ },
      webhook: async () => void webhooks++,
    };
    const rows = [];
    const measure = async (label, at = new Date(now)) => {
      counter.trips = 0;
      mails = 0;
      webhooks = 0;
      const t0 = performance.now();
      const run = await evaluateAlerts(deps, at);
      const ms = performance.now() - t0;
      const recent = Number(shard.prepare("SELECT count(*) AS n FROM call_logs WHERE start_time >= ?").get(iso(now - 86_400_000)).n);
      rows.push({ label, accounts: run.accounts, rules: run.rules, recent, ms, trips: counter.trips, fired: run.fired, resolved: run.resolved, mails, webhooks });
    };

    addRecentCalls(RECENT);
    const tenth = Math.max(1, Math.floor(ACCOUNTS / 10));
    enable(0, tenth);
    await measure("first run (fires)");
    await measure("steady run", new Date(now + 1000));
    enable(tenth, ACCOUNTS);
    await measure("first run (fires)", new Date(now + 2000));
    await measure("steady run", new Date(now + 3000));
    addRecentCalls(RECENT * 9);
    await measure("first run after 10× recent calls (fires)", new Date(now + 4000));
    await measure("steady run, 10× recent calls", new Date(now + 5000));

    // Every account on Pro with MINUTES_RULES "minutes used" rules more (thresholds it does not reach):
    // its plan and month are read once in its chunk's batch, so the trips stay those of the run before.
    if (MINUTES_RULES > 0) {
      file.exec("BEGIN");
      shard.exec("BEGIN");
      const sub = file.prepare("INSERT INTO subscriptions (id, user_id, customer_id, price_id, product_name, status) VALUES (?, ?, ?, 'price_pro', 'Pro', 'active')");
      const rule = shard.prepare(
        "INSERT INTO alert_rules (user_id, name, metric, scope_kind, scope_id, comparison, threshold, window_minutes, cooldown_minutes, severity) VALUES (?, ?, 'minutes_used', 'all', '', 'gte', ?, 0, 30, 'warning') RETURNING id",
      );
      const state = shard.prepare("INSERT INTO alert_rule_state (rule_id, user_id, status, since) VALUES (?, ?, 'ok', ?)");
      for (const a of accounts) {
        sub.run(`sub_bench_${a.index}`, a.id, `cus_bench_${a.index}`);
        for (let k = 0; k < MINUTES_RULES; k++) state.run(rule.get(a.id, `minutes ${k}`, 101 + k).id, a.id, iso(now - 3_600_000));
      }
      file.exec("COMMIT");
      shard.exec("COMMIT");
      await measure(`steady run, + ${MINUTES_RULES} minutes-used rules per account`, new Date(now + 5500));
    }

    console.log(
      "\n## One cron run of the alert rules (in process over the directory's and the shard's SQLite files; trips = D1 round trips to either)\n\n| run | accounts with rules | rules | calls in the last 24 h | ms | D1 round trips | fired | resolved | mails | webhooks |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    );
    for (const r of rows) {
      console.log(`| ${r.label} | ${fmtInt(r.accounts)} | ${fmtInt(r.rules)} | ${fmtInt(r.recent)} | ${fmt(r.ms)} | ${r.trips} | ${r.fired} | ${r.resolved} | ${r.mails} | ${r.webhooks} |`);
    }

    // Event → alert: one failing call, then the account's own run (what the call webhook's subscriber starts).
    const times = [];
    const trips = [];
    for (let e = 0; e < EVENTS; e++) {
      const a = accounts[(e * 7) % ACCOUNTS];
      for (let k = 0; k < 3; k++) {
        shard
          .prepare("INSERT INTO call_logs (user_id, call_id, assistant_id, direction, status, ended_reason, start_time, duration) VALUES (?, ?, ?, 'inbound', 'ended', 'pipeline-error-x', ?, 60)")
          .run(a.id, `bench-event-${crypto.randomUUID()}`, `asst-bench-${a.index}`, iso(now + 6000));
      }
      counter.trips = 0;
      const t0 = performance.now();
      await evaluateAlerts(deps, new Date(now + 7000 + e), { userId: a.id });
      times.push(performance.now() - t0);
      trips.push(counter.trips);
    }
    const sorted = [...times].sort((x, y) => x - y);
    console.log(
      `\n## Event → alert (one account's call rules after its call webhook, ${EVENTS} events)\n\np50 ${fmt(percentile(sorted, 50))} ms, p95 ${fmt(percentile(sorted, 95))} ms, D1 round trips ${Math.min(...trips)}–${Math.max(...trips)}`,
    );
    file.close();
    shard.close();
  } finally {
    await app.stop();
  }
}

await main();
