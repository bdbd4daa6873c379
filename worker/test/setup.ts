import { applyD1Migrations, env } from "cloudflare:test";
import { inject } from "vitest";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.SEARCH_DB, env.TEST_SEARCH_MIGRATIONS);

// Webhook host names are resolved over DNS over HTTPS on every deployment: here through the stand-in
// (worker/test/standins/dns.ts), the network's answers for the names the tests use.
(env as unknown as Record<string, unknown>).DNS_OVER_HTTPS_URL = `${inject("standins").dns}/dns-query`;
