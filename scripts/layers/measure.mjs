// `node scripts/layers/measure.mjs [dir]`: the figures behind docs/decisions/045-worker-layers.md for
// the checkout in `dir` (default this one), with this checkout's .dependency-cruiser.cjs: import
// cycles among non-test files (strongly connected groups of more than one file) and the largest,
// imports against the worker's layer order, and non-test lines per worker layer.
import { readFileSync } from "node:fs";
import path from "node:path";
import { violations } from "../check-layers.mjs";

const dir = path.resolve(process.argv[2] ?? process.cwd());
process.chdir(dir);
const isTest = (f) => /\.test\.tsx?$|^worker\/(test|proof)\//.test(f);

const { result, list } = await violations(["worker", "web/src", "shared"]);
const modules = result.output.modules.filter((m) => !isTest(m.source) && /^(worker|web\/src|shared)\//.test(m.source));
const edges = new Map(modules.map((m) => [m.source, m.dependencies.map((d) => d.resolved).filter((r) => !isTest(r))]));

// Tarjan's strongly connected components.
let index = 0;
const idx = new Map(), low = new Map(), stack = [], on = new Set(), groups = [];
function visit(v) {
  idx.set(v, index); low.set(v, index); index++; stack.push(v); on.add(v);
  for (const w of edges.get(v) ?? []) {
    if (!edges.has(w)) continue;
    if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
    else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const g = [];
    let w;
    do { w = stack.pop(); on.delete(w); g.push(w); } while (w !== v);
    if (g.length > 1) groups.push(g.sort());
  }
}
for (const v of edges.keys()) if (!idx.has(v)) visit(v);
groups.sort((a, b) => b.length - a.length);

const against = list.filter((v) => v.rule !== "no-cycle" && !isTest(v.from));
const byRule = {};
for (const v of against) byRule[v.rule] = (byRule[v.rule] ?? 0) + 1;

const LAYERS = { entry: /^worker\/(index|app)\.ts$/, routes: /^worker\/routes\//, jobs: /^worker\/jobs\//, middleware: /^worker\/middleware\//,
  services: /^worker\/services\//, providers: /^worker\/providers\//, db: /^worker\/db\//, lib: /^worker\/(lib\/|env\.ts$)/ };
const lines = {};
for (const m of modules) {
  if (!/\.ts$/.test(m.source) || m.source.endsWith(".d.ts")) continue;
  const layer = Object.keys(LAYERS).find((k) => LAYERS[k].test(m.source));
  if (layer) lines[layer] = (lines[layer] ?? 0) + readFileSync(m.source, "utf8").split("\n").length - 1;
}

console.log(`cycles (non-test files): ${groups.length}${groups.length ? `, largest ${groups[0].length} files` : ""}`);
for (const g of groups) console.log(`  ${g.length}: ${g.join(" ")}`);
console.log(`imports against the layer order (non-test files): ${against.length} ${JSON.stringify(byRule)}`);
for (const v of against) console.log(`  ${v.rule}: ${v.from} → ${v.to}`);
console.log(`non-test lines per layer: ${JSON.stringify(lines)}`);
