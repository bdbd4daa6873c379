// `npm run proof:load -- [--calls N] [--duration S] [--connections N] [--days N] [--export-days N] [--only KINDS] [--gc-every S]
//                        [--d1-rtt MS] [--write-rates R,R,…] [--write-step S] [--keep] [--no-build]`
//
// Sustained load against a throwaway seeded local D1 (the machinery of bench/run.mjs): seeds
// `.wrangler/load-<pid>` (default the issue's 1M calls, with 200k appointments, 200k Aircall calls and
// 50k leads scaled alike), serves the build with one `wrangler dev`, runs the nightly cron once (so the
// counts read their roll-ups, as in production), signs in the demo staff and then drives autocannon:
// `--connections` clients (50) for `--duration` seconds (120) on a fixed mix per client of the
// dashboard's count endpoints, call-log pages walked by `nextCursor` and one CSV export (`--only` keeps
// some of the three kinds: `counts`, `pages`, `export`, comma-separated).
// Prints errors (non-2xx, socket errors, timeouts), p50/p95/p99 latency, requests/s and the memory:
// the worker's JavaScript heap after a full GC (through wrangler's inspector port: before the load,
// 10 s into it, every `--gc-every` seconds (60) after that and once it is over), which is what "the
// worker's memory" means, beside the resident memory of wrangler's workerd processes, which also hold the
// local D1's SQLite, the asset server and what the runtime keeps. Exits 1 when any request failed or the
// worker kept more than 2 MB of heap from the load.
//
// Then the writes one database takes: VAPI end-of-call reports (POST /api/webhooks/vapi, a realistic
// three-minute call each: bench/realistic-call.mjs; each a new call log of the staff's first agent, one
// D1 batch) sent at a fixed rate, open loop (a request leaves on schedule whether or not the last has
// answered), for `--write-step` seconds (10) at each rate of `--write-rates` (5,10,20,40,80,160,320 per
// second; `none` skips). The ramp stops after the first rate whose p95 is more than twice the first
// rate's, or that the server could not keep up with (answers per second under 90% of the rate, or any
// error); it reports the highest rate sustained before that.
// With `--d1-rtt MS`, the request mix runs again for `--duration` seconds without heap snapshots, first on
// this server (the figures at 0), then on one serving the same database that waits MS before each D1
// round trip (D1_RTT_MS), followed by one step of writes at the first rate there; p50/p95 of both.
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { cliOptions, freePort, requireNodeSqlite, root } from "../scripts/lib.mjs";
import { connectInspector } from "./inspector.mjs";
import { watchMemory } from "./memory.mjs";
import { findD1File, percentile, runCron, tail } from "./ops.mjs";
import { endOfCallReport } from "./realistic-call.mjs";
import { exitOnStopSignals, throwawayApp } from "../scripts/local-app.mjs";

requireNodeSqlite("npm run proof:load", { what: "The load run", flag: "LOAD_REEXEC" });

const { tsImport } = await import("tsx/esm/api");
const nyTime = await tsImport("../shared/ny-time.ts", import.meta.url);
// The secret a local server (not production) takes on its voice webhook.
const { DEV_VAPI_WEBHOOK_SECRET } = await tsImport("../worker/providers/voice/local.ts", import.meta.url);

const usage =
  "npm run proof:load -- [--calls N] [--duration S] [--connections N] [--days N] [--export-days N] [--only counts,pages,export] [--gc-every S] " +
  "[--d1-rtt MS] [--write-rates R,R,…|none] [--write-step S] [--keep] [--no-build]";
