// GET /v1/openapi.json: the public API's OpenAPI 3.1 document, generated from its declarations
// (shared/api/v1-routes.ts) by @hono/zod-openapi, each operation with its scope (`x-scope` and its
// security requirement) and the error answers it may give. GET /v1/docs: the interactive reference
// (@scalar/hono-api-reference) over that document, under a Content-Security-Policy of its own that
// allows the reference's script and its inline scripts, and nothing else. The reference's script comes
// from a CDN; where the browser cannot reach it (a local run offline), the page says so and links the
// document instead of staying blank.
import { createRoute, OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import type { z } from "zod";
import { methodOf, pathOf } from "@shared/api/declare";
import { V1_ROUTES, type V1RouteDeclaration } from "@shared/api/v1-routes";
import { API_KEY_SCOPES } from "@shared/schemas/api-keys";
import { v1ErrorBody } from "@shared/schemas/v1";
import { V1DeclaredRoutes } from "./serve";

/** Where the reference page loads its script from (a pinned release). */
export const SCALAR_SCRIPT = "https://cdn.jsdelivr.net/npm/@scalar/api-reference@1.40.0";

const error = (description: string) => ({ description, content: { "application/json": { schema: v1ErrorBody } } });

/** A /v1 declaration as a route of @hono/zod-openapi. */
function v1OpenApiRoute(key: string, declared: V1RouteDeclaration): RouteConfig {
  const answer = declared.answer;
  const ok: RouteConfig["responses"] =
    answer.kind === "json"
      ? { [answer.status]: { description: "OK", content: { "application/json": { schema: answer.schema as z.ZodType } } } }
      : { 200: { description: "An HTML page", content: { "text/html": { schema: {} } } } };
  const errors: RouteConfig["responses"] = declared.scope
    ? {
        400: error("validation_error: the field named is wrong"),
        401: error("unauthorized: no key, an unknown key or a revoked key"),
        402: error("subscription_required: the account's plan does not include API access"),
        403: error("insufficient_scope: the key lacks the route's scope"),
        404: error("not_found"),
        429: error("rate_limited: over the key's requests a minute; see Retry-After"),
      }
    : {};
  return createRoute({
    method: methodOf(key).toLowerCase() as RouteConfig["method"],
    path: pathOf(key).replace(/:(\w+)/g, "{$1}"),
    summary: declared.summary,
    ...(declared.scope ? { "x-scope": declared.scope, security: [{ apiKey: [declared.scope] }] } : { security: [] }),
    request: {
      ...(declared.params ? { params: declared.params as never } : {}),
      ...(declared.query ? { query: declared.query as never } : {}),
      ...(declared.body ? { body: { required: true, content: { "application/json": { schema: declared.body as z.ZodType } } } } : {}),
    },
    responses: { ...ok, ...errors },
  });
}

let document: unknown;

/** The document of every /v1 route. */
export function v1OpenApiDocument() {
  if (!document) {
    const registry = new OpenAPIHono();
    registry.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
      type: "http",
      scheme: "bearer",
      description: `An API key from Settings → API access (vao_live_… in production, vao_test_… elsewhere). Scopes: ${API_KEY_SCOPES.join(", ")}.`,
    });
    for (const [key, declared] of Object.entries(V1_ROUTES)) registry.openAPIRegistry.registerPath(v1OpenApiRoute(key, declared));
    document = registry.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: "Voice agent operations public API",
        version: "1",
        description:
          "Your account's calls, call counts and agents. Authenticate with `Authorization: Bearer <API key>`. " +
          "Errors answer `{ error: { code, message, field?, request_id } }`; lists answer `{ data, next_cursor }`.",
      },
      servers: [{ url: "/" }],
    });
  }
  return document;
}

/** Shown when the reference's script did not load: what happened and where the document is. */
export const OFFLINE_NOTE =
  `<p id="reference-offline" hidden style="font:16px/1.5 system-ui,sans-serif;margin:2rem;max-width:40rem">` +
  `The interactive reference could not load its viewer from ${new URL(SCALAR_SCRIPT).host}. ` +
  `The API's OpenAPI document is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</p>` +
  `<script type="text/javascript">addEventListener("load", function () { if (!window.Scalar) document.getElementById("reference-offline").hidden = false; });</script>`;

const reference = Scalar({ url: "/v1/openapi.json", pageTitle: "API reference", cdn: SCALAR_SCRIPT, withDefaultFonts: false, hideClientButton: true });

/** The SHA-256 of an inline script, as a CSP source. */
async function scriptHash(text: string) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let bin = "";
  for (const b of digest) bin += String.fromCharCode(b);
  return `'sha256-${btoa(bin)}'`;
}

export const v1DocsRoutes = new V1DeclaredRoutes()
  .serve("GET /v1/openapi.json", (c) => c.json(v1OpenApiDocument()))
  .serve("GET /v1/docs", async (c) => {
    const page = (await reference(c as never, async () => undefined)) as Response;
    const html = (await page.text()).replace("</body>", `${OFFLINE_NOTE}</body>`);
    const inline = [...html.matchAll(/<script type="text\/javascript">([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    const hashes = await Promise.all(inline.map(scriptHash));
    // This page only: the reference's script and its start-up script; everything else as the app's policy.
    const policy = [
      "default-src 'self'",
      `script-src 'self' ${new URL(SCALAR_SCRIPT).origin} ${hashes.join(" ")}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join("; ");
    return c.html(html, 200, { "content-security-policy": policy });
  });
