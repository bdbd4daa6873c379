// Serves a declared /v1 route (shared/api/v1-routes.ts): its path and method, key authentication
// and the scope it declares (middleware/api-key.ts), then the validators of its declared input
// (lib/validate.ts: a 400 naming the field, in /v1's error shape). A handler file names only the
// declaration's key and its handler: `new V1DeclaredRoutes().serve("GET /v1/…", handler)`.
import { Hono, type Handler, type MiddlewareHandler } from "hono";
import type { z } from "zod";
import { methodOf, pathOf } from "@shared/api/declare";
import { V1_ROUTES, type V1Route, type V1RouteDeclaration, type V1Routes } from "@shared/api/v1-routes";
import type { AppEnv } from "../../app-env";
import { validate } from "../../lib/validate";
import { authenticateKey, requireScope } from "../../middleware/api-key";

type Output<D, Key extends string, Target extends string> = D extends { [k in Key]: infer S extends z.ZodType }
  ? { [t in Target]: z.output<S> } & { [t in Target]: unknown }
  : object;

/** What a /v1 route's handler reads through `c.req.valid(...)`. */
export type V1InputOf<K extends V1Route> = {
  in: object;
  out: Output<V1Routes[K], "params", "param"> & Output<V1Routes[K], "query", "query"> & Output<V1Routes[K], "body", "json">;
};

type PathOf<K extends string> = K extends `${string} ${infer P}` ? P : never;

/** A sub-app of declared /v1 routes. */
export class V1DeclaredRoutes extends Hono<AppEnv> {
  serve<K extends V1Route>(key: K, handler: Handler<AppEnv, PathOf<K>, V1InputOf<K>>): this {
    const declared = V1_ROUTES[key] as V1RouteDeclaration;
    const chain: MiddlewareHandler<AppEnv>[] = declared.scope ? [authenticateKey, requireScope(declared.scope)] : [];
    if (declared.params) chain.push(validate("param", declared.params) as MiddlewareHandler<AppEnv>);
    if (declared.query) chain.push(validate("query", declared.query) as MiddlewareHandler<AppEnv>);
    if (declared.body) chain.push(validate("json", declared.body) as MiddlewareHandler<AppEnv>);
    this.on(methodOf(key), pathOf(key), ...([...chain, handler] as [MiddlewareHandler<AppEnv>]));
    return this;
  }
}
