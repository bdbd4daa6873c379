// `node scripts/check-lock.mjs`: fails when the lock holds more than one version of a package that
// ships a native binary or a whole runtime (workerd, miniflare, wrangler, esbuild). Each copy costs
// 100-200 MB and a postinstall; the Cloudflare plugins pin their own wrangler, so an upgrade of one
// of them quietly brings a second copy back unless the pins in package.json move together
// (docs/decisions/008-one-copy-of-each-runtime.md says how).
import { readFileSync } from "node:fs";
import path from "node:path";
import { root } from "./lib.mjs";

export const SINGLE_COPY = ["workerd", "miniflare", "wrangler", "esbuild"];

/** The versions of each watched package found in a lock's `packages` map. */
export function versionsIn(lock, names = SINGLE_COPY) {
  const found = Object.fromEntries(names.map((n) => [n, new Set()]));
  for (const [where, entry] of Object.entries(lock.packages ?? {})) {
    const name = where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length);
    if (name in found && entry.version) found[name].add(entry.version);
  }
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"));
  const found = versionsIn(lock);
  const doubled = Object.entries(found).filter(([, versions]) => versions.size !== 1);
  for (const [name, versions] of Object.entries(found)) console.log(`  ${name.padEnd(10)} ${[...versions].join(", ")}`);
  if (doubled.length) {
    console.error(
      `\nThe lock holds ${doubled.map(([n, v]) => `${v.size} versions of ${n}`).join(", ")}: ` +
        "move the pins together (docs/decisions/008-one-copy-of-each-runtime.md).",
    );
    process.exit(1);
  }
}
