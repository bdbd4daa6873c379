// Serves a declared route (shared/api/routes.ts): its path and method, the guard its access class
// names, and the validators of its declared input, so a handler file names only the declaration's
// key and its handler. Validation failures answer as every endpoint's do (lib/validate.ts: a 400
// naming the field); the guard runs first, so a caller without access learns nothing of the input.
import { Hono, type Handler, type MiddlewareHandler } from "hono";
import type { z } from "zod";
import { methodOf, pathOf, type Access } from "@shared/api/declare";
import { ROUTES, type DeclaredRoute, type Routes } from "@shared/api/routes";
import type { AppEnv } from "../app-env";
import { validate } from "../lib/validate";
import { requireAdmin, requireFlag, requireUser } from "../middleware/auth";

type Output<D, Key extends string, Target extends string> = D extends { [k in Key]: infer S extends z.ZodType }
  ? { [t in Target]: z.output<S> } & { [t in Target]: unknown }
  : object;

/** What a declared route's handler reads through `c.req.valid(...)`. */
export type InputOf<K extends DeclaredRoute> = {
  in: object;
  out: Output<Routes[K], "params", "param"> & Output<Routes[K], "query", "query"> & Output<Routes[K], "body", "json"> & Output<Routes[K], "form", "form">;
};

/**
 * The guard of an access class, on the signed-in API (/api, where authentication runs). Public,
 * secret and local routes check their own credential or configuration; the identity service under
 * /auth/v1 checks its own sessions.
 */
export function guardOf(access: Access, path: string): MiddlewareHandler<AppEnv>[] {
  if (!path.startsWith("/api/")) return [];
  switch (access) {
    case "user":
    case "owned":
    case "ownedOrAdmin":
      return [requireUser];
    case "shopwindows":
      return [requireFlag("shopwindowsInfo")];
    case "callApp":
      return [requireFlag("callApp")];
    case "admin":
      return [requireAdmin];
    default:
      return [];
  }
}

/** Middleware a route runs besides its guard and validators: `before` the guard, `after` the validators. */
// A validator of its own (ingestion's) is typed for any environment.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Middleware = MiddlewareHandler<AppEnv> | MiddlewareHandler<any, string, any>;
export type ServeOptions = { before?: Middleware[]; after?: Middleware[] };

type PathOf<K extends string> = K extends `${string} ${infer P}` ? P : never;

/** A sub-app of declared routes: `.serve(key, handler)` or `.serve(key, options, handler)`. */
export class DeclaredRoutes extends Hono<AppEnv> {
  /** Middleware for every request under a path (such as "/auth/v1/*"), served or not. */
  under(path: `/${string}/*`, ...middleware: MiddlewareHandler<AppEnv>[]): this {
    this.use(path, ...middleware);
    return this;
  }

  serve<K extends DeclaredRoute>(key: K, ...args: [Handler<AppEnv, PathOf<K>, InputOf<K>>] | [ServeOptions, Handler<AppEnv, PathOf<K>, InputOf<K>>]): this {
    const [options, handler] = args.length === 1 ? [{}, args[0]] : args;
    const declared = ROUTES[key] as Routes[DeclaredRoute] & { params?: z.ZodType; query?: z.ZodType; body?: z.ZodType; form?: z.ZodType; validatedBy?: "handler" };
    const path = pathOf(key);
    const validators: MiddlewareHandler[] = [];
    if (declared.validatedBy !== "handler") {
      if (declared.params) validators.push(validate("param", declared.params));
      if (declared.query) validators.push(validate("query", declared.query));
      if (declared.form) validators.push(validate("form", declared.form));
      if (declared.body) validators.push(validate("json", declared.body));
    }
    const chain = [...(options.before ?? []), ...guardOf(declared.access, path), ...validators, ...(options.after ?? []), handler] as MiddlewareHandler<AppEnv>[];
    this.on(methodOf(key), path, ...(chain as [MiddlewareHandler<AppEnv>]));
    return this;
  }
}
