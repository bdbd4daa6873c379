// `npm run bench -- --webhooks [--events N] [--keep] [--no-build]`
//   (or `node bench/webhooks.mjs ...` with Node 22)
//
// Custom webhooks (decision 070) under load and failure: serves a throwaway seeded copy of the app with
// one `wrangler dev` (local adapters and the local Queue), gives the demo customer three endpoints on
// the local receiver subscribed to call.started, one answering every delivery, one failing 30 % of
// them at random (?fail=30) and one down (503) for the first minute (?down_until), then sends N
// (default 1,000) VAPI status updates of new calls, 10 at a time. It waits until every delivery is
// decided and checks, from the receiver's own record of what it took: every event reached every
// endpoint; every event's receipts at an endpoint carry one webhook-id (duplicates only as the same
// id); every signature verified. Prints attempts and p50/p95 from the event to its first accepted
// delivery per endpoint.
// The retry schedule is compressed for the run (WEBHOOK_RETRY_DELAYS, outside production only): 2 s,
// 5 s, 10 s, 20 s, 30 s, 60 s, 120 s after the first attempt instead of 5 s … 10 h, so a day's
// schedule fits in minutes; the first attempt is immediate either way.
import { DatabaseSync } from "node:sqlite";
import { accountShardFile, findD1File, percentile } from "./ops.mjs";
import { BENCH_MODES } from "./modes.mjs";
import { cliOptions } from "../scripts/lib.mjs";
import { exitOnStopSignals, throwawayApp } from "../scripts/local-app.mjs";

const { args, wholeNumber } = cliOptions(BENCH_MODES.webhooks.options, BENCH_MODES.webhooks.usage);
const EVENTS = wholeNumber("events", 1, 1000);
const CONCURRENCY = 10;
const RETRY_DELAYS = "2,5,10,20,30,60,120";
const DOWN_FOR_MS = 60_000;
/** Longest wait for every delivery to be decided: the compressed schedule is about 4 minutes. */
const SETTLE_TIMEOUT_MS = 10 * 60_000;

const DEMO_PASSWORD = "demo-password-1";
const CUSTOMER = "customer@demo.local";
const { tsImport } = await import("tsx/esm/api");
const { DEV_VAPI_WEBHOOK_SECRET } = await tsImport("../worker/providers/voice/local.ts", import.meta.url);

const ms = (n) => (n === null || n === undefined ? "–" : `${Math.round(n)} ms`);

