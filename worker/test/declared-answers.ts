// Every JSON answer a test receives from a declared route is checked against the answer schema
// declared for it (shared/api/routes.ts): the declarations the SPA compiles against must say what
// the worker really answers.
import { methodOf, pathOf, type RouteDeclaration } from "@shared/api/declare";
import { ROUTES } from "@shared/api/routes";

const PATTERNS = Object.entries(ROUTES as Record<string, RouteDeclaration>).map(([key, declared]) => ({
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

/**
 * Why this answer is not what its route declares (null when it is, or when the route declares no
 * shape for it): a successful JSON answer must parse with the declared schema.
 */
export function answerProblem(method: string, path: string, status: number, body: unknown): string | null {
  const route = declaredRouteOf(method, path);
  if (!route || status < 200 || status >= 300) return null;
  const answer = route.declared.answer;
  if (answer.kind !== "json") return null;
  const parsed = answer.schema.safeParse(body);
  if (parsed.success) return null;
  const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(answer)"}: ${i.message}`);
  return `${route.key} answered ${status} with a body its declared schema refuses: ${issues.join("; ")}`;
}
