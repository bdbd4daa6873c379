// The import rules `npm run check:layers` (and the "layers" stage of `npm test`) enforce
// (docs/decisions/045-worker-layers.md):
// - no import cycle anywhere in worker/, web/src/ or shared/, type-only imports included;
// - in worker/, imports follow the layers top to bottom:
//     index.ts, app.ts, content-sources.ts, shell/ (the SPA's shell) → routes/, jobs/ → context/, events/ → middleware/, app-env.ts → services/ → providers/ → db/ → lib/, env.ts
//   A feature's folder spans layers, each file in its own: the live feed (live/) has its Durable
//   Object (feed.ts) beside the entry, its routes (routes.ts) beside routes/, and the rest (its
//   contract, publishing, change log, tickets) beside services/. Custom webhooks (webhooks/) sit
//   beside services/ too: their producer, consumer and checks.
//   Code above providers/ reaches adapters only through providers/index.ts (the one place adapters
//   are chosen) or a port's types, except the local identity service (providers/identity/local/),
//   which its HTTP surface (routes/local-auth.ts) and the clean-up job (jobs/index.ts) import
//   directly; no route imports another route, no job imports another job or the job runner.
// Test files (*.test.ts, worker/test/, worker/proof/) set up any layer they exercise, so the layer
// rules leave them out; the cycle rule covers them too.

// scripts/layers-fixture/worker/ mirrors worker/ with deliberate violations (the check's negative case).
const W = "^(scripts/layers-fixture/)?worker/";
const TESTS = ["\\.test\\.tsx?$", "^worker/test/", "^worker/proof/"];

/** Layers from the top; a file may import its own layer or any layer below it. */
const LAYERS = [
  { name: "entry", path: `${W}((index|app|content-sources)\\.ts$|live/feed\\.ts$|shell/)` },
  { name: "routes", path: `${W}(routes/|live/routes\\.ts$)` },
  { name: "jobs", path: `${W}jobs/` },
  // What routes take from the request beyond middleware: a database, derived deps, the change events.
  { name: "context", path: `${W}(context|events)/` },
  { name: "middleware", path: `${W}(middleware/|app-env\\.ts$)` },
  { name: "services", path: `${W}(services/|webhooks/|live/(?!(feed|routes)\\.ts$))` },
  { name: "providers", path: `${W}providers/` },
  { name: "db", path: `${W}db/` },
  { name: "lib", path: `${W}(lib/|env\\.ts$)` },
];

/** routes and jobs stand side by side: neither imports the other. */
const SIDE_BY_SIDE = { routes: ["jobs"], jobs: ["routes"] };

const layerRules = LAYERS.map((layer, i) => {
  const above = LAYERS.slice(0, i).map((l) => l.path);
  const beside = (SIDE_BY_SIDE[layer.name] ?? []).map((n) => LAYERS.find((l) => l.name === n).path);
  const banned = [...above, ...beside];
  return banned.length === 0
    ? null
    : {
        name: `layer-${layer.name}`,
        comment: `${layer.name} imports only its own layer or the layers below it (${LAYERS.slice(i + 1).map((l) => l.name).join(", ")})`,
        severity: "error",
        from: { path: layer.path, pathNot: TESTS },
        to: { path: `(${banned.join("|")})` },
      };
}).filter(Boolean);

module.exports = {
  forbidden: [
    {
      name: "no-cycle",
      comment: "an import cycle ties every file in it to every other",
      severity: "error",
      from: { path: "^(worker|web/src|shared|scripts/layers-fixture)/" },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: "adapters-through-providers-index",
      comment:
        "above providers/, code takes providers from providers/index.ts (where adapters are chosen), a port's types, " +
        "or the data a port's adapters and the services share (catalogues, area codes); never from an adapter",
      severity: "error",
      from: { path: `${W}((index|app|app-env|content-sources)\\.ts$|routes/|jobs/|context/|events/|live/|middleware/|services/|webhooks/)`, pathNot: TESTS },
      to: {
        path: `${W}providers/`,
        pathNot: `${W}providers/(index\\.ts$|[^/]+/port\\.ts$|[^/]+/catalogue\\.ts$|telephony/area-codes\\.ts$|identity/local/)`,
      },
    },
    {
      name: "local-identity-from-its-surface",
      comment: "the local identity service's parts are imported directly only by its HTTP surface and the clean-up job",
      severity: "error",
      from: {
        path: `${W}((index|app|live-feed)\\.ts$|routes/|jobs/|middleware/|services/)`,
        pathNot: [...TESTS, `${W}routes/local-auth\\.ts$`, `${W}jobs/index\\.ts$`],
      },
      to: { path: `${W}providers/identity/local/` },
    },
    {
      name: "shared-imports-no-app",
      comment: "shared/ is below the worker and the web: it imports neither",
      severity: "error",
      from: { path: "^shared/" },
      to: { path: "^(worker|web)/" },
    },
    {
      name: "no-route-to-route",
      comment: "a route file does not import another route file (routes/serve.ts, which serves every declared route, excepted); shared code goes to services or lib",
      severity: "error",
      from: { path: `${W}routes/([^/]+)\\.ts$`, pathNot: TESTS },
      to: { path: `${W}routes/`, pathNot: [`${W}routes/$1\\.ts$`, `${W}routes/serve\\.ts$`] },
    },
    {
      name: "jobs-not-through-runner",
      comment: "a job does not import the job runner (jobs/index.ts) or another job",
      severity: "error",
      from: { path: `${W}jobs/([^/]+)\\.ts$`, pathNot: [...TESTS, `${W}jobs/index\\.ts$`] },
      to: { path: `${W}jobs/`, pathNot: [`${W}jobs/$1\\.ts$`, `${W}jobs/context\\.ts$`] },
    },
  ],
  options: {
    parser: "swc",
    tsPreCompilationDeps: true,
    includeOnly: "^(worker|web/src|shared|scripts/layers-fixture)/",
    exclude: { path: "\\.d\\.ts$" },
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      extensions: [".ts", ".tsx", ".js", ".mjs", ".json"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
