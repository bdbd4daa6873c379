// `npm run pagespeed -- [--calls N] [--runs N] [--pages a,b] [--profiles mobile,desktop] [--protocol h2|h1] [--no-build] [--verbose] [--json FILE]`
//
// Lighthouse (the npm package, through its Node API) on the built SPA: builds, seeds a throwaway
// local D1 (the demo accounts; `--calls N` gives the staff account N calls), serves it with one
// `wrangler dev` on a free loopback port and audits /auth (signed out) and /dashboard, /call-logs and
// /agent-settings (demo staff, signed in) in Chromium, headless (the system's /usr/bin/chromium when present, else
// the one from npm; `CHROMIUM_PATH=npm` or a path chooses: scripts/chromium.mjs), in Lighthouse's mobile default
// (Moto G Power, simulated 4× CPU and slow 4G) and its desktop preset
// (lighthouse/core/config/desktop-config.js). Throttling is Lighthouse's default, simulated (Lantern).
// `--protocol h2` (the default) puts the HTTP/2 front of the browser benches (bench/http2-front.mjs)
// before `wrangler dev`, as the edge answers a deployed app's visitors over HTTP/2 or 3: every request
// on one connection. `--protocol h1` audits `wrangler dev`'s HTTP/1.1 as it is, where Lantern models
// up to six connections, each starting slow, for the page's twenty-odd files and requests.
// Each page and profile is audited `--runs` times (default 3); the table shows the median of each
// column. `--verbose` prints, per page and profile, the LCP element, the main-thread breakdown and the
// opportunities and diagnostics of the run with the median performance score. It reports; it does not
// gate (`scripts/bundle-size.mjs` is the gate).
//
// Signed-in pages: the demo staff signs in once through the sign-in form in the same browser; the
// session stays in localStorage (supabase-js's `sb-<ref>-auth-token`), which Lighthouse's storage
// reset leaves alone (its default `clearStorageTypes` clears caches, service workers and file systems,
// not localStorage). The HTTP cache is cleared before every audit as usual. /auth is audited with that
// key removed.
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { chromium } from "playwright-core";
import { chromiumToLaunch } from "./chromium.mjs";
import { startHttp2Front } from "../bench/http2-front.mjs";
import { freePort } from "./lib.mjs";
import { exitOnStopSignals, throwawayApp } from "./local-app.mjs";

const { values: args } = parseArgs({
  options: {
    calls: { type: "string" },
    runs: { type: "string", default: "3" },
    pages: { type: "string" },
    profiles: { type: "string", default: "mobile,desktop" },
    "no-build": { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
    // Writes every run's scores and metrics as JSON (for the tables of docs/performance.md).
    json: { type: "string" },
    protocol: { type: "string", default: "h2" },
  },
});
const RUNS = Math.max(1, Number(args.runs) || 3);
if (args.protocol !== "h2" && args.protocol !== "h1") {
  console.error("--protocol takes h2 or h1");
  process.exit(2);
}
const STAFF = "staff@demo.local";
const PASSWORD = "demo-password-1";
const ALL_PAGES = [
  { path: "/auth", signedIn: false },
  { path: "/dashboard", signedIn: true },
  { path: "/call-logs", signedIn: true },
  { path: "/agent-settings", signedIn: true },
];
const PAGES = args.pages ? ALL_PAGES.filter((p) => args.pages.split(",").some((w) => p.path.includes(w))) : ALL_PAGES;
const CONFIGS = { mobile: undefined, desktop: desktopConfig }; // undefined: Lighthouse's default (mobile)
const PROFILES = args.profiles.split(",").filter((p) => p in CONFIGS);
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const METRICS = [
  ["FCP", "first-contentful-paint"],
  ["LCP", "largest-contentful-paint"],
  ["TBT", "total-blocking-time"],
  ["CLS", "cumulative-layout-shift"],
  ["SI", "speed-index"],
];
const CHROME_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"];
// The front's certificate is made for the run and never trusted; this browser visits nothing else.
if (args.protocol === "h2") CHROME_FLAGS.push("--ignore-certificate-errors");

const app = throwawayApp("pagespeed");
let chrome = null;
let front = null;

async function cleanup() {
  try {
    chrome?.kill();
  } catch {
    // Chromium has already exited.
  }
  await front?.stop();
  await app.stop();
}
exitOnStopSignals(cleanup);

/** Signs the demo staff in (or out) in the launched Chromium, through the SPA itself. */
async function setSession(baseUrl, signedIn) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  try {
    const context = browser.contexts()[0];
    const page = await context.newPage();
    await page.goto(`${baseUrl}/auth?login=1`);
    const hasSession = () =>
      page.evaluate(() => Object.keys(localStorage).some((k) => k.startsWith("sb-") && k.endsWith("-auth-token")));
    if (!signedIn) {
      await page.evaluate(() => localStorage.clear());
    } else if (!(await hasSession())) {
      const form = page.getByRole("form", { name: "Sign In" });
      await form.getByLabel("Email", { exact: true }).fill(STAFF);
      await form.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await form.getByRole("button", { name: "Sign In", exact: true }).click();
      await page.waitForURL(/\/dashboard/, { timeout: 60_000 });
      if (!(await hasSession())) throw new Error("signed in, but no session in localStorage");
    }
    await page.close();
  } finally {
    // Disconnects; the browser Chromium-launcher started keeps running.
    await browser.close().catch(() => {});
  }
}

