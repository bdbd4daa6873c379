import { describe, expect, it } from "vitest";
import { pageKits, routeOf } from "./page-kits";

const R = "/repo/web/src/routes";
const html = "/repo/web/index.html";
const nm = (p: string) => `/repo/node_modules/${p}`;
const src = (p: string) => `/repo/web/src/${p}`;
const split = (route: string) => `${R}/${route}.tsx?tsr-split=component`;

/** A module graph: id → [static imports, dynamic imports]. */
function graph(edges: Record<string, [string[], string[]?]>) {
  return {
    getModuleInfo: (id: string) => (id in edges ? { importedIds: edges[id][0], dynamicallyImportedIds: edges[id][1] ?? [] } : null),
  };
}

// The entry (index.html → main → the route tree) loads every route's split component lazily.
const routes = ["auth", "buy", "_app", "_app/agent-settings", "_app/dashboard", "_app/call-logs"];
const base: Record<string, [string[], string[]?]> = {
  [html]: [[src("main.tsx")]],
  [src("main.tsx")]: [[src("route-tree.gen.ts"), nm("react/index.js")]],
  [src("route-tree.gen.ts")]: [routes.map((r) => `${R}/${r}.tsx`)],
  ...Object.fromEntries(routes.map((r) => [`${R}/${r}.tsx`, [[], [split(r)]]])),
  [nm("react/index.js")]: [[]],
};

function kits(edges: Record<string, [string[], string[]?]>) {
  return pageKits(graph({ ...base, ...edges }), { routesDir: R, htmlEntry: html, firstPage: "auth" });
}

describe("routeOf", () => {
  it("names a route file and its split component, and nothing else", () => {
    expect(routeOf(split("_app/agent-settings"), R)).toBe("_app/agent-settings");
    expect(routeOf(`${R}/auth.tsx`, R)).toBe("auth");
    expect(routeOf(src("components/ui/card.tsx"), R)).toBeNull();
    expect(routeOf(`${R}/auth.test.tsx`, R)).toBeNull();
  });
});

describe("pageKits", () => {
  it("puts what /auth shares with other pages in ui, and what signed-in pages share in the kit", () => {
    const { ui, kit } = kits({
      [split("auth")]: [[src("ui/input.tsx"), src("auth-page.tsx")]],
      [split("_app/agent-settings")]: [[src("ui/input.tsx"), src("page-header.tsx"), src("agents.tsx")]],
      [split("_app/dashboard")]: [[src("page-header.tsx"), nm("lucide-react/icons/clock.mjs")]],
      [split("_app/call-logs")]: [[nm("lucide-react/icons/clock.mjs")]],
      [src("ui/input.tsx")]: [[nm("react/index.js")]],
      [src("page-header.tsx")]: [[src("ui/input.tsx")]],
      [src("auth-page.tsx")]: [[]],
      [src("agents.tsx")]: [[]],
      [nm("lucide-react/icons/clock.mjs")]: [[]],
    });
    expect([...ui]).toEqual([src("ui/input.tsx")]);
    // One page's own module (agents.tsx) and /auth's own (auth-page.tsx) stay with their page.
    expect([...kit].sort()).toEqual([nm("lucide-react/icons/clock.mjs"), src("page-header.tsx")]);
  });

  it("keeps out of the kit what /auth may load lazily, and a library some pages need", () => {
    const { kit } = kits({
      [split("auth")]: [[], [src("auth-form.tsx")]],
      [src("auth-form.tsx")]: [[src("format.ts")]],
      [split("_app/agent-settings")]: [[src("format.ts"), src("ui/dialog.tsx"), src("staged.ts")]],
      [split("_app/dashboard")]: [[src("format.ts"), src("ui/dialog.tsx"), src("staged.ts")]],
      [split("_app/call-logs")]: [[]],
      [src("format.ts")]: [[]],
      [src("staged.ts")]: [[nm("react/index.js")]],
      // The dialog brings Radix, which is not in the entry: with it, every signed-in page would load Radix.
      [src("ui/dialog.tsx")]: [[nm("@radix-ui/react-dialog/index.mjs")]],
      [nm("@radix-ui/react-dialog/index.mjs")]: [[]],
    });
    expect([...kit]).toEqual([src("staged.ts")]);
  });

  it("drops a module whose import left the kit, until nothing changes", () => {
    const { kit } = kits({
      [split("_app/agent-settings")]: [[src("a.ts")]],
      [split("_app/dashboard")]: [[src("a.ts")]],
      [src("a.ts")]: [[src("b.ts")]],
      [src("b.ts")]: [[nm("uplot/index.js")]],
      [nm("uplot/index.js")]: [[]],
    });
    expect(kit.size).toBe(0);
  });

  it("counts the layout as a signed-in page", () => {
    const { kit } = kits({
      [split("_app")]: [[src("ny-time.ts")]],
      [split("_app/call-logs")]: [[src("ny-time.ts")]],
      [src("ny-time.ts")]: [[]],
    });
    expect([...kit]).toEqual([src("ny-time.ts")]);
  });
});
