// GET /api/openapi.json: the OpenAPI 3.1 document of the API, generated from the routes' declarations
// (shared/api/routes.ts) by @hono/zod-openapi: each operation carries its access class as
// `x-access`. Built once per isolate.
import { createRoute, OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { z } from "zod";
import { methodOf, pathOf, type Answer, type RouteDeclaration } from "@shared/api/declare";
import { ROUTES } from "@shared/api/routes";
import { DeclaredRoutes } from "./serve";

const MEDIA: Record<Exclude<Answer["kind"], "json">, { status: number; description: string; type?: string }> = {
  csv: { status: 200, description: "A CSV file", type: "text/csv" },
  html: { status: 200, description: "An HTML page", type: "text/html" },
  audio: { status: 200, description: "A WAV recording", type: "audio/wav" },
  redirect: { status: 302, description: "A redirect" },
  websocket: { status: 101, description: "A WebSocket upgrade" },
  empty: { status: 204, description: "No content" },
};

/** A declaration as a route of @hono/zod-openapi. */
export function openApiRoute(key: string, declared: RouteDeclaration): RouteConfig {
  const answer = declared.answer;
  const responses: RouteConfig["responses"] =
    answer.kind === "json"
      ? { [answer.status]: { description: "OK", content: { "application/json": { schema: answer.schema as z.ZodType } } } }
      : { [MEDIA[answer.kind].status]: { description: MEDIA[answer.kind].description, ...(MEDIA[answer.kind].type ? { content: { [MEDIA[answer.kind].type!]: { schema: {} } } } : {}) } };
  const body = declared.body ?? declared.form;
  return createRoute({
    method: methodOf(key).toLowerCase() as RouteConfig["method"],
    path: pathOf(key).replace(/:(\w+)/g, "{$1}"),
    ...(declared.summary ? { summary: declared.summary } : {}),
    "x-access": declared.access,
    request: {
      ...(declared.params ? { params: declared.params as never } : {}),
      ...(declared.query ? { query: declared.query as never } : {}),
      ...(body ? { body: { required: true, content: { [declared.body ? "application/json" : "application/x-www-form-urlencoded"]: { schema: body as z.ZodType } } } } : {}),
    },
    responses,
  });
}

let document: unknown;

/** The document of every declared route. */
export function openApiDocument() {
  if (!document) {
    const registry = new OpenAPIHono();
    for (const [key, declared] of Object.entries(ROUTES)) registry.openAPIRegistry.registerPath(openApiRoute(key, declared));
    document = registry.getOpenAPI31Document({
      openapi: "3.1.0",
      info: { title: "Voice agent operations dashboard API", version: "1" },
    });
  }
  return document;
}

export const openApiRoutes = new DeclaredRoutes().serve("GET /api/openapi.json", (c) => c.json(openApiDocument()));
