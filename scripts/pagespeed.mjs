// `npm run pagespeed -- [--calls N] [--runs N] [--no-build] [--verbose]`
//
// Page speed of the built SPA as a first visit sees it, measured in the machine's Chromium (not
// Lighthouse: see the README's "Page speed"). Builds, seeds a throwaway local D1 (the demo accounts;
// `--calls N` gives the staff account N calls), serves it with one `wrangler dev` on a free loopback
// port and loads /auth (signed out) and /dashboard, /call-logs and /agent-settings (demo staff) with
// an empty HTTP cache in two profiles:
//   mobile   412×823 at 1.75× (a Moto G Power), CPU slowed 4× and 1.6 Mbps / 150 ms RTT, as Lighthouse's mobile default
//   desktop  1350×940, 10 Mbps / 40 ms RTT, CPU as is, as Lighthouse's desktop preset
// and prints First Contentful Paint, Largest Contentful Paint, Total Blocking Time (long tasks after
// FCP, each beyond 50 ms) and the JavaScript the page downloaded (gzipped, as the edge serves it).
// The median of `--runs` loads (default 3) is printed. It reports; it does not gate.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { freePort, root } from "./lib.mjs";
import { applyMigrations, seed, servedBuild, startWrangler, stopGroup, waitUntilReady } from "./local-app.mjs";

const { values: args } = parseArgs({
  options: {
    calls: { type: "string" },
    runs: { type: "string", default: "3" },
    "no-build": { type: "boolean", default: false },
    // Lists each page's scripts (gzipped KB) under its line.
    verbose: { type: "boolean", default: false },
  },
});
const RUNS = Math.max(1, Number(args.runs) || 3);
const STAFF = "staff@demo.local";
const PASSWORD = "demo-password-1";
const PAGES = [
  { path: "/auth", signedIn: false },
  { path: "/dashboard", signedIn: true },
  { path: "/call-logs", signedIn: true },
  { path: "/agent-settings", signedIn: true },
];
const MOTO_G_POWER_UA =
  "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36";
const kbps = (n) => (n * 1024) / 8; // bytes per second
const PROFILES = {
  mobile: {
    context: { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true, userAgent: MOTO_G_POWER_UA },
    cpu: 4,
    network: { latency: 150, downloadThroughput: kbps(1638.4), uploadThroughput: kbps(750) },
  },
  desktop: {
    context: { viewport: { width: 1350, height: 940 }, deviceScaleFactor: 1 },
    cpu: 1,
    network: { latency: 40, downloadThroughput: kbps(10240), uploadThroughput: kbps(10240) },
  },
};
const QUIET_MS = 2000; // the page counts as loaded once no request has been open for this long
const MAX_WAIT_MS = 45_000;

const stateDir = path.join(root, ".wrangler", `pagespeed-${process.pid}`);
const assets = path.join(stateDir, "client");
let server = null;
let browser = null;
let logFd = null;

async function cleanup() {
  await browser?.close().catch(() => {});
  if (server) await stopGroup(server);
  if (logFd !== null) closeSync(logFd);
  rmSync(stateDir, { recursive: true, force: true });
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    await cleanup();
    process.exit(130);
  });
}

