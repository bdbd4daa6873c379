// Two chunk groups for the SPA's pages (decision 037). Left to itself, the bundler gives every set of
// pages that shares a module a chunk of its own: dozens of files for one page, most under 1 KB
// (a card, a badge, a date helper, an icon), each one more request before the page can paint.
//
// - `ui`: what the sign-in page (/auth, the first page of most visits) imports beyond the entry and
//   shares with other pages: its inputs, labels, card and icons. /auth uses all of it, so the kit
//   costs it nothing but saves it files.
// - `app-kit`: the app's own modules (and icons and the time zone helper) that two or more signed-in
//   pages import statically and /auth cannot load, now or lazily, and whose own imports are in the
//   entry or these groups. A library only some pages or a lazily loaded part need (Radix Dialog,
//   Select) keeps its own chunk.
import path from "node:path";

type ModuleInfo = { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] };
type Context = { getModuleInfo(id: string): ModuleInfo | null };

/** The route file a module id belongs to, if any: `_app/agent-settings`, `auth`, … (a split component counts as its route). */
export function routeOf(id: string, routesDir: string): string | null {
  const file = id.split("?")[0];
  if (!file.startsWith(routesDir + path.sep) || !file.endsWith(".tsx") || file.endsWith(".test.tsx")) return null;
  return path.relative(routesDir, file).replace(/\.tsx$/, "").split(path.sep).join("/");
}

/** Signed-in pages live under routes/_app/, in the layout routes/_app.tsx. */
export const isPrivatePage = (route: string) => route === "_app" || route.startsWith("_app/");

/** The kinds of module the kit may hold: the app's own code, icons, the time zone helper. */
const KIT_KINDS = /[\\/](web[\\/]src|shared)[\\/]|[\\/]node_modules[\\/](lucide-react|@date-fns[\\/]tz)[\\/]/;

/** Every module reachable from `roots` through static imports (and dynamic ones with `dynamic`), skipping `skip`. */
function closure(ctx: Context, roots: Iterable<string>, skip: Set<string>, dynamic: boolean): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id) || skip.has(id)) continue;
    seen.add(id);
    const info = ctx.getModuleInfo(id);
    if (!info) continue;
    stack.push(...info.importedIds);
    if (dynamic) stack.push(...info.dynamicallyImportedIds);
  }
  return seen;
}

/** Each group's modules, from the module graph: `htmlEntry` is the SPA's index.html, `firstPage` the /auth route. */
export function pageKits(ctx: Context, { routesDir, htmlEntry, firstPage }: { routesDir: string; htmlEntry: string; firstPage: string }) {
  const entry = closure(ctx, [htmlEntry], new Set(), false);
  // A route's own code: its split component module(s), which the route tree (in the entry) loads lazily.
  const routeRoots = new Map<string, string[]>();
  for (const id of closure(ctx, [htmlEntry], new Set(), true)) {
    const route = routeOf(id, routesDir);
    if (route && !entry.has(id)) routeRoots.set(route, [...(routeRoots.get(route) ?? []), id]);
  }
  // Per module, once: how many signed-in pages import it statically, and whether a page other than
  // the first one does.
  const privatePages = new Map<string, number>();
  const usedElsewhere = new Set<string>();
  for (const [route, roots] of routeRoots) {
    for (const id of closure(ctx, roots, entry, false)) {
      if (isPrivatePage(route)) privatePages.set(id, (privatePages.get(id) ?? 0) + 1);
      if (route !== firstPage) usedElsewhere.add(id);
    }
  }
  const isRoute = (id: string) => routeOf(id, routesDir) !== null;

  const first = closure(ctx, routeRoots.get(firstPage) ?? [], entry, false);
  const ui = new Set([...first].filter((id) => !isRoute(id) && usedElsewhere.has(id)));

  const firstPageMayLoad = closure(ctx, routeRoots.get(firstPage) ?? [], entry, true);
  const kit = new Set(
    [...privatePages]
      .filter(([id, pages]) => pages >= 2 && !ui.has(id) && !firstPageMayLoad.has(id) && !isRoute(id) && KIT_KINDS.test(id))
      .map(([id]) => id),
  );
  // A module comes with its static imports (the bundler keeps them together): one that imports
  // something outside the entry and the groups leaves the kit, until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    for (const id of kit) {
      if ((ctx.getModuleInfo(id)?.importedIds ?? []).some((dep) => !entry.has(dep) && !ui.has(dep) && !kit.has(dep))) {
        kit.delete(id);
        changed = true;
      }
    }
  }
  return { ui, kit };
}

/** `name` functions for the two code-splitting groups, computed once from the graph on their first call. */
export function pageKitGroups(options: { routesDir: string; htmlEntry: string; firstPage: string }) {
  let kits: ReturnType<typeof pageKits> | null = null;
  const of = (ctx: Context) => (kits ??= pageKits(ctx, options));
  return {
    ui: (id: string, ctx: Context) => (of(ctx).ui.has(id) ? "ui" : null),
    kit: (id: string, ctx: Context) => (of(ctx).kit.has(id) ? "app-kit" : null),
  };
}
