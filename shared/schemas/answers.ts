// The answer of every endpoint the SPA reads, by "<METHOD> <path>" (":name" stands for a path
// parameter), derived from the routes' declarations (shared/api/routes.ts): the worker answers
// through the same declaration, and the SPA's request helper (web/src/lib/api.ts) takes its answer
// type from this map by method and URL, so a field renamed on either side fails the type check where
// the other side writes or reads it (decision 044).
import type { AnswersOf } from "../api/declare";
import type { Routes } from "../api/routes";

/** Each /api route with a JSON answer of declared shape. */
export type ApiAnswers = { [K in keyof AnswersOf<Routes> as K extends `${string} /api/${string}` ? K : never]: AnswersOf<Routes>[K] };

export type ApiEndpoint = keyof ApiAnswers;
export type ApiMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The paths of the map answered for a method. */
export type ApiPath<M extends ApiMethod> = { [E in ApiEndpoint]: E extends `${M} ${infer P}` ? P : never }[ApiEndpoint];

/** The URLs a path pattern stands for: each ":name" any text, and any query string after the path. */
type Filled<P extends string> = P extends `${infer Head}:${string}/${infer Tail}`
  ? `${Head}${string}/${Filled<Tail>}`
  : P extends `${infer Head}:${string}`
    ? `${Head}${string}`
    : P;
export type UrlOfPath<P extends string> = Filled<P> | `${Filled<P>}?${string}`;

/** Every URL the map answers for a method. */
export type ApiUrl<M extends ApiMethod> = UrlOfPath<ApiPath<M>>;

type AnswersMatching<M extends ApiMethod, U extends string, Static extends boolean> = {
  [P in ApiPath<M>]: (P extends `${string}:${string}` ? false : true) extends Static
    ? U extends UrlOfPath<P>
      ? ApiAnswers[`${M} ${P}` & ApiEndpoint]
      : never
    : never;
}[ApiPath<M>];

/**
 * The answer at a URL. A path without parameters wins over a pattern that also matches
 * ("/api/call-logs/count" is not read as some "/api/call-logs/:id").
 */
export type ApiAnswer<M extends ApiMethod, U extends string> = [AnswersMatching<M, U, true>] extends [never]
  ? AnswersMatching<M, U, false>
  : AnswersMatching<M, U, true>;
