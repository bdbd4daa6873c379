// The routes' declarations (shared/api/routes.ts) against what the app serves: every served route is
// declared and in the OpenAPI document, and no two declarations could both answer one request, so
// the order the sub-apps are mounted in (worker/app.ts) decides nothing.
import { describe, expect, it } from "vitest";
import { methodOf, pathOf } from "@shared/api/declare";
import { ROUTES } from "@shared/api/routes";
import { V1_ROUTES } from "@shared/api/v1-routes";
import { servedRoutes } from "../proof/routes";
import { AIRCALL_WEBHOOK_PATH, LOCAL_CHECKOUT_PATH, SIM_RECORDING_PATH, STRIPE_WEBHOOK_PATH } from "../providers";
import { VOICE_WEBHOOK_PATH } from "../providers/voice/port";
import { call } from "../test/helpers";

/** Whether one request could match both paths: each segment alike, or either a parameter. */
export function overlap(a: string, b: string) {
  const x = a.split("/");
  const y = b.split("/");
  return x.length === y.length && x.every((s, i) => s === y[i] || s.startsWith(":") || y[i].startsWith(":"));
}

describe("route declarations", () => {
  it("name exactly the routes the app serves (the public API's in their own table)", () => {
    const served = servedRoutes();
    const declared = { ...ROUTES, ...V1_ROUTES };
    expect(served.filter((r) => !(r in declared)), "served, not declared").toEqual([]);
    expect(Object.keys(declared).filter((r) => !served.includes(r)), "declared, not served").toEqual([]);
    expect(Object.keys(V1_ROUTES).every((r) => pathOf(r).startsWith("/v1/"))).toBe(true);
    expect(Object.keys(ROUTES).some((r) => pathOf(r).startsWith("/v1/"))).toBe(false);
  });

  it("declare the paths the providers give out (webhooks, the checkout page, recordings)", () => {
    const paths = Object.keys(ROUTES).map(pathOf);
    for (const path of [VOICE_WEBHOOK_PATH, AIRCALL_WEBHOOK_PATH, STRIPE_WEBHOOK_PATH]) expect(paths, path).toContain(path);
    for (const prefix of [LOCAL_CHECKOUT_PATH, SIM_RECORDING_PATH]) expect(paths.some((p) => p.startsWith(`${prefix}/:`)), prefix).toBe(true);
  });

  it("never overlap, so no mount order decides which answers", () => {
    const keys = [...Object.keys(ROUTES), ...Object.keys(V1_ROUTES)];
    const clashes = keys.flatMap((a, i) => keys.slice(i + 1).filter((b) => methodOf(a) === methodOf(b) && overlap(pathOf(a), pathOf(b))).map((b) => `${a} ~ ${b}`));
    expect(clashes).toEqual([]);
    // The check itself: a parameter overlaps a static segment.
    expect(overlap("/api/call-logs/count", "/api/call-logs/:id")).toBe(true);
    expect(overlap("/api/call-logs", "/api/call-logs/:id")).toBe(false);
  });

  it("are served as an OpenAPI 3.1 document naming every served route with its access class", async () => {
    const res = await call("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    const documented = new Map<string, string>();
    for (const [path, item] of Object.entries(res.body.paths as Record<string, Record<string, { "x-access": string }>>)) {
      for (const [method, operation] of Object.entries(item)) documented.set(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`, operation["x-access"]);
    }
    const missing = servedRoutes().filter((r) => !pathOf(r).startsWith("/v1/") && !documented.has(r));
    expect(missing).toEqual([]);
    expect(documented.get("PUT /api/admin/users/:id/flags")).toBe("admin");
    expect(documented.get("GET /api/agents/:id")).toBe("owned");
  });
});