/** One audit; a run Lighthouse itself reports as broken (NO_NAVSTART, NO_FCP on a loaded machine) is retried twice. */
async function audit(url, profile) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await auditOnce(url, profile);
    } catch (e) {
      if (attempt >= 3 || !e.lighthouseRuntimeError) throw e;
      console.log(`  (${profile} ${new URL(url).pathname}: ${e.message}; again)`);
    }
  }
}

async function auditOnce(url, profile) {
  const flags = { port: chrome.port, logLevel: "error", output: "json", onlyCategories: CATEGORIES };
  const result = await lighthouse(url, flags, CONFIGS[profile]);
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse returned nothing for ${url}`);
  if (lhr.runtimeError) {
    throw Object.assign(new Error(`${lhr.runtimeError.code}`), { lighthouseRuntimeError: true });
  }
  const final = new URL(lhr.finalDisplayedUrl);
  if (final.pathname !== new URL(url).pathname) throw new Error(`${url} ended at ${lhr.finalDisplayedUrl}`);
  return lhr;
}

const scoresOf = (lhr) => ({
  ...Object.fromEntries(CATEGORIES.map((c) => [c, lhr.categories[c]?.score == null ? null : Math.round(lhr.categories[c].score * 100)])),
  ...Object.fromEntries(METRICS.map(([k, id]) => [k, lhr.audits[id]?.numericValue ?? null])),
  // Lighthouse's measure of this machine's speed at that moment (higher is faster; see docs/performance.md).
  BI: lhr.environment?.benchmarkIndex ?? null,
});

const median = (xs) => {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};
const ms = (v) => (v == null ? "–" : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`);
const fmt = (k, v) => (v == null ? "–" : k === "CLS" ? v.toFixed(3) : k === "FCP" || k === "LCP" || k === "TBT" || k === "SI" ? ms(v) : String(v));

/** The LCP element, the main thread's work and what Lighthouse suggests, briefly. */
function explain(lhr) {
  const out = [];
  // Lighthouse 13 reports the LCP element and its parts in the LCP breakdown insight.
  const lcp = lhr.audits["lcp-breakdown-insight"]?.details?.items ?? [];
  const lcpEl = lcp.find((i) => i.type === "node");
  if (lcpEl) out.push(`LCP element: ${lcpEl.nodeLabel ?? ""} ‹${(lcpEl.snippet ?? "").slice(0, 120)}›`);
  const parts = lcp.find((i) => i.type === "table")?.items;
  if (parts) out.push(`LCP parts (observed, unthrottled): ${parts.map((p) => `${p.label} ${ms(p.duration)}`).join(", ")}`);
  const mt = lhr.audits["mainthread-work-breakdown"];
  if (mt?.numericValue) out.push(`main thread: ${ms(mt.numericValue)} (${(mt.details?.items ?? []).slice(0, 4).map((i) => `${i.groupLabel} ${ms(i.duration)}`).join(", ")})`);
  const boot = lhr.audits["bootup-time"]?.details?.items ?? [];
  if (boot.length) out.push(`JS execution: ${boot.slice(0, 4).map((i) => `${i.url.replace(/^https?:\/\/[^/]+/, "")} ${ms(i.total)}`).join(", ")}`);
  const long = lhr.audits["long-tasks"]?.details?.items ?? [];
  if (long.length)
    out.push(`long tasks (observed): ${long.slice(0, 8).map((t) => `${t.url.replace(/^https?:\/\/[^/]+/, "") || "?"} @${ms(t.startTime)} ${ms(t.duration)}`).join(", ")}`);
  const failing = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== "informative" && a.scoreDisplayMode !== "notApplicable" && a.scoreDisplayMode !== "manual")
    .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ""}`);
  if (failing.length) out.push(`below 0.9: ${failing.join("; ")}`);
  const insights = Object.values(lhr.audits)
    .filter((a) => a.id.endsWith("-insight") && a.score !== null && a.score < 1 && a.scoreDisplayMode !== "notApplicable")
    .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ""}`);
  if (insights.length) out.push(`insights: ${insights.join("; ")}`);
  return out.map((l) => `    ${l}`).join("\n");
}

