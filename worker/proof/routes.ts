// The route inventory the proofs walk: every route the app serves, with who may call it, as the
// routes' declarations say (shared/api/routes.ts, and shared/api/v1-routes.ts for the public API,
// whose keyed routes are the "key" class). The authorization matrix checks the table names exactly
// the routes the app serves.
import type { Access } from "@shared/api/declare";
import { ROUTES as DECLARED } from "@shared/api/routes";
import { V1_ROUTES } from "@shared/api/v1-routes";
import { app } from "../app";

export type { Access };

/** Each declared route's access class, by "METHOD /path". */
export const ROUTES: Record<string, Access> = {
  ...Object.fromEntries(Object.entries(DECLARED).map(([key, declared]) => [key, declared.access])),
  ...Object.fromEntries(Object.entries(V1_ROUTES).map(([key, declared]) => [key, declared.scope ? "key" : "public"])),
};

/** The app's own routes (handlers, not middleware), as "METHOD /path". */
export function servedRoutes(): string[] {
  const seen = new Set<string>();
  for (const r of app.routes) {
    if (r.method === "ALL" || r.path.endsWith("*")) continue;
    seen.add(`${r.method} ${r.path}`);
  }
  return [...seen];
}
