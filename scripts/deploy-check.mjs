// `npm run deploy:check [-- --no-build]`: the README's deploy, short of uploading. Builds the app as
// `npm run build` does, then `wrangler deploy --dry-run` of the built worker (the config the Vite
// plugin writes next to it, the one `.wrangler/deploy/config.json` points `wrangler deploy` at),
// bundling into a scratch directory. Offline: wrangler validates the config, the bindings and the
// assets and bundles the worker without an account. Fails when wrangler fails, writes no bundle, or
// the D1 bindings are not the directory and shards SHARD_0 … numbered without a gap, each from
// migrations-shard/ with a database of its own (scripts/shard-bindings.mjs).
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { bin, root, toolEnv } from "./lib.mjs";
import { buildSpa } from "./local-app.mjs";
import { rootRelativeDirs, shardBindingProblems } from "./shard-bindings.mjs";

const builtConfig = path.join(root, "dist", "voice_agent_ops", "wrangler.json");
const noBuild = process.argv.includes("--no-build");

if (!noBuild || !existsSync(builtConfig)) {
  console.log("▸ vite build");
  await buildSpa();
}

const outdir = mkdtempSync(path.join(tmpdir(), "voice-agent-ops-deploy-"));
try {
  const output = await new Promise((resolve, reject) => {
    const child = spawn(bin("wrangler"), ["deploy", "--dry-run", "-c", builtConfig, "--outdir", outdir], {
      cwd: root,
      env: toolEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.stderr.on("data", (d) => (text += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`wrangler deploy --dry-run exited with ${code}\n${text}`))));
  });
  const bundle = path.join(outdir, "index.js");
  if (!existsSync(bundle) || statSync(bundle).size === 0) throw new Error(`wrangler deploy --dry-run wrote no bundle\n${output}`);
  // One module: a code-splitting option set for every build (not only the SPA's) splits the Worker
  // into an entry that re-exports a chunk, a bundle of a few bytes that would otherwise pass.
  if (/\b(?:from|import)\s*["']\.\.?\//.test(readFileSync(bundle, "utf8"))) throw new Error(`the Worker's bundle imports other files: ${bundle}\n${output}`);
  // The directory and every shard are what the routes need: a config that lost one, numbered its
  // shards with a gap, migrated one from elsewhere or gave two the same database would deploy a
  // Worker that 500s or mixes accounts (scripts/shard-bindings.mjs).
  const config = JSON.parse(readFileSync(builtConfig, "utf8"));
  const databases = rootRelativeDirs(config.d1_databases ?? [], path.dirname(builtConfig), root);
  const problems = shardBindingProblems(databases, output);
  if (problems.length > 0) throw new Error(`the D1 bindings are not deployable:\n${problems.map((p) => `  - ${p}`).join("\n")}\n${output}`);
  const shards = databases.filter((d) => d.binding.startsWith("SHARD_")).length;
  console.log(`✓ wrangler deploy --dry-run: bundle ${(statSync(bundle).size / 1024).toFixed(0)} KiB, bindings ok (DB and ${shards} shards)`);
} catch (e) {
  console.error(e.message);
  process.exitCode = 1;
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
