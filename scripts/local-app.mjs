// Steps shared by `npm start`, `npm run dev`, the browser journeys, `npm run pagespeed` and the bench:
// build, local D1, seed, server, and stopping it all on Ctrl-C.
import { closeSync, cpSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { bin, freePort, root, run, startGroup, waitForHttp } from "./lib.mjs";
import { migrateAll } from "./migrate.mjs";

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

/** Every local database: the directory (DB), the search index and the shards (scripts/migrate.mjs). */
export const applyMigrations = (persistTo, opts) => migrateAll(["--local", ...persistArgs(persistTo)], opts);

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
export function startWrangler({ port, persistTo, envFile, assets, inspectorPort, stdio, extraArgs = [] } = {}) {
  // The tsconfig gives wrangler's bundler the `@shared/*` path alias (Vite has its own).
  const args = ["dev", "-c", "wrangler.toml", "--tsconfig", "tsconfig.worker.json", "--ip", "127.0.0.1", "--port", String(port)];
  // wrangler.toml says production (the safe default for a deploy); every local server runs as development.
  args.push("--test-scheduled", "--var", "APP_ENV:development");
  args.push("--show-interactive-dev-session=false", ...persistArgs(persistTo));
  if (envFile) args.push("--env-file", envFile);
  if (assets) args.push("--assets", assets); // replaces only the directory of wrangler.toml's [assets]
  if (inspectorPort) args.push("--inspector-port", String(inspectorPort)); // else wrangler picks 9229 or a free one
  args.push(...extraArgs);
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
 * On Ctrl-C, SIGTERM or SIGHUP: awaits `onSignal(signal)` once, then exits with the shell's code for
 * that signal (130, 143, 129). A second signal while it runs changes nothing.
 */
export function exitOnStopSignals(onSignal) {
  let caught = false;
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]]) {
    process.on(signal, async () => {
      if (caught) return;
      caught = true;
      try {
        await onSignal(signal);
      } finally {
        process.exit(code);
      }
    });
  }
}

/**
 * A throwaway copy of the app for a run that tests or measures it (browser journeys, pagespeed, bench,
 * load proof): its own state directory `.wrangler/<name>-<pid>` (the served build, the local D1, an env
 * file), the servers' output appended to `logFile` (default: server.log in that directory), and
 * `wrangler dev` on a free loopback port. `stop()` stops the server and removes the directory unless
 * `keep`; it runs once, however many callers (the run's end, a signal) await it.
 */
export function throwawayApp(name, { logFile, keep = false } = {}) {
  const stateDir = path.join(root, ".wrangler", `${name}-${process.pid}`);
  mkdirSync(stateDir, { recursive: true });
  const log = logFile ?? path.join(stateDir, "server.log");
  const logFd = openSync(log, "a");
  // Setup and servers write to the log, shown only when something fails.
  const quiet = { stdio: ["ignore", logFd, logFd] };
  let server = null;
  let stopping = null;
  return {
    stateDir,
    log,
    /** The build this app serves (see servedBuild): built first when `build`. */
    servedBuild: ({ build }) => servedBuild(stateDir, { build }),
    migrate: () => applyMigrations(stateDir, quiet),
    /** Seeds quietly, or with the seed's own progress on the terminal when `loud`. */
    seed: (args = [], { loud = false } = {}) => seed(stateDir, args, loud ? undefined : quiet),
    /**
     * Serves `assets` with `wrangler dev` until stop(). Its own env file replaces .dev.vars, so every
     * port uses its local adapter whatever the developer set; `vars` are the only settings in it.
     * Serving again stops the previous server first. Resolves once /api/health answers.
     */
    async serve({ assets, inspectorPort, vars = {}, extraArgs } = {}) {
      if (server) await stopGroup(server);
      const envFile = path.join(stateDir, `${name}.env`);
      const settings = Object.entries(vars).map(([k, v]) => `${k}=${v}\n`).join("");
      writeFileSync(envFile, `# ${name}: no secrets, local adapters only\n${settings}`);
      const port = await freePort();
      const baseUrl = `http://127.0.0.1:${port}`;
      server = startWrangler({ port, persistTo: stateDir, envFile, assets, inspectorPort, stdio: quiet.stdio, extraArgs });
      await waitUntilReady(server, `${baseUrl}/api/health`);
      return { baseUrl, port, server };
    },
    stop() {
      stopping ??= (async () => {
        if (server) await stopGroup(server);
        closeSync(logFd);
        if (!keep) rmSync(stateDir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}

/**
 * Keeps a started server in the foreground: prints `onReady` once `readyUrl` answers, and on Ctrl-C,
 * SIGTERM or the server's own exit stops the whole group and exits.
 */
export async function serveUntilStopped(server, readyUrl, onReady) {
  let stopping = false;
  const stop = () => {
    stopping = true;
    return stopGroup(server);
  };
  const shutdown = async (code) => {
    if (stopping) return;
    await stop();
    process.exit(code);
  };
  exitOnStopSignals(stop);
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
