// Each page's code to preload with the entry (decision 032). The build (scripts/vite/route-preloads.ts)
// writes ROUTE_PRELOADS_FILE beside the SPA from these functions; the Worker reads it when it serves
// a page's shell and adds <link rel="modulepreload"> for the path, so a first visit downloads the
// page's chunks with the entry instead of after evaluating it.

export const ROUTE_PRELOADS_FILE = "route-preloads.json";

/**
 * Modules a page may need before its route (table keys "module:<name>"): the identity library that
 * restores a stored session, which every signed-in page waits for before it renders its data.
 */
export const PRELOAD_MODULES = { "identity-client": "web/src/lib/identity-client.ts" } as const;
export type PreloadModule = keyof typeof PRELOAD_MODULES;
export const moduleKey = (name: PreloadModule) => `module:${name}`;

/** A route file's page path: `_app/call-logs.tsx` → /call-logs, `payments.cancel.tsx` → /payments/cancel, `index.tsx` → /; null for the root and pathless layouts. */
export function routePathOf(file: string): string | null {
  const segments = file.replace(/\.tsx$/, "").split("/");
  const last = segments[segments.length - 1];
  if (last.startsWith("_")) return null;
  const parts = segments.filter((s) => !s.startsWith("_")).flatMap((s) => s.split("."));
  return `/${parts.filter((p) => p !== "index").join("/")}`;
}

/** The layout route files a route file renders inside: `_app/call-logs.tsx` → [`_app.tsx`]. */
export const layoutsOf = (file: string): string[] =>
  file
    .split("/")
    .slice(0, -1)
    .map((_, i, dirs) => `${dirs.slice(0, i + 1).join("/")}.tsx`);

export type BuiltChunk = { fileName: string; imports: string[]; isEntry: boolean; facadeModuleId: string | null };

/**
 * For each page path, the files of its route chunks (its layouts' and its own component chunks, as
 * the router splits them) and every chunk they import, less what the entry imports (the HTML
 * preloads those already). `routesDir` is the absolute routes directory, with forward slashes.
 */
export function routePreloads(chunks: readonly BuiltChunk[], routesDir: string, base = "/", root = ""): Record<string, string[]> {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const closure = (start: readonly string[], into = new Set<string>()) => {
    for (const f of start) {
      if (into.has(f)) continue;
      into.add(f);
      closure(byFile.get(f)?.imports ?? [], into);
    }
    return into;
  };
  const entryFiles = closure(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
  const prefix = `${routesDir.replace(/\/+$/, "")}/`;
  const routeChunk = new Map<string, string>();
  for (const c of chunks) {
    const id = c.facadeModuleId;
    if (!id || !/[?&]tsr-split=/.test(id)) continue;
    const file = id.replace(/\?.*$/, "");
    if (file.startsWith(prefix)) routeChunk.set(file.slice(prefix.length), c.fileName);
  }
  const out: Record<string, string[]> = {};
  for (const file of [...routeChunk.keys()].sort()) {
    const page = routePathOf(file);
    if (!page) continue;
    const own = [...layoutsOf(file), file].flatMap((f) => routeChunk.get(f) ?? []);
    out[page] = [...closure(own)].filter((f) => !entryFiles.has(f)).map((f) => `${base}${f}`);
  }
  // Named modules: the chunk whose facade is the module, with what it imports.
  for (const [name, file] of Object.entries(PRELOAD_MODULES) as [PreloadModule, string][]) {
    const found = chunks.find((c) => c.facadeModuleId === `${root.replace(/\/+$/, "")}/${file}`);
    if (found) out[moduleKey(name)] = [...closure([found.fileName])].filter((f) => !entryFiles.has(f)).map((f) => `${base}${f}`);
  }
  return out;
}
