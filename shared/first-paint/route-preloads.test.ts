import { describe, expect, it } from "vitest";
import { layoutsOf, moduleKey, routePathOf, routePreloads, type BuiltChunk } from "./route-preloads";

describe("routePathOf", () => {
  it("names the page of a route file as the router's file naming does", () => {
    expect(routePathOf("_app/call-logs.tsx")).toBe("/call-logs");
    expect(routePathOf("auth.tsx")).toBe("/auth");
    expect(routePathOf("payments.cancel.tsx")).toBe("/payments/cancel");
    expect(routePathOf("index.tsx")).toBe("/");
    expect(routePathOf("_app.tsx")).toBeNull();
    expect(routePathOf("__root.tsx")).toBeNull();
  });

  it("finds the layouts a page renders in", () => {
    expect(layoutsOf("_app/call-logs.tsx")).toEqual(["_app.tsx"]);
    expect(layoutsOf("auth.tsx")).toEqual([]);
  });
});

describe("routePreloads", () => {
  const dir = "/repo/web/src/routes";
  const chunk = (fileName: string, imports: string[] = [], facade: string | null = null, isEntry = false): BuiltChunk => ({
    fileName,
    imports,
    isEntry,
    facadeModuleId: facade,
  });
  const chunks = [
    chunk("assets/index-1.js", ["assets/react-1.js"], "/repo/web/src/main.tsx", true),
    chunk("assets/react-1.js"),
    chunk("assets/_app-1.js", ["assets/react-1.js", "assets/dialog-1.js"], `${dir}/_app.tsx?tsr-split=component`),
    chunk("assets/dialog-1.js", ["assets/focus-1.js"]),
    chunk("assets/focus-1.js"),
    chunk("assets/call-logs-1.js", ["assets/table-1.js", "assets/dialog-1.js"], `${dir}/_app/call-logs.tsx?tsr-split=component`),
    chunk("assets/table-1.js"),
    chunk("assets/auth-1.js", ["assets/shell-1.js"], `${dir}/auth.tsx?tsr-split=component`),
    chunk("assets/shell-1.js", ["assets/react-1.js"]),
    // A lazy part of a page (loaded on demand) and a chunk outside the routes are not route chunks.
    chunk("assets/chart-1.js", [], "/repo/web/src/features/dashboard/chart.tsx"),
    chunk("assets/identity-client-1.js", ["assets/tslib-1.js", "assets/react-1.js"], "/repo/web/src/lib/identity-client.ts"),
    chunk("assets/tslib-1.js"),
  ];

  it("lists a page's layout and own chunks with everything they import, without the entry's", () => {
    const table = routePreloads(chunks, dir);
    expect(table["/call-logs"]).toEqual([
      "/assets/_app-1.js",
      "/assets/dialog-1.js",
      "/assets/focus-1.js",
      "/assets/call-logs-1.js",
      "/assets/table-1.js",
    ]);
    expect(table["/auth"]).toEqual(["/assets/auth-1.js", "/assets/shell-1.js"]);
    expect(Object.keys(table).sort()).toEqual(["/auth", "/call-logs"]);
  });

  it("lists the identity library's chunk under its module key when the project root is given", () => {
    expect(routePreloads(chunks, dir, "/", "/repo")[moduleKey("identity-client")]).toEqual(["/assets/identity-client-1.js", "/assets/tslib-1.js"]);
  });
});
