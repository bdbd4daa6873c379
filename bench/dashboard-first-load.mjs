// `npm run bench:dashboard -- [--calls N] [--state DIR] [--d1-rtt MS[,MS…]] [--runs N] [--rounds N]
//                             [--protocol h1|h2[,…]] [--apart] [--assets DIR[,DIR…]] [--waterfall] [--no-build]`
//
// The staff dashboard's first load in Chromium alone (bench/dashboard.mjs), without the rest of the
// bench, on a seeded database it keeps and reuses: seeding the issue's 1,000,000 calls takes minutes,
// so the first run seeds `--state` (default .wrangler/dashboard-first-load) with the bench's --full
// data set (or `--calls N` and the bench's proportions), runs the nightly cron once, and later runs
// only serve it again. For each `--d1-rtt` (default 50) it serves the same database and build with
// D1_RTT_MS, measures `--runs` loads (3), and prints the time until every section shows its figures
// and each run's waterfall in short (when the HTML was in; the first contentful paint; DOMContentLoaded; when the profile left and was answered; when the first section request left and
// the last was answered), in full with `--waterfall` (every script and API request, when it left and
// when its answer was in, and the page's performance marks, if a build makes any).
// `--protocol` (default h2,h1) chooses how the browser reaches the server: `h2` through an HTTPS
// front speaking HTTP/2 (bench/http2-front.mjs), as the edge serves the product; `h1` to
// `wrangler dev` itself, HTTP/1.1 with Chromium's six connections per host.
// `--apart` runs the browser on CPU 0 and the server (wrangler, workerd, the front) on CPU 1, as a
// user's device and the edge do not share a processor; without it they share every CPU.
// `--assets` serves other builds of the SPA (dist/client copies, e.g. of an older commit) instead of
// this tree's; with several, each round (`--rounds`, 1) measures each in turn, so a busy machine's
// load falls on all of them alike. A state directory seeded on an earlier day has its "today" in the
// past: remove it to seed anew.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { cliOptions, freePort, root } from "../scripts/lib.mjs";
import { applyMigrations, exitOnStopSignals, seed, servedBuild, startWrangler, stopGroup, waitUntilReady } from "../scripts/local-app.mjs";
import { measureDashboard, startBrowser, stopBrowser } from "./dashboard.mjs";
import { startHttp2Front } from "./http2-front.mjs";
import { findD1File, median, runCron } from "./ops.mjs";

