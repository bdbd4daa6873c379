// Who is calling /v1 (docs/api.md#authentication): `Authorization: Bearer <API key>`, never a
// dashboard session (a session token is not a key, and /v1 never reads it as one; /api never reads a
// key as a session). One D1 batch finds the key, its account, the account's plan and the key's rate
// count (services/api-keys.ts, findKey); the key's last use is written after the answer. Refusals:
// 401 no key, unknown or revoked key; 429 over the key's rate; 402 an account without API access.
// Every answer to a known key carries the RateLimit-* headers of the IETF draft.
import { createMiddleware } from "hono/factory";
import type { ApiKeyScope } from "@shared/schemas/api-keys";
import type { AppEnv } from "../app-env";
import { placeAccount, shardBindings } from "../db/shards";
import { ApiError, unauthorized } from "../lib/errors";
import { log } from "../lib/log";
import { API_KEY_RATE_LIMIT, findKey, keyPrefixFor, touchStatement } from "../services/api-keys";
import { apiAccessRequired, hasApiAccess } from "../services/plans";
import { bearerToken } from "./auth";
import { executionContext } from "./context";

export const authenticateKey = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header("authorization"));
  if (!token) throw unauthorized("Send an API key as Authorization: Bearer <key>");
  if (!token.startsWith(keyPrefixFor(c.var.config.APP_ENV))) throw unauthorized("This is not an API key of this deployment");
  const nowMs = Date.now();
  const key = await findKey(c.var.db, token, nowMs);
  if (!key) throw unauthorized("Invalid API key");
  if (key.revoked) throw unauthorized("This API key has been revoked");
  c.header("RateLimit-Limit", String(API_KEY_RATE_LIMIT.limit));
  c.header("RateLimit-Remaining", String(Math.max(0, API_KEY_RATE_LIMIT.limit - key.rate.count)));
  c.header("RateLimit-Reset", String(key.rate.resetSeconds));
  c.header("RateLimit-Policy", `${API_KEY_RATE_LIMIT.limit};w=${API_KEY_RATE_LIMIT.windowSeconds}`);
  if (!key.rate.allowed) {
    c.header("Retry-After", String(key.rate.resetSeconds));
    throw new ApiError(429, `This key made more than ${API_KEY_RATE_LIMIT.limit} requests this minute. Retry after ${key.rate.resetSeconds} s.`, "rate_limited");
  }
  if (!hasApiAccess(key.plan, key.user.isAdmin)) throw apiAccessRequired();
  c.set("user", { ...key.user, shard: key.user.shard ?? (await placeAccount(c.var.db, shardBindings(c.env), key.user.id)) });
  // Its answers carry Server-Timing as a signed-in route's do (server-timing.ts).
  c.set("signedInRoute", true);
  c.set("apiKey", { id: key.id, scopes: key.scopes });
  // The key's last use, after the answer and off its path: no second round trip before it.
  const touch = touchStatement(c.var.db, key, nowMs);
  if (touch) {
    const written = touch.then(
      () => undefined,
      (e: unknown) => log(c, "warn", "an API key's last use was not recorded", { error: e instanceof Error ? e.message : String(e) }),
    );
    executionContext(c)?.waitUntil(written);
  }
  await next();
});

/** Refuses a key without `scope` (403 insufficient_scope, naming it); runs after authenticateKey. */
export const requireScope = (scope: ApiKeyScope) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (!c.var.apiKey?.scopes.includes(scope)) {
      throw new ApiError(403, `This API key lacks the scope ${scope}`, "insufficient_scope", undefined, { requiredScope: scope });
    }
    await next();
  });
