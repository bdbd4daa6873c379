// The build step of decision 065: web/src/boot/early.ts is a second entry of the SPA, with every module it
// imports (statically) in its own file, and the shell loads that file with its own async script
// before the app's entry. The app's entry imports it too and so gets the same module.
import path from "node:path";
import type { Plugin } from "vite";
import { withEarlyEntry } from "../../shared/first-paint/shell.ts";

export const EARLY_ENTRY = "web/src/boot/early.ts";

export function earlyEntry(root: string) {
  const entry = path.join(root, EARLY_ENTRY);
  // The early entry's module graph, found once every module is loaded; the chunk group below reads
  // it when it makes the chunks, which is after.
  const graph = new Set<string>();
  const plugin: Plugin = {
    name: "early-entry",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    buildEnd() {
      graph.clear();
      const visit = (id: string) => {
        if (graph.has(id)) return;
        graph.add(id);
        for (const next of this.getModuleInfo(id)?.importedIds ?? []) visit(next);
      };
      visit(entry);
    },
    transformIndexHtml: {
      order: "post",
      handler(html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find((o) => o.type === "chunk" && o.isEntry && o.facadeModuleId === entry);
        if (!chunk) throw new Error(`the build has no chunk for ${EARLY_ENTRY}`);
        return withEarlyEntry(html, `/${chunk.fileName}`);
      },
    },
  };
  return {
    plugin,
    input: entry,
    /** The chunk group that keeps the early entry's modules in its one file, out of the app's entry. */
    group: { name: "early", test: (id: string) => graph.has(id), priority: 11 },
  };
}
