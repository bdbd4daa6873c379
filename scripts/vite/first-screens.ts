// The build step of decision 033: renders the signed-out first screens of shared/first-paint/first-screen.ts's
// RENDERED_FIRST_SCREENS with the app's own components and writes them beside the SPA, so the Worker
// paints /auth from the HTML. Each module exports one function returning its markup; a throwaway
// Vite server in SSR mode loads it with the app's aliases.
import path from "node:path";
import { createServer, type Plugin } from "vite";
import { FIRST_SCREENS_FILE, RENDERED_FIRST_SCREENS } from "../../shared/first-paint/first-screen.ts";

export function firstScreensPlugin(root: string, alias: Record<string, string>): Plugin {
  return {
    name: "first-screens",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    async generateBundle() {
      const server = await createServer({
        configFile: false,
        root: path.join(root, "web"),
        logLevel: "error",
        resolve: { alias },
        server: { middlewareMode: true, hmr: false, ws: false },
        appType: "custom",
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      const screens: Record<string, string> = {};
      try {
        for (const [page, file] of Object.entries(RENDERED_FIRST_SCREENS)) {
          const module = (await server.ssrLoadModule(path.join(root, file))) as Record<string, unknown>;
          const render = Object.values(module).find((value) => typeof value === "function") as (() => unknown) | undefined;
          const html = render?.();
          if (typeof html !== "string" || !html.startsWith("<")) throw new Error(`${file} rendered no markup for ${page}`);
          screens[page] = html;
        }
      } finally {
        await server.close();
      }
      this.emitFile({ type: "asset", fileName: FIRST_SCREENS_FILE, source: `${JSON.stringify(screens)}\n` });
    },
  };
}
