// Browser journeys: build the app, give it a throwaway seeded local D1, serve it with one
// `wrangler dev` on a free port, and walk every `e2e/*.journey.ts` in its own fresh browser context.
//
//   node e2e/run.mjs                 all journeys (npm run test:e2e)
//   node e2e/run.mjs sign-out 404    only journeys whose file name contains one of the words
//   node e2e/run.mjs --no-build      reuse dist/ from the last build
//   CHROMIUM_PATH=npm node e2e/run.mjs   in the npm Chromium even where /usr/bin/chromium exists
//                                        (scripts/chromium.mjs says which browser runs when)
//
// Journeys are TypeScript run by Node 22's own type stripping (no loader needed).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, chromiumToLaunch } from "../scripts/chromium.mjs";
import { root } from "../scripts/lib.mjs";
import { exitOnStopSignals, throwawayApp } from "../scripts/local-app.mjs";

const e2eDir = path.join(root, "e2e");
const artifacts = path.join(e2eDir, "artifacts");
const serverLog = path.join(artifacts, "server.log");
const JOURNEY_TIMEOUT_MS = 60_000;
const STEP_TIMEOUT_MS = 10_000;

const argv = process.argv.slice(2);
const build = !argv.includes("--no-build");
const filters = argv.filter((a) => !a.startsWith("--"));

const files = readdirSync(e2eDir)
  .filter((f) => f.endsWith(".journey.ts"))
  .filter((f) => filters.length === 0 || filters.some((w) => f.includes(w)))
  .sort();

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
let app = null;
let browser = null;

async function cleanup() {
  await browser?.close().catch(() => {});
  await app?.stop();
}
exitOnStopSignals(cleanup);

/** Runs one journey in a fresh context; returns null or the failure text. */
async function runJourney(journey, slug, baseUrl) {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  const page = await context.newPage();
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  let timer;
  try {
    const timeout = new Promise((_, reject) => {
      const limit = journey.timeoutMs ?? JOURNEY_TIMEOUT_MS;
      timer = setTimeout(() => reject(new Error(`journey took longer than ${limit / 1000} s`)), limit);
    });
    await Promise.race([journey.run({ page, context, baseUrl }), timeout]);
    return null;
  } catch (e) {
    const shot = path.join(artifacts, `${slug}.png`);
    await page.screenshot({ path: shot, fullPage: true }).catch(() => {});
    // Playwright colours its messages with ANSI escapes (ESC [ … m); the report is plain text.
    // eslint-disable-next-line no-control-regex -- the escape character is what the pattern matches
    const message = String(e?.message ?? e).replace(/\x1b\[[0-9;]*m/g, "");
    const lines = [message.split("\n").slice(0, 40).join("\n").trimEnd(), `at ${page.url()}`, `screenshot ${path.relative(root, shot)}`];
    if (pageErrors.length) lines.push(`page errors: ${pageErrors.join(" | ")}`);
    return lines.join("\n");
  } finally {
    clearTimeout(timer);
    await context.close().catch(() => {});
  }
}

async function main() {
  if (files.length === 0) throw new Error(`no journey matches ${filters.join(", ")}`);
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  const started = Date.now();
  app = throwawayApp("e2e", { logFile: serverLog });

  const assets = await app.servedBuild({ build });
  console.log(`▸ throwaway local D1 in ${path.relative(root, app.stateDir)}: migrations, seed`);
  await app.migrate();
  await app.seed();
  const { baseUrl } = await app.serve({ assets });

  const chromiumBinary = await chromiumToLaunch();
  browser = await chromium.launch({
    executablePath: chromiumBinary.executablePath,
    env: chromiumBinary.env,
    args: CHROMIUM_ARGS,
  });
  console.log(`▸ ${files.length} journeys against ${baseUrl} in ${chromiumBinary.label} (setup ${seconds(Date.now() - started)})\n`);

  const results = [];
  for (const file of files) {
    const slug = file.replace(/\.journey\.ts$/, "");
    const { default: journey } = await import(pathToFileURL(path.join(e2eDir, file)).href);
    const t0 = Date.now();
    const failure = await runJourney(journey, slug, baseUrl);
    results.push({ file, failure });
    const head = `${failure ? "✗" : "✓"} ${journey.name} (${slug}, ${seconds(Date.now() - t0)})`;
    console.log(failure ? `${head}\n${failure.replace(/^/gm, "    ")}` : head);
  }

  const failed = results.filter((r) => r.failure).length;
  const passed = results.length - failed;
  if (process.env.E2E_RESULTS) writeFileSync(process.env.E2E_RESULTS, JSON.stringify({ passed, failed }));
  console.log(`\n${passed} passed, ${failed} failed (${seconds(Date.now() - started)})`);
  if (failed) console.log(`server log: ${path.relative(root, serverLog)}`);
  return failed === 0;
}

let ok = false;
try {
  ok = await main();
} catch (e) {
  console.error(`\nbrowser journeys could not run: ${e.message}\nserver log: ${path.relative(root, serverLog)}`);
} finally {
  await cleanup();
}
process.exit(ok ? 0 : 1);
