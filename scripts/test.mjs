// `npm test`: every check, in order, stopping at the first failure:
// one copy of each runtime in the lock, typecheck, lint (no warning allowed), the import layers
// (no cycle, nothing against the worker's layer order), the docs references (every docs/… link resolves,
// nothing cites a document outside the repository), worker tests (inside workerd), web tests, browser journeys,
// the SPA's JavaScript against its size budgets (read from the build the journeys made), and
// `wrangler deploy --dry-run` of the build.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bin, root, run } from "./lib.mjs";

const scratch = mkdtempSync(path.join(tmpdir(), "voice-agent-ops-test-"));
const resultFile = (name) => path.join(scratch, `${name}.json`);

/** Counts from vitest's JSON reporter. */
function vitestCounts(file) {
  const r = JSON.parse(readFileSync(file, "utf8"));
  return { passed: r.numPassedTests, failed: r.numFailedTests };
}

const vitest = (project) => ({
  name: `${project} tests`,
  cmd: bin("vitest"),
  args: ["run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${resultFile(project)}`],
  counts: () => vitestCounts(resultFile(project)),
});

const stages = [
  { name: "lock", cmd: bin("node"), args: [path.join(root, "scripts/check-lock.mjs")], counts: null },
  { name: "typecheck", cmd: bin("tsc"), args: ["-b"], counts: null },
  // The same as `npm run lint`; the cache (inside node_modules) skips files unchanged since the last run.
  { name: "lint", cmd: bin("eslint"), args: ["--max-warnings", "0", "--cache", "--cache-strategy", "content", "--cache-location", "node_modules/.cache/eslint/", "."], counts: null },
  { name: "layers", cmd: bin("node"), args: [path.join(root, "scripts/check-layers.mjs")], counts: null },
  // Every docs/… reference resolves to a file and heading, and nothing cites a document outside the repository.
  { name: "doc references", cmd: bin("node"), args: [path.join(root, "scripts/check-doc-refs.mjs")], counts: null },
  vitest("worker"),
  vitest("web"),
  {
    name: "browser journeys",
    cmd: bin("node"),
    args: [path.join(root, "e2e/run.mjs")],
    env: { E2E_RESULTS: resultFile("e2e") },
    counts: () => JSON.parse(readFileSync(resultFile("e2e"), "utf8")),
  },
  { name: "bundle size", cmd: bin("node"), args: [path.join(root, "scripts/bundle-size.mjs")], counts: null },
  // After the journeys, which built the app: the built worker as `wrangler deploy` would ship it (offline).
  { name: "deploy dry run", cmd: bin("node"), args: [path.join(root, "scripts/deploy-check.mjs"), "--no-build"], counts: null },
];

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const summary = [];
let passed = 0;
let failed = 0;
let failedStage = null;

for (const stage of stages) {
  console.log(`\n━━ ${stage.name} ━━`);
  const started = Date.now();
  let error = null;
  try {
    await run(stage.cmd, stage.args, { env: stage.env });
  } catch (e) {
    error = e;
  }
  let counts = null;
  if (stage.counts) {
    try {
      counts = stage.counts();
    } catch {
      // No result file: the stage failed before running any test (it says why above).
    }
  }
  if (counts) {
    passed += counts.passed;
    failed += counts.failed;
  }
  const what = counts ? `${counts.passed} passed, ${counts.failed} failed` : error ? "failed" : "ok";
  summary.push(`${error ? "✗" : "✓"} ${stage.name.padEnd(17)} ${what.padEnd(22)} ${seconds(Date.now() - started)}`);
  if (error) {
    if (!counts?.failed) failed += 1; // a stage that failed without failing tests still counts as a failure
    failedStage = stage.name;
    break;
  }
}

rmSync(scratch, { recursive: true, force: true });
console.log(`\n${summary.join("\n")}`);
if (failedStage) {
  const skipped = stages.slice(stages.findIndex((s) => s.name === failedStage) + 1).map((s) => s.name);
  if (skipped.length) console.log(`not run after the failure: ${skipped.join(", ")}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failedStage ? 1 : 0);
