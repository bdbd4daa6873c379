// The signed-in staff dashboard in a real browser, for the bench: how many API requests its first load
// and two clicks on "Refresh All Sections" make, how many of them were revalidated (304) or needed no
// D1 at all, and the time from the navigation (or the click) until every section shows its figures.
//
// "Shows its figures" is read from the DOM: every section of the dashboard is in the page (the sections
// below Call Logs render a moment after the first screen; their number is taken from a warm-up load),
// no section holds a loading skeleton (SectionSkeleton, the only element of a section with
// aria-busy="true"), and none shows its error text (role="alert"). After the click the skeletons must
// first have appeared (a MutationObserver notes it, however briefly they show) and then be gone again.
//
// Each request is seen through the DevTools protocol (Network domain): the status the server sent (from
// responseReceivedExtraInfo: a revalidation answered 304 is reported as the cached 200 everywhere
// else, the page's fetch included), whether the browser answered it from its cache alone, and the
// `db-trips` of its Server-Timing (0 or absent: no D1 reached; a 304 still reads one row, so it is
// counted apart).
// The functions given to page.evaluate and waitForFunction run in the page, with the browser's globals.
/* global document, window, MutationObserver */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, chromiumToLaunch } from "../scripts/chromium.mjs";
import { median } from "./ops.mjs";

const STAFF = "staff@demo.local";
const PASSWORD = "demo-password-1";
const REFRESH_ALL = "Refresh All Sections";
const TIMEOUT_MS = 120_000;
// A desktop viewport: every section is in the DOM at any width; this is the width staff use most.
const VIEWPORT = { width: 1280, height: 900 };

let browser = null;
// An https:// base is the bench's HTTP/2 front (bench/http2-front.mjs), whose certificate is made per run.
const isFront = (baseUrl) => baseUrl.startsWith("https:");
let label = null;

/**
 * Starts the browser once (scripts/chromium.mjs chooses which); later calls reuse it. With `cpus`
 * (a taskset CPU list, e.g. "0"), the browser and every process it starts run on those CPUs only.
 */
export async function startBrowser({ cpus } = {}) {
  if (browser) return label;
  const chromiumBinary = await chromiumToLaunch();
  let executablePath = chromiumBinary.executablePath;
  if (cpus) {
    // A wrapper the launcher runs in the binary's place: taskset sets the affinity its children inherit.
    executablePath = path.join(mkdtempSync(path.join(os.tmpdir(), "bench-chromium-")), "chromium");
    writeFileSync(executablePath, `#!/bin/sh\nexec taskset -c ${cpus} "${chromiumBinary.executablePath}" "$@"\n`, { mode: 0o755 });
  }
  browser = await chromium.launch({
    executablePath,
    env: chromiumBinary.env,
    args: CHROMIUM_ARGS,
  });
  label = chromiumBinary.label;
  return label;
}

export async function stopBrowser() {
  await browser?.close().catch(() => {});
  browser = null;
}

