// The engines check npm makes, made against the project's own Node rather than the one running npm.
import semver from "semver";

/** Installed packages (from npm's record of node_modules) whose engines.node excludes `version`. */
export function enginesMisfits(installed, version) {
  const misfits = [];
  for (const [where, entry] of Object.entries(installed.packages ?? {})) {
    const wanted = entry.engines?.node;
    if (!where || typeof wanted !== "string" || entry.optional) continue;
    if (!semver.satisfies(version, wanted, { includePrerelease: true })) misfits.push({ where, wanted });
  }
  return misfits;
}
