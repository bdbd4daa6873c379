// `npm run dev`: local D1 up to date and seeded, then Vite with the worker running inside it
// (@cloudflare/vite-plugin, same .wrangler/state as `npm start`), hot reload for both sides.
import { DEMO_ACCOUNTS, printReady } from "./banner.mjs";
import { localDemoShards } from "./local-d1.mjs";
import { applyMigrations, assertPortFree, seed, serveUntilStopped, startVite } from "./local-app.mjs";

const port = Number(process.env.VITE_PORT || 5173);
const baseUrl = `http://127.0.0.1:${port}`;

async function main() {
  await assertPortFree(port);
  console.log("\n▸ Applying D1 migrations to the local databases, the directory and every shard (.wrangler/state)");
  await applyMigrations();
  console.log("\n▸ Seeding demo data (idempotent)");
  await seed();
  console.log(`\n▸ Starting Vite on ${baseUrl}`);
  const server = startVite(port);
  await serveUntilStopped(server, `${baseUrl}/api/health`, () =>
    printReady(baseUrl, { mode: "vite dev, hot reload", shards: localDemoShards(DEMO_ACCOUNTS.map((a) => a.email)) ?? undefined }),
  );
}

main().catch((e) => {
  console.error(`\nnpm run dev failed: ${e.message}`);
  process.exit(1);
});
