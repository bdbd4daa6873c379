import { applyD1Migrations, env } from "cloudflare:test";
import { inject } from "vitest";
import { shardBindings } from "../db/shards";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
// Every test runs on two shards (decision 076), registered as npm run db:migrate registers them: new
// accounts spread over both, so every path crosses shards.
const bindings = env as unknown as Record<string, unknown>;
for (const shard of shardBindings(bindings)) await applyD1Migrations(bindings[shard] as D1Database, env.TEST_SHARD_MIGRATIONS);
await env.DB.prepare("INSERT OR IGNORE INTO shards (name) SELECT value FROM json_each(?)").bind(JSON.stringify(shardBindings(bindings))).run();

// Webhook host names are resolved over DNS over HTTPS on every deployment: here through the stand-in
// (worker/test/standins/dns.ts), the network's answers for the names the tests use.
(env as unknown as Record<string, unknown>).DNS_OVER_HTTPS_URL = `${inject("standins").dns}/dns-query`;
