// `npm run bench -- --live [--sockets N] [--webhooks N] [--keep] [--no-build]`
//   (or `node bench/live.mjs ...` with Node 22)
//
// The live call feed (decision 058) under many connections to one account's object: serves a
// throwaway seeded copy of the app with one `wrangler dev` (local adapters, like every bench), signs
// in the demo customer (once per LIVE_SOCKETS_PER_SIGN_IN sockets, the feed's cap per sign-in; past
// the sign-in limit of 10 a minute the next sign-in waits for the next minute, so 500 sockets take
// about two minutes of sign-ins before the first socket opens), opens
// N WebSockets (default 500, the cap of one account's feed) to its account feed, each with its own
// ticket, then sends webhooks one at a time (VAPI status updates of new calls of the customer's
// agent) and measures, per webhook, the time from sending it to the message's arrival at every
// socket. Prints connect time (ticket + upgrade + replay until `ready`) and delivery p50/p95.
import { percentile } from "./ops.mjs";
import { BENCH_MODES } from "./modes.mjs";
import { cliOptions } from "../scripts/lib.mjs";
import { exitOnStopSignals, throwawayApp } from "../scripts/local-app.mjs";

const { args, wholeNumber } = cliOptions(BENCH_MODES.live.options, BENCH_MODES.live.usage);
const SOCKETS = wholeNumber("sockets", 1, 500);
const WEBHOOKS = wholeNumber("webhooks", 1, 50);
/** Sockets opened at once while connecting (each asks for its ticket first). */
const CONNECT_CONCURRENCY = 25;
/** Longest wait for a socket's `ready`, or for one webhook's message at every socket, before the run is called failed. */
const DELIVERY_TIMEOUT_MS = 30_000;

const DEMO_PASSWORD = "demo-password-1";
const CUSTOMER = "customer@demo.local";
// The voice simulator's development secret (worker/providers/voice/local.ts), which local servers accept.
const { tsImport } = await import("tsx/esm/api");
const { DEV_VAPI_WEBHOOK_SECRET } = await tsImport("../worker/providers/voice/local.ts", import.meta.url);
const { LIVE_SOCKETS_PER_SIGN_IN } = await tsImport("../worker/live/tickets.ts", import.meta.url);

const ms = (n) => (n === null ? "–" : `${n.toFixed(1)} ms`);
const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] ?? null };
};