const KINDS = { counts: "count", pages: "call-log page", export: "csv export" };
const { args, wholeNumber } = cliOptions(
  {
    calls: { type: "string", default: "1000000" },
    duration: { type: "string", default: "120" },
    connections: { type: "string", default: "50" },
    days: { type: "string", default: "90" },
    // The export asks for the last N days of the staff's calls: a day of a 1M data set is ~10k rows.
    "export-days": { type: "string", default: "1" },
    only: { type: "string", default: Object.keys(KINDS).join(",") },
    // A full GC (a heap snapshot, which pauses the worker a few seconds) 10 s into the load, then every N s.
    "gc-every": { type: "string", default: "60" },
    "d1-rtt": { type: "string", default: "0" },
    "write-rates": { type: "string", default: "5,10,20,40,80,160,320" },
    "write-step": { type: "string", default: "10" },
    keep: { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
  },
  usage,
);
const CALLS = wholeNumber("calls", 1000);
const DURATION_S = wholeNumber("duration", 1);
const CONNECTIONS = wholeNumber("connections", 1);
const DAYS = wholeNumber("days", 1);
const EXPORT_DAYS = wholeNumber("export-days", 1);
const GC_EVERY_S = wholeNumber("gc-every", 0);
const ONLY = new Set(args.only.split(",").map((k) => k.trim()).filter(Boolean));
if (ONLY.size === 0 || [...ONLY].some((k) => !(k in KINDS))) {
  console.error(`--only takes some of ${Object.keys(KINDS).join(", ")}, comma-separated`);
  process.exit(2);
}
const ONLY_KINDS = new Set([...ONLY].map((k) => KINDS[k]));
const D1_RTT = wholeNumber("d1-rtt", 0);
if (D1_RTT > 1000) {
  console.error("--d1-rtt must be at most 1000 (the worker's D1_RTT_MS takes 0 to 1000)");
  process.exit(2);
}
const WRITE_RATES = args["write-rates"] === "none" ? [] : args["write-rates"].split(",").map((r) => Number(r.trim()));
if (WRITE_RATES.some((r) => !Number.isInteger(r) || r < 1)) {
  console.error("--write-rates takes whole numbers of writes per second, comma-separated, rising (or none)");
  process.exit(2);
}
const WRITE_STEP_S = wholeNumber("write-step", 1);
// The ramp's own bound: requests waiting for an answer beyond this many are not sent (counted as not kept up).
const MAX_WRITES_IN_FLIGHT = 256;

const DEMO_PASSWORD = "demo-password-1";
const STAFF = "staff@demo.local";
const PAGE_SIZE = 50;
const PAGES_PER_WALK = 20; // a client walks 20 pages deep by cursor, then starts again at page 1
const REQUEST_TIMEOUT_S = 30;
// "Flat": once the load is over, the worker's heap after a full GC is at most this much above where it
// was before it (docs/decisions/028); a leak of 1 KB per request passes it within ~2,000 requests.
const FLAT_HEAP_BYTES = 2 * 1024 * 1024;

const app = throwawayApp("load", { keep: args.keep });
const stateDir = app.stateDir;
const serverLog = app.log;
const rel = (p) => path.relative(root, p);
const fmtInt = (n) => Math.round(n).toLocaleString("en-US");
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const mb = (kb) => `${(kb / 1024).toFixed(1)} MB`;
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const loadAverage = () => os.loadavg().map((n) => n.toFixed(2)).join(" ");

let cleaning = null;
let running = null; // the autocannon instance, stopped on Ctrl-C
let inspector = null;

function cleanup() {
  cleaning ??= (async () => {
    running?.stop();
    inspector?.close();
    await app.stop();
    if (args.keep) console.log(`state kept in ${rel(stateDir)}`);
  })();
  return cleaning;
}
exitOnStopSignals(async (signal) => {
  console.error(`\n${signal}: stopping the server${args.keep ? "" : " and removing the state"}`);
  await cleanup();
});





/**
 * One client's cycle: every count card of the dashboard for the whole range, three call-log pages
 * (continuing its own walk by `nextCursor`), and one CSV export of the last `EXPORT_DAYS` days.
 */
function requestMix(token) {
  const today = nyTime.nyToday(new Date());
  const start = nyTime.addDays(today, -(DAYS - 1));
  const range = `dateFilterType=range&startDate=${start}&endDate=${today}`;
  const exportStart = nyTime.addDays(today, -(EXPORT_DAYS - 1));
  const headers = { authorization: `Bearer ${token}` };
  const get = (kind, p) => ({ method: "GET", path: p, headers, kind });
  const page = {
    kind: "call-log page",
    method: "GET",
    headers,
    setupRequest: (req, context) => {
      const cursor = context.pages >= PAGES_PER_WALK ? null : context.cursor;
      if (!cursor) context.pages = 0;
      context.pages = (context.pages ?? 0) + 1;
      return { ...req, path: `/api/call-logs?limit=${PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}` };
    },
    onResponse: (status, body, context) => {
      context.cursor = status === 200 ? JSON.parse(body).nextCursor ?? null : null;
    },
  };
  const all = [
    get("count", `/api/call-logs/count?${range}&callType=Both`),
    get("count", `/api/call-connected-count?${range}&callType=Both`),
    get("count", `/api/voicemail-count?${range}&callType=Both`),
    get("count", `/api/forwarded-count?${range}&callType=Both`),
    get("count", `/api/call-volume?${range}&callType=Both`),
    get("count", `/api/aircall/call-count?${range}&direction=inbound`),
    get("count", `/api/appointment-status-count?${range}`),
    get("count", `/api/lead-counts/summary?${range}`),
    get("count", "/api/usage-stats"),
    page,
    page,
    page,
    get("csv export", `/api/export-report?dateFilterType=range&startDate=${exportStart}&endDate=${today}&callType=Both`),
  ];
  return all.filter((r) => ONLY_KINDS.has(r.kind));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmtMs = (ms) => (ms == null ? "–" : String(Math.round(ms)));

/** The mix once more, `DURATION_S` seconds of autocannon without heap snapshots: p50/p95 and req/s. */
async function mixRun(baseUrl, mix) {
  const latencies = [];
  let non2xx = 0;
  const requests = mix.map(({ kind, onResponse, ...rest }) => ({
    ...rest,
    onResponse: (status, body, context) => {
      if (status < 200 || status > 299) non2xx++;
      onResponse?.(status, body, context);
    },
  }));
  const result = await new Promise((resolve, reject) => {
    running = autocannon(
      { url: baseUrl, connections: CONNECTIONS, duration: DURATION_S, timeout: REQUEST_TIMEOUT_S, requests, initialContext: {} },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    running.on("response", (_client, _status, _bytes, ms) => latencies.push(ms));
  });
  running = null;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    requests: result.requests.total,
    errors: non2xx + result.errors,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    rps: result.requests.average,
  };
}

/**
 * `rate` end-of-call reports a second for `seconds`, open loop: request i leaves at i / rate seconds
 * whatever the earlier ones are doing (none is sent while MAX_WRITES_IN_FLIGHT wait for an answer).
 */
async function writeStep(baseUrl, rate, seconds, write) {
  const total = rate * seconds;
  const times = [];
  const doneAt = [];
  let errors = 0;
  let firstError = null;
  let skipped = 0;
  let inFlight = 0;
  const pending = [];
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 1) await sleep(wait);
    if (inFlight >= MAX_WRITES_IN_FLIGHT) {
      skipped++;
      continue;
    }
    inFlight++;
    const t0 = performance.now();
    pending.push(
      write()
        .then(async (res) => {
          const body = await res.text();
          if (!res.ok) {
            errors++;
            firstError ??= `${res.status} ${body.slice(0, 200)}`;
          } else {
            times.push(performance.now() - t0);
            doneAt.push(performance.now());
          }
        })
        .catch((e) => {
          errors++;
          firstError ??= e.message;
        })
        .finally(() => inFlight--),
    );
  }
  await Promise.all(pending);
  // The rate answers came back at, between the first and the last: the server's throughput whatever
  // the latency (a server slower than the rate spreads the answers over a longer time).
  const spanS = doneAt.length > 1 ? (Math.max(...doneAt) - Math.min(...doneAt)) / 1000 : 0;
  const perSecond = spanS > 0 ? (doneAt.length - 1) / spanS : 0;
  const sorted = times.sort((a, b) => a - b);
  return { rate, sent: total - skipped, answered: times.length, perSecond, errors, firstError, skipped, p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/** The webhook writes of the ramp: each a new call of the staff's first agent, with a full transcript. */
function webhookWriter(baseUrl, assistantId) {
  let n = 0;
  return () => {
    const i = n++;
    const body = endOfCallReport(i, { assistantId, callId: `load-${process.pid}-${i}` });
    return fetch(`${baseUrl}/api/webhooks/vapi`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET },
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_S * 1000),
    });
  };
}

