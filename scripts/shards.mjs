// `npm run shards -- <command>` (decision 080): the shards and moving an account between them.
//
//   status                      each shard's size, accounts, room to D1's 10 GB, open or closed, moves
//   moves                       the moves, newest first
//   move <account> <shard>      moves an account (its id, or locally its email) to a shard, stepping the move to its end; an
//                               account with a move under way has that move resumed (after a crash)
//   open <shard> | close <shard>  whether a shard takes new accounts
//
// Locally (the default) it runs the Worker's own code (worker/services/shards, through tsx) on the
// local databases (.wrangler/state, or --persist-to DIR as npm run db:migrate takes it) through
// wrangler's getPlatformProxy: no server needs to run. A move waits out its grace period after the
// switch (60 s, a request that read the old shard's name may still write there); --grace-seconds N
// shortens it where no such request can be in flight (nothing else uses the local state).
//
// --remote drives the deployed Worker's admin API instead (every change audited under the admin):
// --url https://your.worker.dev and an admin's access token in SHARDS_ADMIN_TOKEN. A remote move is
// started there and carried out by the Worker's minute cron; the command follows it to its end.
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { root, toolEnv } from "./lib.mjs";

const USAGE = "usage: npm run shards -- status | moves | move <account> <shard> | open <shard> | close <shard> [--persist-to DIR] [--grace-seconds N] [--remote --url URL]";

const gb = (bytes) => `${(bytes / 1e9).toFixed(3)} GB`;

function printStatus({ shards, limit_bytes }) {
  const rows = shards.map((s) => [s.name, s.open ? "open" : "closed", gb(s.size_bytes), String(s.accounts), gb(s.room_bytes), `${s.moves_in} in / ${s.moves_out} out`]);
  const head = ["shard", "state", "size", "accounts", `room (to ${gb(limit_bytes)})`, "moves under way"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const r of [head, ...rows]) console.log(r.map((v, i) => v.padEnd(widths[i])).join("  "));
}

const printMove = (m) =>
  console.log(`move ${m.id}: ${m.account ?? m.userId} ${m.from_shard ?? m.fromShard} → ${m.to_shard ?? m.toShard}  ${m.phase}  ${m.rows_copied ?? m.rowsCopied} rows copied${m.error ? `  (last error: ${m.error})` : ""}`);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The local databases through getPlatformProxy, and the Worker's own shard code through tsx. */
async function local(args) {
  // Offline and quiet, as every script runs wrangler: its warnings about bindings the command does not use are noise here.
  Object.assign(process.env, toolEnv({ WRANGLER_LOG: process.env.WRANGLER_LOG ?? "error" }));
  const { getPlatformProxy } = await import("wrangler");
  const { tsImport } = await import("tsx/esm/api");
  const persist = args["persist-to"] ? { path: path.join(path.resolve(args["persist-to"]), "v3") } : true;
  const proxy = await getPlatformProxy({ configPath: path.join(root, "wrangler.toml"), persist });
  const mod = (p) => tsImport(path.join(root, p), import.meta.url);
  const [{ createDb }, shards, move, status] = await Promise.all([
    mod("worker/db/client.ts"),
    mod("worker/db/shards.ts"),
    mod("worker/services/shards/move.ts"),
    mod("worker/services/shards/status.ts"),
  ]);
  const env = proxy.env;
  const deps = { directory: createDb(env.DB), bound: shards.shardBindings(env), shard: (name) => shards.shardDatabase(env, name), text: env.CALL_TEXT };
  return { proxy, deps, move, status };
}

async function runLocal(command, rest, args) {
  const { proxy, deps, move, status } = await local(args);
  try {
    if (command === "status") {
      printStatus(await status.shardStatus(deps.directory, deps.bound, deps.shard));
    } else if (command === "moves") {
      for (const m of await move.listMoves(deps.directory)) printMove(status.moveView(m));
    } else if (command === "open" || command === "close") {
      const [name] = rest;
      if (!name || !deps.bound.includes(name)) throw new Error(`${name ?? "(none)"} is not a shard: ${deps.bound.join(", ")}`);
      await status.setShardOpen(deps.directory, name, command === "open");
      printStatus(await status.shardStatus(deps.directory, deps.bound, deps.shard));
    } else if (command === "move") {
      const [who, shard] = rest;
      if (!who || !shard) throw new Error(USAGE);
      // An account by its id, or by its email.
      const found = who.includes("@") ? await proxy.env.DB.prepare("SELECT id FROM profiles WHERE lower(email) = lower(?1)").bind(who).first() : { id: who };
      if (!found) throw new Error(`No account with the email ${who}`);
      const account = found.id;
      const graceMs = args["grace-seconds"] === undefined ? move.GRACE_MS : Number(args["grace-seconds"]) * 1000;
      if (!Number.isFinite(graceMs) || graceMs < 0) throw new Error("--grace-seconds takes a number of seconds");
      const running = (await move.listMoves(deps.directory)).find((m) => m.userId === account && m.phase !== "done");
      const started = running ?? (await move.startMove(deps, { account, shard, startedBy: `npm run shards (${os.userInfo().username})` }));
      if (running) console.log(`resuming move ${running.id} (${running.phase})`);
      const done = await move.runMoveToEnd(deps, started.id, {
        graceMs,
        pause: async (m) => {
          printMove(status.moveView(m));
          if (m.phase === "final" && m.switchedAt) {
            const wait = Date.parse(m.switchedAt) + graceMs - Date.now();
            if (wait > 0) {
              console.log(`switched; waiting ${Math.ceil(wait / 1000)} s of grace before the last catch-up and the deletion`);
              await sleep(wait);
            }
          }
        },
      });
      printMove(status.moveView(done));
    } else {
      throw new Error(USAGE);
    }
  } finally {
    await proxy.dispose();
  }
}

/** The deployed Worker's admin API. */
async function runRemote(command, rest, args) {
  const base = args.url;
  const token = process.env.SHARDS_ADMIN_TOKEN;
  if (!base || !token) throw new Error("--remote needs --url https://… and an admin's access token in SHARDS_ADMIN_TOKEN");
  const api = async (method, p, body) => {
    const res = await fetch(new URL(p, base), {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${json.error ?? ""}${json.field ? ` (${json.field})` : ""}`);
    return json;
  };
  if (command === "status") printStatus(await api("GET", "/api/admin/shards"));
  else if (command === "moves") for (const m of (await api("GET", "/api/admin/shards/moves")).moves) printMove(m);
  else if (command === "open" || command === "close") {
    await api("PUT", `/api/admin/shards/${rest[0]}`, { open: command === "open" });
    printStatus(await api("GET", "/api/admin/shards"));
  } else if (command === "move") {
    const [account, shard] = rest;
    const { move } = await api("POST", "/api/admin/shards/moves", { account, shard });
    // The Worker's minute cron steps it; follow it to its end.
    for (let m = move; ; ) {
      printMove(m);
      if (m.phase === "done") break;
      await sleep(30_000);
      m = (await api("GET", "/api/admin/shards/moves")).moves.find((x) => x.id === move.id);
    }
  } else throw new Error(USAGE);
}

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { remote: { type: "boolean" }, url: { type: "string" }, "persist-to": { type: "string" }, "grace-seconds": { type: "string" } },
});
const [command, ...rest] = positionals;
(args.remote ? runRemote : runLocal)(command, rest, args).catch((e) => {
  console.error(e.message);
  process.exit(1);
});
