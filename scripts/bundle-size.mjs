// `node scripts/bundle-size.mjs`: the SPA's JavaScript, gzipped, as a browser loads it. The first page
// (/auth: the entry, what it imports, the route's own chunk and what that imports) must stay within
// 150 KB and all JavaScript within 380 KB, the entry is one file, and no font file is built (the
// system's font, decision 036); the run fails otherwise. Read from the built files (`vite build` first), following the static
// `import … from "./x.js"` edges between chunks.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { root } from "./lib.mjs";

export const BUDGET_KB = { firstPage: 150, allJs: 380 };

const kb = (bytes) => bytes / 1024;

/** Every chunk of the build with its gzipped size, the chunks it imports statically and those it loads lazily. */
export function readBundle(clientDir = path.join(root, "dist", "client")) {
  const assets = path.join(clientDir, "assets");
  const chunks = new Map();
  for (const name of readdirSync(assets).filter((f) => f.endsWith(".js"))) {
    const source = readFileSync(path.join(assets, name));
    const text = source.toString("utf8");
    // Static edges: `import{a}from"./x.js"` and `import"./x.js"`; `import("./x.js")` is lazy.
    const imports = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*)["']\.\/([^"']+\.js)["']/g)].map((m) => m[1]);
    const lazy = [...text.matchAll(/\bimport\(\s*["'`]\.\/([^"'`]+\.js)["'`]\s*\)/g)].map((m) => m[1]);
    chunks.set(name, { gz: gzipSync(source, { level: 9 }).length, imports: [...new Set(imports)], lazy: [...new Set(lazy)] });
  }
  const html = readFileSync(path.join(clientDir, "index.html"), "utf8");
  // The app's entry is the shell's module script.
  const entry = html.match(/<script[^>]*type="module"[^>]*\bsrc="\/assets\/([^"]+\.js)"/)?.[1];
  if (!entry || !chunks.has(entry)) throw new Error("no module entry script in index.html");
  return { chunks, entry };
}

/** The chunks loaded with `roots`, following static imports. */
export function closure(bundle, roots) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name) || !bundle.chunks.has(name)) return;
    seen.add(name);
    for (const next of bundle.chunks.get(name).imports) visit(next);
  };
  roots.forEach(visit);
  return seen;
}

/**
 * A route's chunk: the router's code splitting names it after its route file (auth-<hash>.js) and
 * the entry's route tree loads it lazily. Other chunks may share the name (shared/schemas/auth.ts
 * also makes an auth-<hash>.js), but only the route's is imported lazily by the entry.
 */
export function routeChunk(bundle, route) {
  const found = bundle.chunks.get(bundle.entry).lazy.filter((name) => name.startsWith(`${route}-`) && /^[\w.-]+-[\w-]{8}\.js$/.test(name));
  if (found.length !== 1) throw new Error(`expected one lazily loaded ${route}-<hash>.js in the entry, found ${found.length}`);
  return found[0];
}

/** Gzipped KB of JavaScript a first visit to each screen loads (entry + route chunk, with imports). */
export function routeSizes(bundle, routes) {
  return Object.fromEntries(
    routes.map((route) => {
      const chunk = routeChunk(bundle, route);
      const names = closure(bundle, [bundle.entry, chunk]);
      return [route, kb([...names].reduce((sum, n) => sum + bundle.chunks.get(n).gz, 0))];
    }),
  );
}

/** Font files among the built assets. */
export function fontFiles(clientDir = path.join(root, "dist", "client")) {
  return readdirSync(path.join(clientDir, "assets")).filter((f) => /\.(woff2?|ttf|otf|eot)$/i.test(f));
}

export function measure(clientDir) {
  const bundle = readBundle(clientDir);
  const firstPage = routeSizes(bundle, ["auth"]).auth;
  const allJs = kb([...bundle.chunks.values()].reduce((sum, c) => sum + c.gz, 0));
  return { bundle, firstPage, allJs };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { firstPage, allJs, bundle } = measure();
  const line = (label, value, budget) => `  ${label.padEnd(34)} ${value.toFixed(1).padStart(6)} KB gz  (budget ${budget} KB)${value > budget ? "  ✗ over" : ""}`;
  console.log(line("first page (/auth)", firstPage, BUDGET_KB.firstPage));
  console.log(line(`all JavaScript (${bundle.chunks.size} chunks)`, allJs, BUDGET_KB.allJs));
  const failures = [];
  if (firstPage > BUDGET_KB.firstPage || allJs > BUDGET_KB.allJs)
    failures.push("The SPA's JavaScript is over budget: split the new code into its route's chunk or lazy-load it.");
  // Things there must be none of: each prints its count and, when there are some, fails the run.
  const none = (label, names, failure) => {
    console.log(`  ${label.padEnd(34)} ${String(names.length).padStart(6)}        (budget 0)${names.length ? `  ✗ ${names.join(", ")}` : ""}`);
    if (names.length) failures.push(failure);
  };
  // Everything the entry imports statically is in its one file (vite.config.ts, decision 035): a
  // static import from the entry is one more request every page waits for.
  none(
    "files the entry imports statically",
    bundle.chunks.get(bundle.entry).imports,
    "The entry imports other files statically: vite.config.ts's `index` group should keep them in the entry.",
  );
  // A font file is bytes every first visit downloads before its text can settle (decision 036).
  none("font files", fontFiles(), "The build has font files: the pages use the system's font (decision 036).");
  if (failures.length) {
    console.error(`\n${failures.join("\n")}`);
    process.exit(1);
  }
}
