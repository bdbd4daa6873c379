import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;
const alias = { "@shared": path.join(root, "shared"), "@web": path.join(root, "web/src") };

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(root, "migrations"));
  const shardMigrations = await readD1Migrations(path.join(root, "migrations-shard"));
  return {
    test: {
      projects: [
        {
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: { APP_ENV: "test", TEST_MIGRATIONS: migrations, TEST_SHARD_MIGRATIONS: shardMigrations },
                // Webhook attempts go to a queue nobody consumes: a test drives the consumer itself
                // (createMessageBatch), so no attempt runs behind its back.
                queueProducers: { WEBHOOK_QUEUE: { queueName: "webhooks-test-unconsumed" } },
              },
            }),
          ],
          resolve: { alias },
          test: {
            name: "worker",
            // Pre-bundled once, instead of hundreds of source-map warnings from its many modules.
            deps: { optimizer: { ssr: { enabled: true, include: ["stripe"] } } },
            include: ["worker/**/*.test.ts", "shared/**/*.test.ts"],
            setupFiles: ["./worker/test/setup.ts"],
            globalSetup: ["./worker/test/global-setup.ts"],
          },
        },
        {
          plugins: [react()],
          resolve: { alias },
          test: {
            name: "web",
            // The build's own logic (scripts/vite) and the install check (scripts/engines) are tested here too: plain functions.
            include: ["web/**/*.test.{ts,tsx}", "scripts/vite/**/*.test.ts", "scripts/*.test.ts"],
            environment: "happy-dom",
            setupFiles: ["./web/src/test/setup.ts"],
          },
        },
      ],
    },
  };
});
