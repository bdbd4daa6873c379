// `npm run proof:load:control -- [--duration S] [--connections N] [--d1-queries N] [--gc-every S]`
//
// The load proof's control run: the same `wrangler dev`, the same clients and the same memory figures
// (bench/memory.mjs), but for a worker of a few lines that answers "ok" after writing one log line (as
// the app's request log does) and, with `--d1-queries N`, sending N one-row queries to a local D1. What
// grows here under load is the local runtime's, not the app's: it is the baseline the load proof's RSS
// figures are read against. Exits 1 when a request failed.
import { mkdirSync, openSync, closeSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { bin, cliOptions, freePort, root, startGroup } from "../scripts/lib.mjs";
import { stopGroup, waitUntilReady } from "../scripts/local-app.mjs";
import { connectInspector } from "./inspector.mjs";
import { watchMemory } from "./memory.mjs";

const usage = "npm run proof:load:control -- [--duration S] [--connections N] [--d1-queries N] [--gc-every S] [--keep]";
const { args, wholeNumber } = cliOptions(
  {
    duration: { type: "string", default: "120" },
    connections: { type: "string", default: "50" },
    "d1-queries": { type: "string", default: "0" },
    "gc-every": { type: "string", default: "60" },
    keep: { type: "boolean", default: false },
  },
  usage,
);
const DURATION_S = wholeNumber("duration", 1);
const CONNECTIONS = wholeNumber("connections", 1);
const D1_QUERIES = wholeNumber("d1-queries", 0);
const GC_EVERY_S = wholeNumber("gc-every", 0);

const stateDir = path.join(root, ".wrangler", `load-control-${process.pid}`);
const loadAverage = () => os.loadavg().map((n) => n.toFixed(2)).join(" ");
let server = null;
let logFd = null;
let inspector = null;
let running = null;

async function cleanup() {
  running?.stop();
  inspector?.close();
  if (server) await stopGroup(server);
  if (logFd !== null) closeSync(logFd);
  if (args.keep) console.log(`state kept in ${path.relative(root, stateDir)}`);
  else rmSync(stateDir, { recursive: true, force: true });
}
for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]]) {
  process.on(signal, async () => {
    await cleanup();
    process.exit(code);
  });
}

const WORKER = `export default {
  async fetch(request, env) {
    const started = Date.now();
    for (let i = 0; i < ${D1_QUERIES}; i++) await env.DB.prepare("SELECT ?1 AS n").bind(i).first();
    console.log(JSON.stringify({ level: "info", message: "request", requestId: crypto.randomUUID(), path: new URL(request.url).pathname, ms: Date.now() - started }));
    return new Response("ok");
  },
};
`;

async function main() {
  console.log(
    `▸ control: a worker that answers "ok"${D1_QUERIES ? ` after ${D1_QUERIES} D1 queries` : ""}, ${CONNECTIONS} clients for ${DURATION_S} s; ` +
      `${os.cpus().length} cores, load ${loadAverage()}, Node ${process.version}`,
  );
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(path.join(stateDir, "worker.js"), WORKER);
  writeFileSync(
    path.join(stateDir, "wrangler.toml"),
    [
      'name = "load-control"',
      'main = "worker.js"',
      'compatibility_date = "2026-08-01"',
      "[[d1_databases]]",
      'binding = "DB"',
      'database_name = "load-control"',
      'database_id = "00000000-0000-4000-8000-00000000c0de"',
      "",
    ].join("\n"),
  );
  logFd = openSync(path.join(stateDir, "server.log"), "a");
  const port = await freePort();
  const inspectorPort = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  server = startGroup(
    bin("wrangler"),
    ["dev", "-c", path.join(stateDir, "wrangler.toml"), "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspectorPort), "--show-interactive-dev-session=false", "--persist-to", stateDir],
    { stdio: ["ignore", logFd, logFd] },
  );
  await waitUntilReady(server, baseUrl);
  inspector = await connectInspector(inspectorPort);
  const memory = watchMemory({ pgid: server.child.pid, inspector, snapshotDir: stateDir, gcEveryS: GC_EVERY_S, durationS: DURATION_S });
  await memory.before();
  const latencies = [];
  memory.loadStarted();
  const result = await new Promise((resolve, reject) => {
    running = autocannon({ url: baseUrl, connections: CONNECTIONS, duration: DURATION_S, timeout: 30 }, (err, res) => (err ? reject(err) : resolve(res)));
    running.on("response", (_c, _s, _b, ms) => latencies.push(ms));
  });
  running = null;
  await memory.loadEnded();
  const errors = result.non2xx + result.errors;
  const sorted = latencies.sort((a, b) => a - b);
  const p = (q) => sorted[Math.min(sorted.length - 1, Math.ceil((q / 100) * sorted.length) - 1)]?.toFixed(0);
  console.log(`\n## control, ${CONNECTIONS} clients for ${DURATION_S} s (load ${loadAverage()})\n`);
  console.log(`${result.requests.total.toLocaleString("en-US")} requests, ${errors} errors, p50/p95/p99 ${p(50)}/${p(95)}/${p(99)} ms, ${result.requests.average.toFixed(1)} requests/s\n`);
  for (const line of memory.report({ control: true }).lines) console.log(line);
  return errors === 0;
}

let ok = false;
try {
  ok = await main();
} catch (e) {
  console.error(`\nthe control run could not run: ${e.stack ?? e.message}`);
} finally {
  await cleanup();
}
process.exit(ok ? 0 : 1);