async function main() {
  const assets = await app.servedBuild({ build: !args["no-build"] });
  console.log("▸ throwaway local D1: migrations, seed");
  await app.migrate();
  await app.seed(args.calls ? ["--calls", args.calls] : []);
  let baseUrl;
  if (args.protocol === "h2") {
    // The Worker is told the front's origin, so the pages it serves call the front.
    const frontPort = await freePort();
    const local = await app.serve({ assets, extraArgs: ["--local-upstream", `127.0.0.1:${frontPort}`, "--upstream-protocol", "https"] });
    front = await startHttp2Front({ target: local.baseUrl, port: frontPort });
    baseUrl = front.url;
  } else {
    baseUrl = (await app.serve({ assets })).baseUrl;
  }
  mkdirSync(path.join(app.stateDir, "chromium"));
  const chromiumBinary = await chromiumToLaunch();
  console.log(`▸ ${chromiumBinary.label}`);
  chrome = await chromeLauncher.launch({
    chromePath: chromiumBinary.executablePath,
    envVars: chromiumBinary.env,
    chromeFlags: CHROME_FLAGS,
    userDataDir: path.join(app.stateDir, "chromium"),
    logLevel: "silent",
  });

  const load = () => loadavg().map((n) => n.toFixed(2)).join(" ");
  console.log(`▸ Lighthouse ${RUNS}× per page and profile, simulated throttling, ${args.protocol === "h2" ? "HTTP/2 front" : "HTTP/1.1"}; median of each column; load average ${load()}\n`);
  // A warm-up audit: workerd compiles the worker and the SPA's assets on their first requests.
  await setSession(baseUrl, true);
  await audit(`${baseUrl}/dashboard`, "desktop").catch(() => {});

  const cols = ["perf", "a11y", "BP", "SEO", ...METRICS.map(([k]) => k), "BI"];
  const header = `${"profile".padEnd(8)} ${"page".padEnd(16)} ${cols.map((c) => c.padStart(c.length > 4 ? c.length : 8)).join(" ")}`;
  const line = (profile, page, r) =>
    `${profile.padEnd(8)} ${page.padEnd(16)} ${[
      ...CATEGORIES.map((c) => fmt("score", r[c])),
      ...METRICS.map(([k]) => fmt(k, r[k])),
      r.BI == null ? "–" : String(Math.round(r.BI)),
    ]
      .map((v) => v.padStart(8))
      .join(" ")}`;
  const rows = [];
  const all = [];
  for (const profile of PROFILES) {
    for (const p of PAGES) {
      await setSession(baseUrl, p.signedIn);
      const lhrs = [];
      for (let i = 0; i < RUNS; i++) lhrs.push(await audit(`${baseUrl}${p.path}`, profile));
      const runs = lhrs.map(scoresOf);
      const med = Object.fromEntries(Object.keys(runs[0]).map((k) => [k, median(runs.map((r) => r[k]))]));
      rows.push(line(profile, p.path, med));
      all.push({ profile, page: p.path, median: med, runs, load: loadavg() });
      if (args.verbose) {
        const byPerf = [...lhrs].sort((a, b) => a.categories.performance.score - b.categories.performance.score);
        console.log(`${profile} ${p.path} (perf ${runs.map((r) => r.performance).join(", ")})\n${explain(byPerf[Math.floor((byPerf.length - 1) / 2)])}`);
      }
    }
  }
  console.log(`\n${header}\n${"─".repeat(header.length)}\n${rows.join("\n")}`);
  console.log(
    `\nScores 0-100 (perf = performance, a11y = accessibility, BP = best practices); metrics as Lighthouse computes them;` +
      ` BI = Lighthouse's benchmark index of this machine during the runs (higher is faster). Load average at the end ${load()}.`,
  );
  if (args.json) writeFileSync(args.json, `${JSON.stringify(all, null, 2)}\n`);
  return true;
}

let ok = false;
try {
  ok = await main();
} catch (e) {
  console.error(`\npagespeed could not run: ${e.stack ?? e.message}`);
} finally {
  await cleanup();
}
process.exit(ok ? 0 : 1);
