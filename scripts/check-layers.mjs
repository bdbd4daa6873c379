// `npm run check:layers` (the "layers" stage of `npm test`): runs dependency-cruiser with
// .dependency-cruiser.cjs over worker/, web/src/ and shared/ and fails on any import cycle or import
// against the worker's layer order (docs/decisions/045-worker-layers.md). It first runs the same
// rules on scripts/layers-fixture/, which holds one cycle and one upward import, and fails unless
// both are reported: a check that cannot fail proves nothing.
import { registerHooks } from "node:module";
import { createRequire } from "node:module";
import path from "node:path";
import { root } from "./lib.mjs";

// dependency-cruiser's swc parser without JSX cannot read .tsx: hand it the wrapper instead.
const wrapper = new URL("./layers/swc-tsx.mjs", import.meta.url).href;
registerHooks({
  resolve(specifier, context, next) {
    if (specifier === "@swc/core" && context.parentURL?.includes("/dependency-cruiser/")) return { url: wrapper, shortCircuit: true };
    return next(specifier, context);
  },
});

process.chdir(root);
const { cruise, format } = await import("dependency-cruiser");
const config = createRequire(import.meta.url)(path.join(root, ".dependency-cruiser.cjs"));
const options = { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } };

/** The rule violations of a cruise over `paths`, as { rule, from, to }. */
export async function violations(paths) {
  const result = await cruise(paths, options);
  const { summary } = result.output;
  return {
    result,
    list: summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to, cycle: v.cycle?.map((c) => c.name ?? c) })),
    modules: summary.totalCruised,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // The negative case: the fixture must trip both the cycle rule and a layer rule.
  const fixture = await violations(["scripts/layers-fixture"]);
  const rules = new Set(fixture.list.map((v) => v.rule));
  const missing = ["no-cycle", "layer-lib"].filter((r) => !rules.has(r));
  if (missing.length) {
    console.error(`The layer check did not report ${missing.join(" and ")} on scripts/layers-fixture/: it cannot be trusted.`);
    process.exit(1);
  }
  console.log(`  fixture: ${[...rules].sort().join(", ")} reported, as they must be`);

  const real = await violations(["worker", "web/src", "shared"]);
  if (real.list.length > 0) {
    console.log((await format(real.result.output, { outputType: "err" })).output);
    process.exit(1);
  }
  console.log(`  ${real.modules} modules: no import cycle, no import against the layer order`);
}
