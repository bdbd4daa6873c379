// `node scripts/complete-lock.mjs`: adds the lock entries npm leaves out when the registry it
// resolved against does not serve other platforms' native packages (the registry mirror of these
// machines answers 404 for e.g. @tailwindcss/oxide-darwin-arm64). Without them `npm ci` refuses the
// lock ("Missing: ... from lock file"), here and on a full registry alike.
//
// Each missing optional dependency gets an entry with its exact version and its os/cpu, so npm skips
// it on every other platform and fetches it (by name and version) on its own. Run it after a change
// of the lock, then `npm install --package-lock-only --ignore-scripts` to put npm's key order back.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "./lib.mjs";

// Platform suffixes of the native packages this project pulls in, with npm's os and cpu for each.
const PLATFORMS = {
  "android-arm64": { os: ["android"], cpu: ["arm64"] },
  "darwin-arm64": { os: ["darwin"], cpu: ["arm64"] },
  "darwin-x64": { os: ["darwin"], cpu: ["x64"] },
  "darwin-64": { os: ["darwin"], cpu: ["x64"] },
  "freebsd-x64": { os: ["freebsd"], cpu: ["x64"] },
  "linux-arm-gnueabihf": { os: ["linux"], cpu: ["arm"] },
  "wasm32-wasi": { cpu: ["wasm32"] },
  "win32-arm64-msvc": { os: ["win32"], cpu: ["arm64"] },
  "win32-x64-msvc": { os: ["win32"], cpu: ["x64"] },
  "windows-64": { os: ["win32"], cpu: ["x64"] },
};

const file = path.join(root, "package-lock.json");
const lock = JSON.parse(readFileSync(file, "utf8"));
const packages = lock.packages;

/** Where Node would find `name` from the package at `from` (walking up the node_modules folders). */
function resolve(from, name) {
  for (let base = from; ; ) {
    const candidate = `${base ? `${base}/` : ""}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return null;
    const up = base.lastIndexOf("/node_modules/");
    base = up === -1 ? "" : base.slice(0, up);
  }
}

const added = [];
for (const [location, pkg] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(pkg.optionalDependencies ?? {})) {
    if (!/^\d+\.\d+\.\d+/.test(spec)) continue; // native packages are pinned to exact versions
    const found = resolve(location, name);
    if (found && packages[found].version === spec) continue;
    const suffix = Object.keys(PLATFORMS).find((s) => name.endsWith(`-${s}`));
    if (!suffix) {
      if (!found) console.warn(`not handled: ${location} -> ${name}@${spec} (unknown platform suffix)`);
      continue;
    }
    // Beside the package that needs it, as npm nests a version that differs from the hoisted one.
    const at = `${location.slice(0, location.lastIndexOf("node_modules/"))}node_modules/${name}`;
    packages[at] = { version: spec, ...(pkg.dev ? { dev: true } : {}), optional: true, ...PLATFORMS[suffix] };
    added.push(`${at}@${spec}`);
  }
}

lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added ${added.length} entries:\n  ${added.join("\n  ")}` : "the lock already lists every platform package");
