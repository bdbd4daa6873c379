// Runs after `npm install` / `npm ci` (the root package's postinstall), with node_modules/.bin first on
// PATH, so `node` here is the project's own Node from the `node` devDependency.
//
// npm checks each package's `engines` against the Node that runs npm itself, which on many machines is
// older than the Node 22 the project runs every package on. The project's .npmrc therefore keeps npm to
// errors (loglevel=error), and this script makes the check that matters instead: every installed
// package's `engines.node` against the project's own Node. A package that cannot run on it is named
// here and fails the install, so nothing real is hidden. It also fails when the project's Node is
// missing, which would break every script.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { enginesMisfits } from "./engines.mjs";

const WANTED_MAJOR = 22;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const own = process.versions.node;

if (Number(own.split(".")[0]) < WANTED_MAJOR) {
  console.error(
    `The project's Node ${WANTED_MAJOR} is not in node_modules/.bin/node (this script ran on Node ${own}), ` +
      "so its npm scripts would run on the wrong Node. Run npm install again; if it persists, look for an error " +
      "of the `node` package's install above.",
  );
  process.exit(1);
}

let installed;
try {
  installed = JSON.parse(readFileSync(path.join(root, "node_modules/.package-lock.json"), "utf8"));
} catch {
  installed = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8"));
}
const misfits = enginesMisfits(installed, own);
if (misfits.length) {
  console.error(`These packages do not support the project's Node ${own}:`);
  for (const m of misfits) console.error(`  ${m.where} (engines.node ${m.wanted})`);
  process.exit(1);
}
console.log(`▸ every installed package supports the project's Node ${own} (node_modules/.bin/node)`);