// Paint, LCP and long tasks, recorded from the document's first moment.
const observe = () => {
  const ps = { fcp: null, lcp: null, longTasks: [] };
  window.__pagespeed = ps;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === "first-contentful-paint") ps.fcp = e.startTime;
  }).observe({ type: "paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) ps.lcp = e.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) ps.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
};

/** Gzipped size of a built asset, as the edge sends it (the local server may send it uncompressed). */
const gzCache = new Map();
function gzSizeOf(url) {
  const { pathname } = new URL(url);
  if (!pathname.startsWith("/assets/")) return 0;
  if (!gzCache.has(pathname)) gzCache.set(pathname, gzipSync(readFileSync(path.join(assets, pathname))).length);
  return gzCache.get(pathname);
}

async function signIn(page, baseUrl) {
  await page.goto(`${baseUrl}/auth?login=1`);
  const form = page.getByRole("form", { name: "Sign In" });
  await form.getByLabel("Email", { exact: true }).fill(STAFF);
  await form.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await form.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL(/\/dashboard/, { timeout: 30_000 });
}

/** One cold load of `url` in `profile`; the session (if any) stays, the HTTP cache does not. */
async function measure(baseUrl, profileName, { path: pagePath, signedIn }) {
  const profile = PROFILES[profileName];
  const context = await browser.newContext(profile.context);
  await context.addInitScript(observe);
  const page = await context.newPage();
  try {
    if (signedIn) await signIn(page, baseUrl);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.clearBrowserCache");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, ...profile.network });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: profile.cpu });

    const scripts = new Map(); // requestId → url
    const open = new Set();
    let lastActivity = Date.now();
    let loadFired = false;
    const jsAtLoad = [];
    cdp.on("Network.requestWillBeSent", (e) => {
      open.add(e.requestId);
      lastActivity = Date.now();
    });
    cdp.on("Network.responseReceived", (e) => {
      if (e.type === "Script") scripts.set(e.requestId, e.response.url);
    });
    const done = (e) => {
      open.delete(e.requestId);
      lastActivity = Date.now();
      if (!loadFired && scripts.has(e.requestId)) jsAtLoad.push(scripts.get(e.requestId));
    };
    cdp.on("Network.loadingFinished", done);
    cdp.on("Network.loadingFailed", done);

    const started = Date.now();
    await page.goto(`${baseUrl}${pagePath}`, { waitUntil: "load", timeout: MAX_WAIT_MS });
    loadFired = true;
    while (Date.now() - started < MAX_WAIT_MS && (open.size > 0 || Date.now() - lastActivity < QUIET_MS)) {
      await new Promise((r) => setTimeout(r, 100));
    }
    if (!page.url().endsWith(pagePath)) throw new Error(`${pagePath} ended at ${page.url()}`);
    const ps = await page.evaluate(() => window.__pagespeed);
    const tbt = ps.fcp == null ? null : ps.longTasks.reduce((sum, [start, d]) => {
      const end = start + d;
      const from = Math.max(start, ps.fcp);
      return end > from ? sum + Math.max(0, end - from - 50) : sum;
    }, 0);
    const allJs = [...new Set(scripts.values())];
    return {
      fcp: ps.fcp,
      lcp: ps.lcp,
      tbt,
      jsLoadKb: [...new Set(jsAtLoad)].reduce((s, u) => s + gzSizeOf(u), 0) / 1024,
      jsKb: allJs.reduce((s, u) => s + gzSizeOf(u), 0) / 1024,
      scripts: allJs.map((u) => `${new URL(u).pathname} ${(gzSizeOf(u) / 1024).toFixed(1)}`),
    };
  } finally {
    await context.close().catch(() => {});
  }
}

const median = (xs) => {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};
const ms = (v) => (v == null ? "–" : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`);

async function main() {
  mkdirSync(stateDir, { recursive: true });
  await servedBuild(stateDir, { build: !args["no-build"] });
  logFd = openSync(path.join(stateDir, "server.log"), "a");
  const quiet = { stdio: ["ignore", logFd, logFd] };
  console.log("▸ throwaway local D1: migrations, seed");
  await applyMigrations(stateDir, quiet);
  await seed(stateDir, args.calls ? ["--calls", args.calls] : [], quiet);
  const envFile = path.join(stateDir, "pagespeed.env");
  writeFileSync(envFile, "# pagespeed: no secrets, local adapters only\n");
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  server = startWrangler({ port, persistTo: stateDir, envFile, assets, stdio: ["ignore", logFd, logFd] });
  await waitUntilReady(server, `${baseUrl}/api/health`);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  // A warm-up load: workerd compiles the worker on its first requests.
  await measure(baseUrl, "desktop", PAGES[1]).catch(() => {});

  console.log(`▸ ${RUNS} cold load(s) per page and profile, median shown\n`);
  const header = `${"profile".padEnd(8)} ${"page".padEnd(16)} ${"FCP".padStart(8)} ${"LCP".padStart(8)} ${"TBT".padStart(8)}  ${"JS by load".padStart(12)} ${"JS in all".padStart(12)}`;
  console.log(header);
  console.log("─".repeat(header.length));
  for (const profileName of Object.keys(PROFILES)) {
    for (const p of PAGES) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measure(baseUrl, profileName, p));
      const m = (k) => median(runs.map((r) => r[k]));
      console.log(
        `${profileName.padEnd(8)} ${p.path.padEnd(16)} ${ms(m("fcp")).padStart(8)} ${ms(m("lcp")).padStart(8)} ${ms(m("tbt")).padStart(8)}  ${`${m("jsLoadKb").toFixed(1)} KB`.padStart(12)} ${`${m("jsKb").toFixed(1)} KB`.padStart(12)}`,
      );
      if (args.verbose) console.log(runs[0].scripts.map((s) => `    ${s}`).join("\n"));
    }
  }
  console.log("\nJS: gzipped JavaScript the page downloaded by its load event, and in all once the network was quiet for 2 s.");
  return true;
}

let ok = false;
try {
  ok = await main();
} catch (e) {
  console.error(`\npagespeed could not run: ${e.message}`);
} finally {
  await cleanup();
}
process.exit(ok ? 0 : 1);