/**
 * The rates of WRITE_RATES in turn until one's p95 is more than twice the first rate's, or the server
 * did not keep up (answers per second under 90% of the rate, skipped sends, errors).
 */
async function writeRamp(baseUrl, write) {
  const steps = [];
  for (const rate of WRITE_RATES) {
    const step = await writeStep(baseUrl, rate, WRITE_STEP_S, write);
    const base = steps[0]?.p95 ?? step.p95;
    step.doubled = step.p95 != null && base != null && step.p95 > 2 * base;
    step.keptUp = step.errors === 0 && step.skipped === 0 && step.perSecond >= 0.9 * rate;
    steps.push(step);
    console.log(
      `  ${rate}/s for ${WRITE_STEP_S} s: ${fmtInt(step.answered)} answered (${step.perSecond.toFixed(1)}/s), p50 ${fmtMs(step.p50)} ms, p95 ${fmtMs(step.p95)} ms` +
        `${step.errors ? `, ${step.errors} errors (first: ${step.firstError})` : ""}${step.skipped ? `, ${step.skipped} not sent (${MAX_WRITES_IN_FLIGHT} waiting)` : ""}`,
    );
    if (step.doubled || !step.keptUp) break;
  }
  const last = steps[steps.length - 1];
  const sustained = [...steps].reverse().find((x) => x.keptUp && !x.doubled) ?? null;
  return { steps, sustained, stoppedBy: last && (last.doubled || !last.keptUp) ? last : null };
}

