// Steps shared by `npm start`, `npm run dev` and the browser journeys: build, local D1, seed, server.
import { cpSync, existsSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { bin, root, run, startGroup, waitForHttp } from "./lib.mjs";

const persistArgs = (persistTo) => (persistTo ? ["--persist-to", persistTo] : []);

export const buildSpa = () => run(bin("vite"), ["build", "--logLevel", "warn"]);

/**
 * The SPA a throwaway server serves: built first when `build` (or when there is no build yet), then
 * copied into `stateDir/client`, so a `vite build` elsewhere in the tree cannot swap chunks mid-run.
 * Returns the copy's path, for `startWrangler({ assets })`.
 */
export async function servedBuild(stateDir, { build = true } = {}) {
  if (build || !existsSync(path.join(root, "dist", "client", "index.html"))) {
    console.log("▸ vite build");
    await buildSpa();
  }
  const assets = path.join(stateDir, "client");
  cpSync(path.join(root, "dist", "client"), assets, { recursive: true });
  return assets;
}

export const applyMigrations = (persistTo, opts) =>
  run(bin("wrangler"), ["d1", "migrations", "apply", "DB", "--local", "-c", "wrangler.toml", ...persistArgs(persistTo)], opts);

/** The seed is idempotent: it creates what is missing and leaves the rest. */
export const seed = (persistTo, extraArgs = [], opts) =>
  run(bin("node"), [path.join(root, "scripts/seed.mjs"), ...persistArgs(persistTo), ...extraArgs], opts);

/** After `vite build` this file silently points plain `wrangler dev` at the built (possibly stale) worker. */
export function removeStaleDeployConfig() {
  const file = path.join(root, ".wrangler/deploy/config.json");
  if (existsSync(file)) rmSync(file);
}

export function assertPortFree(port) {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", () =>
      reject(new Error(`Port ${port} on 127.0.0.1 is in use. Stop what uses it or choose another: PORT=8788 npm start`)),
    );
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve()));
  });
}

/**
 * One `wrangler dev` in its own process group (wrangler leaves workerd behind when only it is killed).
 * `envFile` replaces `.dev.vars`, so a developer's secrets never reach a throwaway run;
 * `assets` serves another copy of the built SPA than dist/client.
 */
export function startWrangler({ port, persistTo, envFile, assets, inspectorPort, stdio } = {}) {
  // The tsconfig gives wrangler's bundler the `@shared/*` path alias (Vite has its own).
  const args = ["dev", "-c", "wrangler.toml", "--tsconfig", "tsconfig.worker.json", "--ip", "127.0.0.1", "--port", String(port)];
  // wrangler.toml says production (the safe default for a deploy); every local server runs as development.
  args.push("--test-scheduled", "--var", "APP_ENV:development");
  args.push("--show-interactive-dev-session=false", ...persistArgs(persistTo));
  if (envFile) args.push("--env-file", envFile);
  if (assets) args.push("--assets", assets); // replaces only the directory of wrangler.toml's [assets]
  if (inspectorPort) args.push("--inspector-port", String(inspectorPort)); // else wrangler picks 9229 or a free one
  return startGroup(bin("wrangler"), args, { stdio: stdio ?? quietStdin });
}

/** Vite's dev server (the Cloudflare plugin runs the worker inside it, with hot reload). */
export const startVite = (port) =>
  startGroup(bin("vite"), ["--host", "127.0.0.1", "--port", String(port), "--strictPort"], { stdio: quietStdin });

// A background process group that reads the terminal is stopped by SIGTTIN: give servers no stdin.
const quietStdin = ["ignore", "inherit", "inherit"];

const groupAlive = (pid) => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Stops the whole group and waits until none of it is left; SIGKILL after `graceMs`. */
export async function stopGroup(server, graceMs = 5000) {
  const pid = server.child.pid;
  if (!pid || !groupAlive(pid)) return;
  server.stop();
  const deadline = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(pid)) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // The group ended between the check and the kill.
    }
  }
}

/** Resolves when `url` answers 2xx; rejects early if the server process exits first. */
export function waitUntilReady(server, url, timeoutMs = 90_000) {
  let onExit;
  const exited = new Promise((_, reject) => {
    onExit = (code, signal) => reject(new Error(`server exited (${code ?? signal}) before ${url} answered`));
    server.child.once("exit", onExit);
  });
  return Promise.race([waitForHttp(url, timeoutMs), exited]).finally(() => server.child.off("exit", onExit));
}

/**
 * Keeps a started server in the foreground: prints `onReady` once `readyUrl` answers, and on Ctrl-C,
 * SIGTERM or the server's own exit stops the whole group and exits.
 */
export async function serveUntilStopped(server, readyUrl, onReady) {
  let stopping = false;
  const shutdown = async (code) => {
    if (stopping) return;
    stopping = true;
    await stopGroup(server);
    process.exit(code);
  };
  process.on("SIGINT", () => shutdown(130));
  process.on("SIGTERM", () => shutdown(143));
  process.on("SIGHUP", () => shutdown(129));
  server.child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`server exited (${code ?? signal})`);
    shutdown(code || 1);
  });
  try {
    await waitUntilReady(server, readyUrl);
  } catch (e) {
    console.error(e.message);
    return shutdown(1);
  }
  onReady();
}
