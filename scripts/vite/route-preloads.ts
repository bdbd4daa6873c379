// The build step of decision 032: writes shared/first-paint/route-preloads.ts's table of each page's chunks
// beside the SPA, from the client bundle Vite has just made.
import type { Plugin } from "vite";
import { ROUTE_PRELOADS_FILE, routePreloads, type BuiltChunk } from "../../shared/first-paint/route-preloads.ts";

export function routePreloadsPlugin(root: string, routesDir: string): Plugin {
  return {
    name: "route-preloads",
    applyToEnvironment: (environment) => environment.name === "client",
    generateBundle(_options, bundle) {
      const chunks: BuiltChunk[] = Object.values(bundle).flatMap((o) =>
        o.type === "chunk" ? [{ fileName: o.fileName, imports: o.imports, isEntry: o.isEntry, facadeModuleId: o.facadeModuleId }] : [],
      );
      this.emitFile({ type: "asset", fileName: ROUTE_PRELOADS_FILE, source: `${JSON.stringify(routePreloads(chunks, routesDir, "/", root))}\n` });
    },
  };
}
