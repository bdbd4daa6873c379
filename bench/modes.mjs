// The benches behind `npm run bench`: each mode's script, its usage line and its options, in one
// place, so bench/run.mjs can tell which bench a command line asks for and each script parses the
// same options its usage names (scripts/bench-commands.test.ts parses every documented command).
import { parseArgs } from "node:util";

/** `npm run bench` without a mode: the API, counts and dashboard bench (bench/run.mjs). */
export const DEFAULT_MODE = {
  script: "bench/run.mjs",
  usage:
    "npm run bench -- [--full] [--calls N] [--aircall-calls N] [--appointments N] [--leads N] [--days N] [--rollup-calls N] [--requests N] [--concurrency N] [--d1-rtt MS] [--dashboard-runs N] [--keep] [--no-build]",
  options: {
    calls: { type: "string" },
    "aircall-calls": { type: "string" },
    appointments: { type: "string" },
    leads: { type: "string" },
    days: { type: "string", default: "90" },
    // The full data set: 1M calls, 200k appointments, 200k Aircall calls, 50k leads.
    full: { type: "boolean", default: false },
    "rollup-calls": { type: "string", default: "400000" },
    requests: { type: "string", default: "200" },
    concurrency: { type: "string", default: "4" },
    "d1-rtt": { type: "string" },
    "dashboard-runs": { type: "string", default: "3" },
    keep: { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
  },
};

/**
 * The other benches, by the flag that picks them. Each script takes its own flag too (forwarded by
 * bench/run.mjs). A mode's flag may also be another mode's option (the live bench's `--webhooks N`).
 */
export const BENCH_MODES = {
  // The transcript search bench; `--full` is forwarded as `--calls 1000000`.
  search: {
    script: "bench/search.mjs",
    usage: "npm run bench -- --search [--full] [--calls N] [--requests N] [--keep] [--no-build]",
    options: {
      search: { type: "boolean", default: false },
      calls: { type: "string" },
      requests: { type: "string" },
      keep: { type: "boolean", default: false },
      "no-build": { type: "boolean", default: false },
    },
  },
  // The custom webhooks bench: call events fanned out to a healthy, a flaky and a down endpoint.
  webhooks: {
    script: "bench/webhooks.mjs",
    usage: "npm run bench -- --webhooks [--events N] [--keep] [--no-build]",
    options: {
      webhooks: { type: "boolean", default: true },
      events: { type: "string" },
      keep: { type: "boolean", default: false },
      "no-build": { type: "boolean", default: false },
    },
  },
  // The alert evaluation bench: one cron run over many rules and accounts.
  alerts: {
    script: "bench/alerts.mjs",
    usage: "npm run bench -- --alerts [--full] [--calls N] [--accounts N] [--rules-per-account N] [--minutes-rules N] [--recent N] [--events N] [--keep]",
    options: {
      alerts: { type: "boolean", default: false },
      calls: { type: "string" },
      accounts: { type: "string" },
      "rules-per-account": { type: "string" },
      "minutes-rules": { type: "string" },
      recent: { type: "string" },
      events: { type: "string" },
      full: { type: "boolean", default: false },
      keep: { type: "boolean", default: false },
    },
  },
  // The shards bench: the same calls in 1 shard and in 4, in process over SQLite files (no server):
  // bytes per call, each shard's size, the counts' round trips and p50, the roll-up across shards, capacity.
  shards: {
    script: "bench/shards.mjs",
    usage: "npm run bench -- --shards [--accounts N] [--calls-per-account N] [--keep]",
    options: {
      shards: { type: "boolean", default: true },
      accounts: { type: "string" },
      "calls-per-account": { type: "string" },
      keep: { type: "boolean", default: false },
    },
  },
  // The live feed bench: many sockets on one account's feed, webhook to message. Its `--webhooks N`
  // is how many webhooks it sends, not the webhooks bench.
  live: {
    script: "bench/live.mjs",
    usage: "npm run bench -- --live [--sockets N] [--webhooks N] [--keep] [--no-build]",
    options: {
      live: { type: "boolean", default: true },
      sockets: { type: "string" },
      webhooks: { type: "string" },
      keep: { type: "boolean", default: false },
      "no-build": { type: "boolean", default: false },
    },
  },
};

/** The arguments bench/run.mjs forwards to a mode's script (search takes `--full` as its call count). */
export function forwardedArgs(mode, argv) {
  return mode === "search" ? argv.flatMap((a) => (a === "--full" ? ["--calls", "1000000"] : [a])) : argv;
}

const parses = (options, argv) => {
  try {
    parseArgs({ args: argv, options: { ...options, help: { type: "boolean", short: "h" } } });
    return true;
  } catch {
    return false;
  }
};

/**
 * Which bench a command line (the arguments after `npm run bench --`) asks for: "default", a key of
 * BENCH_MODES, or an error naming why none. A mode flag picks its bench only when the whole line
 * is that bench's options, so `--live --sockets 500 --webhooks 30` is the live bench (its
 * `--webhooks 30` is a count) and `--webhooks --events 10` the webhooks bench.
 */
export function benchMode(argv) {
  const named = Object.keys(BENCH_MODES).filter((mode) => argv.includes(`--${mode}`));
  if (named.length === 0) return { mode: "default" };
  const fitting = named.filter((mode) => parses(BENCH_MODES[mode].options, forwardedArgs(mode, argv)));
  if (fitting.length === 1) return { mode: fitting[0] };
  const usages = named.map((mode) => BENCH_MODES[mode].usage).join("\n");
  return {
    error:
      fitting.length === 0
        ? `These options fit no bench:\n${usages}`
        : `These options fit more than one bench (${fitting.map((m) => `--${m}`).join(", ")}); give one:\n${usages}`,
  };
}