const app = throwawayApp("bench-live", { keep: args.keep });
exitOnStopSignals(() => app.stop());
const sockets = [];
try {
  const assets = await app.servedBuild({ build: !args["no-build"] });
  console.log("▸ local D1: migrations and the demo accounts");
  await app.migrate();
  await app.seed(["--calls", "200", "--no-search-index"]);
  const { baseUrl } = await app.serve({ assets });
  console.log(`▸ wrangler dev on ${baseUrl}`);

  // The sign-in limit (10 password grants a minute per address and email, fixed windows on the
  // minute) holds for the bench as for anyone: a refused sign-in waits for the next window.
  const signInOnce = async () => {
    for (;;) {
      const signIn = await fetch(`${baseUrl}/auth/v1/token?grant_type=password`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: CUSTOMER, password: DEMO_PASSWORD }),
      });
      if (signIn.status === 429) {
        const wait = 60_000 - (Date.now() % 60_000) + 1_000;
        console.log(`  the sign-in limit is reached: waiting ${Math.round(wait / 1000)} s for the next minute`);
        await new Promise((resolve) => setTimeout(resolve, wait));
        continue;
      }
      if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
      return { authorization: `Bearer ${(await signIn.json()).access_token}` };
    }
  };
  // One sign-in holds at most LIVE_SOCKETS_PER_SIGN_IN sockets: as many sign-ins as the sockets need,
  // before any socket opens, so the connect times hold no wait for the limit.
  const signInCount = Math.ceil(SOCKETS / LIVE_SOCKETS_PER_SIGN_IN);
  console.log(`▸ ${signInCount} sign-ins of the demo customer (${LIVE_SOCKETS_PER_SIGN_IN} sockets each at most)`);
  const signIns = [];
  for (let i = 0; i < signInCount; i++) signIns.push(await signInOnce());
  const auth = signIns[0];
  const agents = await (await fetch(`${baseUrl}/api/agents`, { headers: auth })).json();
  const assistantId = agents.agents?.find((a) => a.vapi_assistant_id)?.vapi_assistant_id;
  if (!assistantId) throw new Error("the demo customer has no active agent");

  // ---- connect ----
  const wsBase = baseUrl.replace(/^http/, "ws");
  const connectTimes = [];
  const openOne = async (n) => {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/api/live/ticket`, { method: "POST", headers: signIns[Math.floor(n / LIVE_SOCKETS_PER_SIGN_IN)] });
    if (!res.ok) throw new Error(`ticket: ${res.status} ${await res.text()}`);
    const { ticket } = await res.json();
    const ws = new WebSocket(`${wsBase}/api/live?ticket=${encodeURIComponent(ticket)}`);
    const entry = { ws, arrivals: new Map() };
    await new Promise((resolve, reject) => {
      // wrangler dev reloads the Worker when a source file changes, dropping its sockets mid-run.
      const timer = setTimeout(() => reject(new Error(`socket not ready within ${DELIVERY_TIMEOUT_MS} ms (did a source file change under wrangler dev?)`)), DELIVERY_TIMEOUT_MS);
      ws.addEventListener("message", (e) => {
        const message = JSON.parse(String(e.data));
        if (message.type === "ready") {
          clearTimeout(timer);
          resolve();
        }
        if (message.type === "call" && !entry.arrivals.has(message.call.call_id)) entry.arrivals.set(message.call.call_id, performance.now());
        entry.onMessage?.();
      });
      ws.addEventListener("close", (e) => {
        entry.closed = `${e.code} ${e.reason}`;
        reject(new Error(`socket closed (${e.code}) before ready`));
      });
      ws.addEventListener("error", () => reject(new Error("socket error before ready")));
    });
    connectTimes.push(performance.now() - started);
    sockets.push(entry);
  };
  console.log(`▸ opening ${SOCKETS} sockets to the customer's account feed (${CONNECT_CONCURRENCY} at a time)`);
  const connectStarted = performance.now();
  for (let i = 0; i < SOCKETS; i += CONNECT_CONCURRENCY) {
    await Promise.all(Array.from({ length: Math.min(CONNECT_CONCURRENCY, SOCKETS - i) }, (_, k) => openOne(i + k)));
  }
  const connectWall = performance.now() - connectStarted;

  // ---- webhooks, one at a time ----
  console.log(`▸ ${WEBHOOKS} VAPI webhooks, each waited for at all ${SOCKETS} sockets`);
  const all = [];
  const first = [];
  const answer = [];
  for (let i = 0; i < WEBHOOKS; i++) {
    const callId = crypto.randomUUID();
    const body = {
      message: {
        type: "status-update",
        status: "ringing",
        timestamp: Date.now(),
        call: { id: callId, orgId: "bench", type: "outboundPhoneCall", status: "ringing", assistantId, customer: { number: "+13055550100" }, createdAt: new Date().toISOString() },
      },
    };
    const everywhere = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const got = sockets.filter((s) => s.arrivals.has(callId)).length;
        const closed = sockets.filter((s) => s.ws.readyState !== WebSocket.OPEN).length;
        const codes = [...new Set(sockets.map((s) => s.closed).filter(Boolean))].join(", ");
        reject(new Error(`webhook ${i + 1}: at ${got} of ${sockets.length} sockets within ${DELIVERY_TIMEOUT_MS} ms (${closed} closed: ${codes})`));
      }, DELIVERY_TIMEOUT_MS);
      const check = () => {
        if (sockets.every((s) => s.arrivals.has(callId))) {
          clearTimeout(timer);
          for (const s of sockets) s.onMessage = undefined;
          resolve();
        }
      };
      for (const s of sockets) s.onMessage = check;
    });
    const sent = performance.now();
    const res = await fetch(`${baseUrl}/api/webhooks/vapi`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET },
      body: JSON.stringify(body),
    });
    answer.push(performance.now() - sent);
    if (!res.ok) throw new Error(`webhook: ${res.status} ${await res.text()}`);
    await everywhere;
    const arrivals = sockets.map((s) => s.arrivals.get(callId) - sent);
    all.push(Math.max(...arrivals));
    first.push(Math.min(...arrivals));
  }

  const c = summary(connectTimes);
  const a = summary(all);
  const f = summary(first);
  const w = summary(answer);
  console.log(`\nLive feed, ${SOCKETS} sockets on one account object, ${WEBHOOKS} webhooks (local wrangler dev, this machine)`);
  console.log(`  connect (ticket + upgrade + ready), per socket: p50 ${ms(c.p50)}  p95 ${ms(c.p95)}  max ${ms(c.max)}  (all ${SOCKETS} in ${ms(connectWall)})`);
  console.log(`  webhook answered:                               p50 ${ms(w.p50)}  p95 ${ms(w.p95)}`);
  console.log(`  webhook sent → message at the first socket:     p50 ${ms(f.p50)}  p95 ${ms(f.p95)}`);
  console.log(`  webhook sent → message at all ${SOCKETS} sockets:     p50 ${ms(a.p50)}  p95 ${ms(a.p95)}  max ${ms(a.max)}`);
} catch (e) {
  console.error(`live bench failed: ${e.message}\n(server log: ${app.log})`);
  process.exitCode = 1;
} finally {
  for (const s of sockets) s.ws.close();
  await app.stop();
}
