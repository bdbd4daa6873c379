import path from "node:path";
import { cloudflare } from "@cloudflare/vite-plugin";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { firstScreensPlugin } from "./scripts/vite/first-screens.ts";
import { pageKitGroups } from "./scripts/vite/page-kits.ts";
import { routePreloadsPlugin } from "./scripts/vite/route-preloads.ts";
import { stylesheetFirstPlugin } from "./scripts/vite/stylesheet-first.ts";

const root = import.meta.dirname;
const alias = { "@shared": path.join(root, "shared"), "@web": path.join(root, "web/src") };
const kits = pageKitGroups({ routesDir: path.join(root, "web/src/routes"), htmlEntry: path.join(root, "web/index.html"), firstPage: "auth" });

export default defineConfig(({ command }) => ({
  root: path.join(root, "web"),
  publicDir: path.join(root, "web/public"),
  envDir: root,
  resolve: {
    alias,
  },
  plugins: [
    tanstackRouter({
      target: "react",
      autoCodeSplitting: true,
      routesDirectory: path.join(root, "web/src/routes"),
      generatedRouteTree: path.join(root, "web/src/route-tree.gen.ts"),
    }),
    react(),
    tailwindcss(),
    routePreloadsPlugin(root, path.join(root, "web/src/routes")),
    firstScreensPlugin(root, alias),
    stylesheetFirstPlugin(),
    cloudflare({
      configPath: path.join(root, "wrangler.toml"),
      persistState: { path: path.join(root, ".wrangler/state") },
      // `npm run dev` serves locally as development; a build keeps wrangler.toml's production default.
      ...(command === "serve" ? { config: { vars: { APP_ENV: "development" } } } : {}),
    }),
  ],
  // The Cloudflare plugin writes each environment to <outDir>/<name>: the SPA lands in dist/client (wrangler.toml assets).
  build: { outDir: path.join(root, "dist"), emptyOutDir: true, sourcemap: false },
  environments: {
    // The SPA only: the Worker's build stays one module.
    client: {
      build: {
        rolldownOptions: {
          input: { index: path.join(root, "web/index.html") },
          output: {
            // Everything the entry imports statically goes in the entry's one file. Left to itself
            // the bundler splits it into many small files (jsx-runtime, the query client, …) that
            // every page loads anyway, each one more request before a page can run (decision 035).
            // What /auth shares with other pages is one file (`ui`), what the signed-in pages share
            // another (`app-kit`), instead of a file per shared module, most under 1 KB (decision 037).
            codeSplitting: {
              groups: [
                { name: "index", tags: ["$initial"], priority: 10 },
                { name: kits.ui, debugName: "ui", priority: 6 },
                { name: kits.kit, debugName: "app-kit", priority: 5 },
              ],
            },
          },
        },
      },
    },
  },
  server: { host: "127.0.0.1", port: 5173 },
}));
