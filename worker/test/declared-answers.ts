// Every JSON answer a test receives from a declared route is checked against the answer schema
// declared for it (shared/api/routes.ts, and shared/api/v1-routes.ts for the public API): the
// declarations the SPA and API clients compile against must say what the worker really answers.
// Every JSON failure of the public API is checked against its one error shape too.
import { methodOf, pathOf, type Answer } from "@shared/api/declare";
import { ROUTES } from "@shared/api/routes";
import { V1_ROUTES } from "@shared/api/v1-routes";
import { v1ErrorBody } from "@shared/schemas/v1";

const PATTERNS = Object.entries({ ...ROUTES, ...V1_ROUTES } as Record<string, { answer: Answer }>).map(([key, declared]) => ({
  key,
  method: methodOf(key),
  // A parameter is one segment; a static path wins over a pattern (none overlap: declarations.test.ts).
  pattern: new RegExp(`^${pathOf(key).replace(/[.]/g, "\\.").replace(/:\w+/g, "[^/]+")}$`),
  declared,
}));

/** The declaration answering this method and path, if any. */
export function declaredRouteOf(method: string, path: string) {
  const bare = path.split("?")[0];
  return PATTERNS.find((p) => p.method === method.toUpperCase() && p.pattern.test(bare));
}

const problemOf = (what: string, parsed: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  parsed.success
    ? null
    : `${what}: ${parsed
        .error!.issues.slice(0, 5)
        .map((i) => `${i.path.map(String).join(".") || "(answer)"}: ${i.message}`)
        .join("; ")}`;

/**
 * Why this answer is not what its route declares (null when it is, or when the route declares no
 * shape for it): a successful JSON answer must parse with the declared schema, and a failed one of
 * the public API with its error shape.
 */
export function answerProblem(method: string, path: string, status: number, body: unknown): string | null {
  const bare = path.split("?")[0];
  if (status >= 400 && (bare === "/v1" || bare.startsWith("/v1/"))) {
    return problemOf(`${method} ${bare} answered ${status} with a body the /v1 error shape refuses`, v1ErrorBody.safeParse(body));
  }
  const route = declaredRouteOf(method, path);
  if (!route || status < 200 || status >= 300) return null;
  const answer = route.declared.answer;
  if (answer.kind !== "json") return null;
  return problemOf(`${route.key} answered ${status} with a body its declared schema refuses`, answer.schema.safeParse(body));
}
