// The shape of one endpoint's declaration (shared/api/routes.ts): who may call it, what it takes and
// what it answers. The worker serves each route from it (worker/routes/serve.ts), the SPA's answer
// types and the proofs' route inventory are derived from it, and so is the OpenAPI document.
import { z } from "zod";

/**
 * Who may call a route:
 * - public: anyone (the identity service, public account calls, health, config)
 * - user: any signed-in account; `owned` routes answer 404 (or 403) for another account's resource,
 *   `ownedOrAdmin` ones too except to an admin. A route naming one of an account's resources by id in
 *   its path is `owned` (or `ownedOrAdmin`), never `user`: the authorization matrix then probes it
 *   with another account's id, and refuses a `user` route with an id parameter
 * - shopwindows / callApp: signed-in with that flag (403 without it; admins pass)
 * - admin: signed-in admin (403 for everyone else)
 * - secret: a webhook or ingestion key, never a user token (401 without the key)
 * - local: a development tool, off in production
 * - key: the public API (/v1, shared/api/v1-routes.ts): an API key with the route's scope, never a
 *   dashboard session (401 without the key)
 */
export type Access = "public" | "user" | "owned" | "ownedOrAdmin" | "shopwindows" | "callApp" | "admin" | "secret" | "local" | "key";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What a route answers: JSON of a schema, or a stream, a file, a page, a redirect or nothing. */
export type Answer =
  | { kind: "json"; schema: z.ZodType; status: number }
  | { kind: "csv" }
  | { kind: "html" }
  | { kind: "redirect" }
  | { kind: "audio" }
  | { kind: "websocket" }
  | { kind: "empty" };

/** A JSON answer of this schema (and status, 200 unless said). */
export const json = <S extends z.ZodType>(schema: S, status = 200) => ({ kind: "json" as const, schema, status });
export const csv = { kind: "csv" } as const;
export const html = { kind: "html" } as const;
export const redirect = { kind: "redirect" } as const;
export const audio = { kind: "audio" } as const;
export const websocket = { kind: "websocket" } as const;
/** 204, no body. */
export const empty = { kind: "empty" } as const;

/** A JSON answer whose shape is the route's own business (a webhook's acknowledgement, GoTrue's answers): not typed for the SPA. */
export const untyped = json(z.unknown());

export type RouteDeclaration = {
  access: Access;
  summary?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  /** A JSON body. */
  body?: z.ZodType;
  /** A form body (application/x-www-form-urlencoded). */
  form?: z.ZodType;
  /**
   * "handler": the route reads its input itself (the schemas above document it): the live feed's
   * socket refuses bad input with a close code, ingestion caps the issues it lists.
   */
  validatedBy?: "handler";
  answer: Answer;
};

/** "METHOD /path", a path parameter written ":name" as the router reads it. */
export type RouteKey = `${Method} /${string}`;

export const methodOf = (key: string) => key.slice(0, key.indexOf(" ")) as Method;
export const pathOf = (key: string) => key.slice(key.indexOf(" ") + 1);

/** The JSON answer of each declared route whose answer has a declared shape, by "METHOD /path". */
export type AnswersOf<T> = {
  [K in keyof T as T[K] extends { answer: { kind: "json"; schema: infer S extends z.ZodType } } ? (unknown extends z.output<S> ? never : K) : never]: T[K] extends {
    answer: { kind: "json"; schema: infer S extends z.ZodType };
  }
    ? z.output<S>
    : never;
};
