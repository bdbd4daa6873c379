// `npm start`: build the SPA, bring the local D1 up to date, seed the demo data, serve everything
// from one `wrangler dev`, and say where to open it. Ctrl-C stops the whole server process group.
import { DEMO_ACCOUNTS, printReady } from "./banner.mjs";
import { localDemoShards } from "./local-d1.mjs";
import {
  applyMigrations,
  assertPortFree,
  buildSpa,
  removeStaleDeployConfig,
  seed,
  serveUntilStopped,
  startWrangler,
} from "./local-app.mjs";

const port = Number(process.env.PORT || 8787);
/** The nightly cron of wrangler.toml (worker/jobs/index.ts DAILY_CRON). */
const DAILY_CRON = "15 5 * * *";
const baseUrl = `http://127.0.0.1:${port}`;
const step = (text) => console.log(`\n▸ ${text}`);

async function main() {
  const started = Date.now();
  await assertPortFree(port);
  step("Building the web app (vite build)");
  await buildSpa();
  step("Applying D1 migrations to the local databases, the directory and every shard (.wrangler/state)");
  await applyMigrations();
  step("Seeding demo data (idempotent)");
  await seed();
  removeStaleDeployConfig();
  // Which demo account is on which shard (the seed puts them on different ones), for the banner.
  const shards = localDemoShards(DEMO_ACCOUNTS.map((a) => a.email)) ?? undefined;

  step(`Starting wrangler dev on ${baseUrl}`);
  const server = startWrangler({ port });
  await serveUntilStopped(server, `${baseUrl}/api/health`, () => {
    printReady(baseUrl, { mode: `ready in ${((Date.now() - started) / 1000).toFixed(1)} s`, shards });
    // Run the nightly cron once now (wrangler dev --test-scheduled), so the demo's counts read their
    // roll-ups and yesterday's daily reports exist without waiting for 05:15 UTC. Counts are right
    // without it, only slower; a failure here is logged by the worker and changes nothing else.
    fetch(`${baseUrl}/__scheduled?cron=${encodeURIComponent(DAILY_CRON)}`).catch(() => undefined);
  });
}

main().catch((e) => {
  console.error(`\nnpm start failed: ${e.message}`);
  process.exit(1);
});