async function main() {
  const started = Date.now();
  const scaled = { aircall: Math.round(CALLS * 0.2), appointments: Math.round(CALLS * 0.2), leads: Math.round(CALLS * 0.05) };
  console.log(
    `▸ load: ${fmtInt(CALLS)} call logs, ${CONNECTIONS} clients for ${DURATION_S} s; ` +
      `${os.cpus().length} cores, load ${loadAverage()}, Node ${process.version}`,
  );
  const assets = await app.servedBuild({ build: !args["no-build"] });

  console.log(`▸ throwaway local D1 in ${rel(stateDir)}`);
  await app.migrate();
  let t0 = Date.now();
  const seedArgs = ["--calls", CALLS, "--aircall-calls", scaled.aircall, "--appointments", scaled.appointments, "--leads", scaled.leads, "--days", DAYS, "--call-text", "none"].map(String);
  await app.seed(seedArgs, { loud: true });
  const seedMs = Date.now() - t0;
  console.log(`  seed ${seedArgs.join(" ")}: ${secs(seedMs)}`);
  const d1File = await findD1File(stateDir);

  const inspectorPort = await freePort();
  const { baseUrl, server } = await app.serve({ assets, inspectorPort });
  console.log(`▸ wrangler dev on ${baseUrl} (inspector on ${inspectorPort})`);

  const signIn = await fetch(`${baseUrl}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: STAFF, password: DEMO_PASSWORD }),
  });
  if (!signIn.ok) throw new Error(`signing in ${STAFF} failed: ${signIn.status} ${await signIn.text()}`);
  const token = (await signIn.json()).access_token;

  console.log("▸ nightly cron once (roll-ups of the seed's days)");
  console.log(`  done in ${secs((await runCron(baseUrl, d1File)).ms)}`);

  inspector = await connectInspector(inspectorPort);
  const pgid = server.child.pid;
  const mix = requestMix(token);
  const byKind = new Map();
  const latencies = [];
  // One request of each path first, one at a time: the code each path loads and compiles lazily is then
  // in the heap before it is measured, so what the load adds to it is what the requests kept.
  for (const r of mix) {
    const p = r.path ?? r.setupRequest({}, {}).path;
    const res = await fetch(`${baseUrl}${p}`, { headers: r.headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`warm-up ${p} → ${res.status}`);
  }
  const memory = watchMemory({ pgid, inspector, snapshotDir: stateDir, gcEveryS: GC_EVERY_S, durationS: DURATION_S });
  await memory.before();

  // Each request's kind is counted from its own onResponse; autocannon gives the status there.
  const requests = mix.map((r) => {
    const { kind, onResponse, ...rest } = r;
    if (!byKind.has(kind)) byKind.set(kind, { kind, count: 0, non2xx: 0, firstError: null });
    const k = byKind.get(kind);
    return {
      ...rest,
      onResponse: (status, body, context) => {
        k.count++;
        if (status < 200 || status > 299) {
          k.non2xx++;
          k.firstError ??= `${status} ${String(body).slice(0, 200)}`;
        }
        onResponse?.(status, body, context);
      },
    };
  });

  console.log(`▸ autocannon: ${CONNECTIONS} clients × ${DURATION_S} s, ${mix.length} requests per cycle (${[...byKind.keys()].join(", ")})`);
  const loadStarted = Date.now();
  memory.loadStarted();
  const result = await new Promise((resolve, reject) => {
    running = autocannon(
      {
        url: baseUrl,
        connections: CONNECTIONS,
        duration: DURATION_S,
        timeout: REQUEST_TIMEOUT_S,
        requests,
        initialContext: {},
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    running.on("response", (_client, _status, _bytes, ms) => latencies.push(ms));
    let lastTick = Date.now();
    running.on("tick", () => {
      if (Date.now() - lastTick < 15_000) return;
      lastTick = Date.now();
      const m = memory.latest();
      console.log(
        `  ${secs(Date.now() - loadStarted)}: ${fmtInt(latencies.length)} responses; worker heap ${mib(m.used)} ` +
          `(after the last full GC ${mib(m.heap)}); app's workerd RSS ${mb(m.rss.rssKb)}, proxy workerd ${mb(m.rss.proxyKb)}`,
      );
    });
  });
  running = null;
  await memory.loadEnded();

  // ---- Report
  const sorted = latencies.sort((a, b) => a - b);
  const non2xx = result.non2xx;
  const socketErrors = result.errors; // connection errors and timeouts (autocannon counts timeouts in errors too)
  const total = result.requests.total;
  const only = ONLY.size === Object.keys(KINDS).length ? "" : `, only ${[...ONLY].join(" + ")}`;
  console.log(`\n## ${fmtInt(CALLS)} call logs, ${CONNECTIONS} clients for ${DURATION_S} s${only} (seed ${secs(seedMs)}, load ${loadAverage()})\n`);
  console.log("| requests | non-2xx | socket errors | timeouts | p50 ms | p95 ms | p99 ms | max ms | req/s |");
  console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  console.log(
    `| ${fmtInt(total)} | ${non2xx} | ${socketErrors} | ${result.timeouts} | ${percentile(sorted, 50)?.toFixed(0)} | ${percentile(sorted, 95)?.toFixed(0)} | ` +
      `${percentile(sorted, 99)?.toFixed(0)} | ${sorted[sorted.length - 1]?.toFixed(0)} | ${result.requests.average.toFixed(1)} |`,
  );
  console.log("\nBy kind (from each response):");
  for (const k of byKind.values()) console.log(`  ${k.kind.padEnd(14)} ${fmtInt(k.count).padStart(8)} responses, ${k.non2xx} non-2xx${k.firstError ? ` (first: ${k.firstError})` : ""}`);
  console.log("");
  const { lines, kept } = memory.report();
  for (const line of lines) console.log(line);
  const flat = kept <= FLAT_HEAP_BYTES;
  console.log(
    `\nworker memory ${flat ? "flat" : "NOT flat"}: its heap after GC kept ${mib(Math.max(0, kept))} from ${fmtInt(total)} requests ` +
      `(${fmtInt(Math.max(0, kept) / Math.max(1, total))} bytes each; flat: at most ${mib(FLAT_HEAP_BYTES)})`,
  );

  // ---- Writes one database takes, then the mix again at 0 and at the distance
  const { DatabaseSync } = await import("node:sqlite");
  const file = new DatabaseSync(d1File, { readOnly: true });
  const assistantId = file
    .prepare("select a.vapi_assistant_id as id from agents a join profiles p on p.id = a.user_id where lower(p.email) = ? and a.vapi_assistant_id is not null order by a.id limit 1")
    .get(STAFF)?.id;
  file.close();
  let ramp = null;
  if (WRITE_RATES.length) {
    if (!assistantId) throw new Error("the seed gave the demo staff no agent with an assistant id: no webhook can name an owner");
    console.log(`\n▸ writes: VAPI end-of-call reports (a new call log each, ~1.8 KB transcript), ${WRITE_STEP_S} s at each of ${WRITE_RATES.join(", ")} per second, open loop`);
    ramp = await writeRamp(baseUrl, webhookWriter(baseUrl, assistantId));
  }
  let near = null;
  let far = null;
  let farWrites = null;
  if (D1_RTT > 0) {
    console.log(`\n▸ the mix again for ${DURATION_S} s without heap snapshots, at 0 ms per D1 round trip`);
    near = await mixRun(baseUrl, mix);
    inspector?.close();
    inspector = null;
    const { baseUrl: farUrl } = await app.serve({ assets, vars: { D1_RTT_MS: D1_RTT } });
    console.log(`▸ and at ${D1_RTT} ms per D1 round trip (wrangler dev with D1_RTT_MS=${D1_RTT} on the same database, ${farUrl})`);
    far = await mixRun(farUrl, requestMix(token));
    if (WRITE_RATES.length && assistantId) {
      console.log(`▸ writes at ${D1_RTT} ms: ${WRITE_RATES[0]}/s for ${WRITE_STEP_S} s`);
      farWrites = await writeStep(farUrl, WRITE_RATES[0], WRITE_STEP_S, webhookWriter(farUrl, assistantId));
    }
  }

  if (ramp) {
    console.log(`\n## Writes one database took (${fmtInt(CALLS)} call logs; load ${loadAverage()})\n`);
    console.log("| writes/s sent | answered | answered/s | p50 ms | p95 ms | errors | not sent |");
    console.log("|---:|---:|---:|---:|---:|---:|---:|");
    for (const x of ramp.steps) {
      console.log(`| ${x.rate} | ${fmtInt(x.answered)} | ${x.perSecond.toFixed(1)} | ${fmtMs(x.p50)} | ${fmtMs(x.p95)} | ${x.errors} | ${x.skipped} |`);
    }
    const why = ramp.stoppedBy
      ? ramp.stoppedBy.doubled
        ? `at ${ramp.stoppedBy.rate}/s p95 ${fmtMs(ramp.stoppedBy.p95)} ms is more than twice the first rate's ${fmtMs(ramp.steps[0].p95)} ms`
        : `at ${ramp.stoppedBy.rate}/s the server answered ${ramp.stoppedBy.perSecond.toFixed(1)}/s${ramp.stoppedBy.errors ? ` with ${ramp.stoppedBy.errors} errors` : ""}`
      : `p95 stayed within twice the first rate's up to the last rate, ${ramp.steps[ramp.steps.length - 1]?.rate}/s`;
    console.log(`\nhighest write rate sustained before latency climbed: ${ramp.sustained ? `${ramp.sustained.rate}/s (p95 ${fmtMs(ramp.sustained.p95)} ms)` : "none of the rates"}; ${why}`);
  }
  if (near && far) {
    console.log(`\n## Distance to the database: the mix for ${DURATION_S} s, ${CONNECTIONS} clients, at 0 and at ${D1_RTT} ms per D1 round trip\n`);
    console.log("| D1 round trip | requests | errors | p50 ms | p95 ms | req/s |");
    console.log("|---:|---:|---:|---:|---:|---:|");
    for (const [rtt, r] of [[0, near], [D1_RTT, far]]) console.log(`| ${rtt} ms | ${fmtInt(r.requests)} | ${r.errors} | ${fmtMs(r.p50)} | ${fmtMs(r.p95)} | ${r.rps.toFixed(1)} |`);
    if (farWrites && ramp) {
      const w0 = ramp.steps[0];
      console.log(`\nwrites at ${WRITE_RATES[0]}/s: p50/p95 ${fmtMs(w0.p50)}/${fmtMs(w0.p95)} ms at 0, ${fmtMs(farWrites.p50)}/${fmtMs(farWrites.p95)} ms at ${D1_RTT} ms`);
    }
  }

  const rampErrors = (ramp?.steps ?? []).slice(1).reduce((n, x) => n + x.errors, 0);
  const distanceErrors = (near?.errors ?? 0) + (far?.errors ?? 0);
  // Refusals at the ramp's first (lowest) rate are failures; above it they are how the limit shows.
  const errors = non2xx + socketErrors + distanceErrors + (ramp?.steps[0]?.errors ?? 0) + (farWrites?.errors ?? 0);
  console.log(
    `\n${errors === 0 ? "errors 0" : `${errors} errors`}${rampErrors ? ` (and ${rampErrors} writes refused or failed above the ramp's first rate, not counted)` : ""} ` +
      `(${secs(Date.now() - started)} in all)`,
  );
  return errors === 0 && flat;
}

let ok = false;
try {
  ok = await main();
} catch (e) {
  console.error(`\nthe load run could not run: ${e.stack ?? e.message}`);
  const log = tail(serverLog);
  if (log) console.error(`\nlast lines of the server log:\n${log}`);
} finally {
  await cleanup();
}
process.exit(ok ? 0 : 1);