/** Signs the demo staff in through the sign-in form; the session (localStorage) for new contexts. */
async function staffSession(baseUrl) {
  const context = await browser.newContext({ viewport: VIEWPORT, ignoreHTTPSErrors: isFront(baseUrl) });
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/auth?login=1`);
    const form = page.getByRole("form", { name: "Sign In" });
    await form.getByLabel("Email", { exact: true }).fill(STAFF);
    await form.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await form.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL(/\/dashboard/, { timeout: TIMEOUT_MS });
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** Every /api/ request of the page from now on, through the DevTools protocol. */
async function watchApi(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const requests = new Map();
  const wireStatus = new Map(); // requestId → the status on the wire, which may arrive before or after the rest
  const isApi = (url) => new URL(url).pathname.startsWith("/api/");
  cdp.on("Network.responseReceivedExtraInfo", (e) => wireStatus.set(e.requestId, e.statusCode));
  cdp.on("Network.requestWillBeSent", (e) => {
    if (isApi(e.request.url)) requests.set(e.requestId, { url: e.request.url, status: null, fromCache: false, trips: null, done: false });
  });
  cdp.on("Network.requestServedFromCache", (e) => {
    const r = requests.get(e.requestId);
    if (r) r.fromCache = true;
  });
  cdp.on("Network.responseReceived", (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    r.status = e.response.status;
    if (e.response.fromDiskCache) r.fromCache = true;
    const header = Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === "server-timing")?.[1];
    const m = header?.match(/db-trips;desc="(\d+)"/);
    r.trips = m ? Number(m[1]) : 0;
  });
  for (const event of ["Network.loadingFinished", "Network.loadingFailed"]) {
    cdp.on(event, (e) => {
      const r = requests.get(e.requestId);
      if (r) r.done = true;
    });
  }
  return {
    /** What has been requested since the last mark; resets the list. */
    take() {
      const list = [...requests.entries()].map(([id, r]) => ({ ...r, status: wireStatus.get(id) ?? r.status }));
      requests.clear();
      wireStatus.clear();
      return {
        requests: list.length,
        // Revalidated: the server answered 304 (no count ran; one D1 trip read the version row).
        revalidated: list.filter((r) => r.status === 304).length,
        // No D1 at all: the browser's cache alone, or an answer that made no D1 trip.
        withoutD1: list.filter((r) => r.status !== 304 && (r.fromCache || r.trips === 0)).length,
        failed: list.filter((r) => r.status == null || (r.status >= 400 && r.status !== 304)).length,
        trips: list.reduce((n, r) => n + (r.trips ?? 0), 0),
      };
    },
    inFlight: () => [...requests.values()].some((r) => !r.done),
  };
}

/** Runs in the page: the dashboard's sections, how many are still loading, how many show their error. */
function sectionsState() {
  const sections = [...document.querySelectorAll("main section[aria-labelledby]")];
  return {
    sections: sections.length,
    busy: sections.filter((s) => s.querySelector('[aria-busy="true"]:not(button)')).length,
    failed: sections.filter((s) => s.querySelector('[role="alert"]')).length,
  };
}

/**
 * Runs in the page: when each script and API request of the load left and when its answer was in
 * (ms since the navigation, from Resource Timing), with the document's DOMContentLoaded, so a
 * report shows what waited on what, not only the total.
 */
function firstLoadWaterfall() {
  const nav = performance.getEntriesByType("navigation")[0];
  const entries = performance
    .getEntriesByType("resource")
    .filter((e) => /\/api\/|\.js$/.test(new URL(e.name).pathname))
    .map((e) => {
      const url = new URL(e.name);
      return { what: url.pathname + url.search, start: Math.round(e.startTime), end: Math.round(e.responseEnd) };
    });
  // The page's own performance marks, if it makes any (a build instrumented to see where time goes).
  const marks = performance.getEntriesByType("mark").map((m) => ({ what: `mark: ${m.name}`, start: Math.round(m.startTime), end: Math.round(m.startTime) }));
  // When the first text was painted: from the HTML's first screen, or from the app's first render.
  const fcp = performance.getEntriesByType("paint").find((p) => p.name === "first-contentful-paint");
  return {
    html: nav ? Math.round(nav.responseEnd) : null,
    domContentLoaded: nav ? Math.round(nav.domContentLoadedEventEnd) : null,
    firstContentfulPaint: fcp ? Math.round(fcp.startTime) : null,
    entries: [...entries, ...marks],
  };
}

/**
 * Resolves with performance.now() (ms since the navigation) once `expected` sections show their
 * figures, or as soon as one shows its error text. `afterBusy`: only once skeletons have been seen.
 */
const figuresShown = (page, expected, { afterBusy = false } = {}) =>
  page
    .waitForFunction(
      ({ expected, afterBusy }) => {
        // sectionsState, inlined: the predicate runs in the page and sees nothing of this module.
        const sections = [...document.querySelectorAll("main section[aria-labelledby]")];
        const busy = sections.filter((s) => s.querySelector('[aria-busy="true"]:not(button)')).length;
        const failed = sections.filter((s) => s.querySelector('[role="alert"]')).length;
        if (failed > 0) return { failed, at: performance.now() };
        if ((afterBusy && !window.__benchBusySeen) || sections.length < expected || busy > 0) return false;
        return { at: performance.now() };
      },
      { expected, afterBusy },
      { polling: 10, timeout: TIMEOUT_MS },
    )
    .then((h) => h.jsonValue());

async function settle(page, api) {
  const deadline = Date.now() + 10_000;
  await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => {});
  while (api.inFlight() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

/**
 * Clicks "Refresh All Sections" and waits until the sections' skeletons have shown and every section
 * shows its figures again; ms from the click.
 */
async function refreshAll(page, api, expected) {
  await page.evaluate(() => {
    window.__benchBusySeen = false;
    window.__benchObserver?.disconnect();
    const seen = () => {
      if (document.querySelector('main section [aria-busy="true"]:not(button)')) window.__benchBusySeen = true;
    };
    window.__benchObserver = new MutationObserver(seen);
    window.__benchObserver.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-busy"] });
    window.__benchClickAt = performance.now();
  });
  await page.getByRole("button", { name: REFRESH_ALL, exact: true }).click();
  const again = await figuresShown(page, expected, { afterBusy: true });
  const clickAt = await page.evaluate(() => window.__benchClickAt);
  await settle(page, api);
  return { ms: again.at - clickAt, failed: again.failed ?? 0, ...api.take() };
}

/**
 * `runs` times: a new browser context (empty HTTP cache) with the staff's session opens /dashboard
 * and waits until every section shows its figures; then "Refresh All Sections" is clicked twice (the
 * dates it applies are the default ones, yesterday), each followed by the same wait. The second click
 * finds every answer of the first in the browser's cache.
 * Returns per-run figures and their medians.
 */
export async function measureDashboard(baseUrl, { runs = 3 } = {}) {
  await startBrowser();
  const storageState = await staffSession(baseUrl);
  const open = async () => {
    const context = await browser.newContext({ viewport: VIEWPORT, storageState, ignoreHTTPSErrors: isFront(baseUrl) });
    const page = await context.newPage();
    const api = await watchApi(page);
    return { context, page, api };
  };

  // Warm-up: workerd compiles the routes and the SPA's chunks are served once; it also tells how many
  // sections this user's dashboard has.
  let expected;
  {
    const { context, page, api } = await open();
    try {
      await page.goto(`${baseUrl}/dashboard`);
      await figuresShown(page, 1);
      await settle(page, api);
      expected = (await page.evaluate(sectionsState)).sections;
    } finally {
      await context.close();
    }
  }

  const results = [];
  for (let i = 0; i < runs; i++) {
    const { context, page, api } = await open();
    try {
      await page.goto(`${baseUrl}/dashboard`, { waitUntil: "commit" });
      const first = await figuresShown(page, expected);
      await settle(page, api);
      const load = { ms: first.at, failed: first.failed ?? 0, ...api.take(), waterfall: await page.evaluate(firstLoadWaterfall) };

      const refresh = await refreshAll(page, api, expected);
      const refresh2 = await refreshAll(page, api, expected);
      results.push({ load, refresh, refresh2 });
    } finally {
      await context.close();
    }
  }
  const med = (pick) => median(results.map(pick));
  const summary = (key) => ({
    ms: med((r) => r[key].ms),
    msAll: results.map((r) => r[key].ms),
    requests: med((r) => r[key].requests),
    revalidated: med((r) => r[key].revalidated),
    withoutD1: med((r) => r[key].withoutD1),
    trips: med((r) => r[key].trips),
    failed: results.reduce((n, r) => n + r[key].failed, 0),
  });
  return {
    sections: expected,
    runs: results.length,
    load: summary("load"),
    refresh: summary("refresh"),
    refresh2: summary("refresh2"),
    waterfalls: results.map((r) => r.load.waterfall),
  };
}