const app = throwawayApp("bench-webhooks", { keep: args.keep });
exitOnStopSignals(() => app.stop());
let failed = false;
try {
  const assets = await app.servedBuild({ build: !args["no-build"] });
  console.log("▸ local D1: migrations and the demo accounts");
  await app.migrate();
  await app.seed(["--calls", "50", "--no-search-index"]);
  const { baseUrl } = await app.serve({ assets, vars: { WEBHOOK_RETRY_DELAYS: RETRY_DELAYS } });
  console.log(`▸ wrangler dev on ${baseUrl} (retries after ${RETRY_DELAYS} s)`);

  const signIn = await fetch(`${baseUrl}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: CUSTOMER, password: DEMO_PASSWORD }),
  });
  if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const auth = { authorization: `Bearer ${(await signIn.json()).access_token}`, "content-type": "application/json" };
  const agents = await (await fetch(`${baseUrl}/api/agents`, { headers: auth })).json();
  const assistantId = agents.agents?.find((a) => a.vapi_assistant_id)?.vapi_assistant_id;
  if (!assistantId) throw new Error("the demo customer has no active agent");

  const run = Date.now().toString(36);
  const downUntil = Date.now() + DOWN_FOR_MS;
  const receivers = [
    { name: "answers every delivery", inbox: `bench-ok-${run}`, query: "" },
    { name: "fails 30 % at random", inbox: `bench-flaky-${run}`, query: "?fail=30" },
    { name: "down for the first minute", inbox: `bench-down-${run}`, query: `?down_until=${downUntil}` },
  ];
  for (const r of receivers) {
    const res = await fetch(`${baseUrl}/api/webhook-endpoints`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ url: `${baseUrl}/api/local/webhook-inbox/${r.inbox}${r.query}`, description: `bench: ${r.name}`, events: ["call.started"] }),
    });
    if (res.status !== 201) throw new Error(`adding an endpoint: ${res.status} ${await res.text()}`);
    r.endpointId = (await res.json()).endpoint.id;
  }

  console.log(`▸ ${EVENTS} call events (VAPI status updates), ${CONCURRENCY} at a time, fanned out to ${receivers.length} endpoints`);
  const sentAt = new Map();
  let next = 0;
  const sendOne = async () => {
    while (next < EVENTS) {
      next += 1;
      const callId = crypto.randomUUID();
      const body = {
        message: {
          type: "status-update",
          status: "in-progress",
          timestamp: Date.now(),
          call: { id: callId, orgId: "bench", type: "outboundPhoneCall", status: "in-progress", assistantId, customer: { number: "+13055550100" }, createdAt: new Date().toISOString() },
        },
      };
      sentAt.set(callId, Date.now());
      const res = await fetch(`${baseUrl}/api/webhooks/vapi`, { method: "POST", headers: { "content-type": "application/json", "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`VAPI webhook: ${res.status} ${await res.text()}`);
    }
  };
  const sendStarted = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, sendOne));
  const sendWall = Date.now() - sendStarted;

  // Every delivery decided (succeeded or failed), read from the local D1 files the server writes: the
  // deliveries in the customer's shard, the local inbox in the directory.
  const db = new DatabaseSync(await findD1File(app.stateDir), { readOnly: true });
  const customerId = db.prepare("select id from profiles where lower(email) = ?").get(CUSTOMER).id;
  const shard = new DatabaseSync(await accountShardFile(app.stateDir, customerId), { readOnly: true });
  const ids = receivers.map((r) => r.endpointId);
  const placeholders = ids.map(() => "?").join(", ");
  const settleStarted = Date.now();
  let pending = Infinity;
  let created = 0;
  while (Date.now() - settleStarted < SETTLE_TIMEOUT_MS) {
    const row = shard.prepare(`select count(*) as n, sum(status = 'pending') as pending from webhook_deliveries where endpoint_id in (${placeholders})`).get(...ids);
    created = Number(row.n);
    pending = Number(row.pending ?? 0);
    if (created === EVENTS * receivers.length && pending === 0) break;
    await new Promise((r) => setTimeout(r, 2000));
  }
  const settleWall = Date.now() - settleStarted;
  if (pending !== 0 || created !== EVENTS * receivers.length) throw new Error(`deliveries not decided within ${SETTLE_TIMEOUT_MS / 1000} s: ${created} written, ${pending} pending`);

  const rows = [];
  for (const r of receivers) {
    const status = Object.fromEntries(
      shard.prepare("select status, count(*) as n, sum(attempts) as attempts from webhook_deliveries where endpoint_id = ? group by status").all(r.endpointId).map((s) => [s.status, s]),
    );
    const received = db.prepare("select webhook_id, received_at, body, verified, answered from webhook_inbox where inbox = ? order by id").all(r.inbox);
    const idsByCall = new Map();
    const firstAccepted = new Map();
    let unverified = 0;
    for (const e of received) {
      const callId = JSON.parse(e.body).data.call_id;
      if (!idsByCall.has(callId)) idsByCall.set(callId, new Set());
      idsByCall.get(callId).add(e.webhook_id);
      if (!e.verified) unverified += 1;
      if (e.answered === 200 && !firstAccepted.has(callId)) firstAccepted.set(callId, Date.parse(e.received_at));
    }
    const missing = [...sentAt.keys()].filter((id) => !firstAccepted.has(id)).length;
    const twoIds = [...idsByCall.values()].filter((s) => s.size > 1).length;
    const accepted = received.filter((e) => e.answered === 200).length;
    const latencies = [...firstAccepted].map(([id, at]) => at - sentAt.get(id)).sort((a, b) => a - b);
    rows.push({
      ...r,
      succeeded: Number(status.succeeded?.n ?? 0),
      failed: Number(status.failed?.n ?? 0),
      attempts: received.length,
      accepted,
      duplicates: accepted - firstAccepted.size,
      missing,
      twoIds,
      unverified,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      max: latencies[latencies.length - 1],
    });
    if (missing > 0 || twoIds > 0 || unverified > 0 || Number(status.failed?.n ?? 0) > 0) failed = true;
  }
  db.close();
  shard.close();

  console.log(`\n## Custom webhooks: ${EVENTS} call events × ${receivers.length} endpoints (retries compressed to ${RETRY_DELAYS} s)\n`);
  console.log(`events sent in ${(sendWall / 1000).toFixed(1)} s; every delivery decided ${(settleWall / 1000).toFixed(1)} s after the last\n`);
  console.log("| endpoint | delivered | failed | attempts | accepted twice (same webhook-id) | events missing | events under two webhook-ids | unverified | event → first delivery p50 | p95 | max |");
  console.log("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.succeeded} | ${r.failed} | ${r.attempts} | ${r.duplicates} | ${r.missing} | ${r.twoIds} | ${r.unverified} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.max)} |`);
  }
  console.log(failed ? "\n✗ an event was lost, split across webhook-ids or unverified" : "\n✓ every event reached every endpoint, each under one webhook-id, every signature verified");
} catch (e) {
  failed = true;
  console.error(`✗ ${e instanceof Error ? e.message : String(e)}`);
} finally {
  await app.stop();
}
process.exit(failed ? 1 : 0);