const { args } = cliOptions(
  {
    calls: { type: "string", default: "1000000" },
    state: { type: "string", default: ".wrangler/dashboard-first-load" },
    "d1-rtt": { type: "string", default: "50" },
    runs: { type: "string", default: "3" },
    rounds: { type: "string", default: "1" },
    protocol: { type: "string", default: "h2,h1" },
    apart: { type: "boolean", default: false },
    assets: { type: "string" },
    waterfall: { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
  },
  "npm run bench:dashboard -- [--calls N] [--state DIR] [--d1-rtt MS[,MS…]] [--runs N] [--rounds N] [--protocol h1|h2[,…]] [--apart] [--assets DIR[,DIR…]] [--waterfall] [--no-build]",
);
const CALLS = Number(args.calls);
const RTTS = args["d1-rtt"].split(",").map(Number);
const RUNS = Number(args.runs);
const ROUNDS = Number(args.rounds);
const PROTOCOLS = args.protocol.split(",");
if (PROTOCOLS.some((p) => p !== "h1" && p !== "h2")) {
  console.error("--protocol takes h1, h2 or both");
  process.exit(2);
}
if (![CALLS, RUNS, ROUNDS].every((n) => Number.isInteger(n) && n >= 1) || RTTS.some((r) => !Number.isInteger(r) || r < 0 || r > 1000)) {
  console.error("--calls, --runs and --rounds take whole numbers ≥ 1, --d1-rtt whole numbers 0–1000");
  process.exit(2);
}
// The bench's --full data set at 1,000,000 calls; other sizes keep the bench's proportions.
const dataSet =
  CALLS === 1_000_000
    ? { calls: 1_000_000, aircall: 200_000, appointments: 200_000, leads: 50_000 }
    : { calls: CALLS, aircall: Math.round(CALLS * 0.2), appointments: Math.round(CALLS * 0.2), leads: Math.round(CALLS * 0.05) };

const stateDir = path.resolve(root, args.state);
const marker = path.join(stateDir, "seeded.json");
const quiet = { stdio: ["ignore", "ignore", "inherit"] };
let server = null;
let front = null;
exitOnStopSignals(async () => {
  await stopBrowser();
  await front?.stop();
  if (server) await stopGroup(server);
});

/**
 * Serves `assets` with D1_RTT_MS=`rtt`; with `protocol` h2, behind the HTTP/2 front, the Worker told
 * that its origin is the front's (so the pages it serves call the front).
 */
async function serve(assets, rtt, protocol = "h1") {
  await front?.stop();
  front = null;
  if (server) await stopGroup(server);
  const envFile = path.join(stateDir, "bench.env");
  writeFileSync(envFile, `# dashboard bench: no secrets, local adapters only\nD1_RTT_MS=${rtt}\n`);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const frontPort = protocol === "h2" ? await freePort() : null;
  const extraArgs = frontPort ? ["--local-upstream", `127.0.0.1:${frontPort}`, "--upstream-protocol", "https"] : [];
  server = startWrangler({ port, persistTo: stateDir, envFile, assets, stdio: quiet.stdio, extraArgs });
  await waitUntilReady(server, `${baseUrl}/api/health`);
  if (!frontPort) return baseUrl;
  front = await startHttp2Front({ target: baseUrl, port: frontPort });
  return front.url;
}

const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** One run's waterfall in short: the profile, the sections' requests (first to leave, last answered). */
function shortWaterfall(w) {
  const api = w.entries.filter((e) => e.what.startsWith("/api/"));
  // Builds from before the entry sent its own first requests loaded an early entry of their own.
  const early = w.entries.find((e) => /^\/assets\/early-[\w-]+\.js$/.test(e.what));
  const profile = api.find((e) => e.what === "/api/profile");
  const sections = api.filter((e) => e.what !== "/api/profile" && !e.what.startsWith("/api/live/"));
  const first = Math.min(...sections.map((e) => e.start));
  const last = Math.max(...sections.map((e) => e.end));
  return `HTML ${w.html}; ${early ? `early entry ${early.start}→${early.end}; ` : ""}first paint ${w.firstContentfulPaint}; DOMContentLoaded ${w.domContentLoaded}; profile ${profile?.start}→${profile?.end}; ${sections.length} section requests: first left ${first}, last answered ${last}`;
}

async function main() {
  const builds = args.assets
    ? args.assets.split(",").map((dir) => ({ label: dir, dir: path.resolve(root, dir) }))
    : [{ label: "this tree", dir: await servedBuild(stateDir, { build: !args["no-build"] }) }];
  const assets = builds[0].dir;
  const seeded = existsSync(marker) ? JSON.parse(readFileSync(marker, "utf8")) : null;
  // A state from before the shards (decision 076) holds every call in the directory, where no path reads them.
  if (seeded && !seeded.shards) throw new Error(`${args.state} was seeded before the shards: remove it to seed it anew`);
  if (!seeded || seeded.calls !== dataSet.calls) {
    if (seeded) throw new Error(`${args.state} holds ${seeded.calls} calls, not ${dataSet.calls}: remove it or choose another --state`);
    console.log(`▸ seeding ${args.state}: ${dataSet.calls} calls, ${dataSet.aircall} Aircall calls, ${dataSet.appointments} appointments, ${dataSet.leads} leads over 90 days`);
    const t0 = Date.now();
    await applyMigrations(stateDir, quiet);
    const seedArgs = ["--calls", dataSet.calls, "--aircall-calls", dataSet.aircall, "--appointments", dataSet.appointments, "--leads", dataSet.leads, "--days", 90, "--call-text", "none"];
    await seed(stateDir, seedArgs.map(String));
    const baseUrl = await serve(assets, 0);
    const cron = await runCron(baseUrl, await findD1File(stateDir));
    writeFileSync(marker, JSON.stringify({ ...dataSet, shards: true, seededAt: new Date().toISOString() }));
    console.log(`  seeded and rolled up in ${secs(Date.now() - t0)} (cron ${secs(cron.ms)})`);
  } else {
    console.log(`▸ reusing ${args.state} (${dataSet.calls} calls, seeded ${seeded.seededAt})`);
  }

  if (args.apart) {
    if (os.availableParallelism() < 2) throw new Error("--apart needs two CPUs");
    // This process and everything it starts from now on (wrangler, workerd, the front) on CPU 1.
    execFileSync("taskset", ["-a", "-p", "-c", "1", String(process.pid)], quiet);
  }
  const browser = await startBrowser({ cpus: args.apart ? "0" : undefined });
  const fmt = (x) => `${Math.round(x.ms)} ms (runs ${x.msAll.map((m) => Math.round(m)).join(", ")}), ${x.requests} API requests, ${x.trips} D1 trips${x.failed ? `, ${x.failed} sections showed their error` : ""}`;
  const firstLoads = new Map(); // `${rtt} ${label}` → every run's first-load ms
  const firstPaints = new Map(); // `${rtt} ${label}` → every run's first contentful paint
  for (const [rtt, protocol] of RTTS.flatMap((r) => PROTOCOLS.map((p) => [r, p]))) {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const build of builds) {
        const baseUrl = await serve(build.dir, rtt, protocol);
        const d = await measureDashboard(baseUrl, { runs: RUNS });
        const key = `${rtt} ms, ${protocol === "h2" ? "HTTP/2 front" : "HTTP/1.1"}${args.apart ? ", browser and server apart" : ""}, ${build.label}`;
        firstLoads.set(key, [...(firstLoads.get(key) ?? []), ...d.load.msAll]);
        firstPaints.set(key, [...(firstPaints.get(key) ?? []), ...d.waterfalls.map((w) => w.firstContentfulPaint).filter((ms) => ms !== null)]);
        console.log(`\n## ${key}, round ${round}: ${browser}, ${d.sections} sections, median of ${d.runs} (load ${os.loadavg().map((n) => n.toFixed(1)).join(" ")})`);
        console.log(`  first load: every section's figures after ${fmt(d.load)}`);
        console.log(`  Refresh All Sections: ${fmt(d.refresh)}`);
        console.log(`  again: ${fmt(d.refresh2)}`);
        d.waterfalls.forEach((w, i) => {
          console.log(`  run ${i + 1} (${Math.round(d.load.msAll[i])} ms): ${shortWaterfall(w)}`);
          if (!args.waterfall) return;
          for (const e of [...w.entries].sort((a, b) => a.start - b.start)) console.log(`    ${String(e.start).padStart(5)} → ${String(e.end).padStart(5)}  ${e.what}`);
        });
      }
    }
  }
  console.log("\n## first load, every run (ms until every section shows its figures)");
  for (const [key, all] of firstLoads) console.log(`  ${key}: median ${Math.round(median(all))} (${all.map((m) => Math.round(m)).join(", ")})`);
  console.log("\n## first contentful paint, every run (ms)");
  for (const [key, all] of firstPaints) if (all.length) console.log(`  ${key}: median ${Math.round(median(all))} (${all.join(", ")})`);
}

try {
  await main();
} finally {
  await stopBrowser();
  await front?.stop();
  if (server) await stopGroup(server);
}
