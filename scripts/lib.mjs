// Shared helpers for the project's Node scripts: offline, telemetry-free wrangler,
// all state and caches kept inside the project.
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const bin = (name) => path.join(root, "node_modules", ".bin", name);

export function toolEnv(extra = {}) {
  return {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    DO_NOT_TRACK: "1",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    XDG_CONFIG_HOME: path.join(root, ".config"),
    XDG_CACHE_HOME: path.join(root, ".cache"),
    WRANGLER_LOG_PATH: path.join(root, ".wrangler", "logs"),
    // Node 22 from the `node` devDependency comes first on PATH for every child.
    PATH: `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH}`,
    ...extra,
  };
}

/** Runs a command to completion; rejects on a non-zero exit. */
export function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const { env, ...rest } = opts;
    const child = spawn(cmd, args, { cwd: root, stdio: "inherit", ...rest, env: toolEnv(env) });
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited with ${code ?? signal}`)),
    );
    child.on("error", reject);
  });
}

/** Starts a long-running command in its own process group so the whole tree can be stopped. */
export function startGroup(cmd, args, opts = {}) {
  const child = spawn(cmd, args, { cwd: root, env: toolEnv(opts.env), detached: true, stdio: opts.stdio ?? "inherit" });
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // The group has already ended.
    }
  };
  return { child, stop };
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export async function waitForHttp(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      // A server that accepts but never answers (wrangler after a failed build) must not hang us for minutes.
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (res.ok) return;
      last = new Error(`status ${res.status}`);
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} not ready: ${last?.message}`);
}

/**
 * Command-line options for the scripts: node:util's parseArgs, the usage line on --help (exit 0) or
 * on an unknown or malformed option (exit 2), and `wholeNumber(name, min, fallback)` for numeric
 * options given as strings ("1_000_000" allowed; `fallback` when the option is absent).
 */
export function cliOptions(options, usage) {
  let args;
  try {
    ({ values: args } = parseArgs({ options: { ...options, help: { type: "boolean", short: "h", default: false } } }));
  } catch (e) {
    console.error(`${e.message}\n${usage}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(usage);
    process.exit(0);
  }
  const wholeNumber = (name, min, fallback) => {
    if (args[name] === undefined) return fallback;
    const n = Number(args[name].replaceAll("_", ""));
    if (!Number.isInteger(n) || n < min) {
      console.error(`--${name} must be a whole number of at least ${min}`);
      process.exit(2);
    }
    return n;
  };
  return { args, wholeNumber };
}

/**
 * For scripts that read SQLite files through node:sqlite (Node 22). `npm run` puts the project's
 * Node 22 first on PATH, a bare `node` may not: run again on the project's Node (marked by the
 * environment variable `flag`, so it happens once), or say which command to use. Node's
 * experimental-feature warning for node:sqlite is silenced; other warnings still print.
 */
export function requireNodeSqlite(command, { what = "The bench", flag = "BENCH_REEXEC" } = {}) {
  if (!process.getBuiltinModule?.("node:sqlite")) {
    if (process.env[flag]) {
      console.error(`${what} needs Node 22 or later (node:sqlite); this is Node ${process.version}. Run it with: ${command}`);
      process.exit(1);
    }
    const child = spawnSync(bin("node"), process.argv.slice(1), { stdio: "inherit", env: { ...process.env, [flag]: "1" } });
    process.exit(child.status ?? 1);
  }
  process.removeAllListeners("warning");
  process.on("warning", (w) => {
    if (w.name !== "ExperimentalWarning") console.warn(w);
  });
}
