// API keys of the public API (docs/api.md, docs/product/api-access.md): their scopes, the cap, and
// the dashboard's answers (Settings → API access). The secret is answered once, on creation.
import { z } from "zod";

/** What a key may do on /v1; every /v1 route names the one scope it needs (shared/api/v1-routes.ts). */
export const API_KEY_SCOPES = ["calls:read", "counts:read", "agents:read", "agents:write", "webhooks:write"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Live (unrevoked) keys an account may hold at once. */
export const API_KEY_LIMIT = 10;

/** Requests one key may make per window on /v1, answered 429 beyond (docs/api.md#rate-limits). */
export const API_KEY_RATE = { limit: 120, windowSeconds: 60 } as const;

/** The fixed start of every key, so secret scanners recognise one: live in production, test elsewhere. */
export const API_KEY_PREFIXES = { production: "vao_live_", other: "vao_test_" } as const;

export const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  /** The key's first characters (its fixed prefix and four more), to tell keys apart. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;

/** GET /api/api-keys: the account's live keys, and whether its plan lets it create and use them. */
export const apiKeyListResponse = z.object({
  keys: z.array(apiKeyView),
  /** Pro (not on trial) or admin: keys may be created and answer on /v1. */
  allowed: z.boolean(),
  limit: z.number(),
});
export type ApiKeyListResponse = z.infer<typeof apiKeyListResponse>;

export const apiKeyCreateBody = z.object({
  name: z.string({ error: "is required" }).trim().min(1, "is required").max(80, "must be at most 80 characters"),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { error: `must be among ${API_KEY_SCOPES.join(", ")}` }), { error: "must be a list of scopes" })
    .min(1, "must name at least one scope")
    .transform((s) => [...new Set(s)]),
});
export type ApiKeyCreateBody = z.infer<typeof apiKeyCreateBody>;

/** POST /api/api-keys: the key, and its secret, shown this once. */
export const apiKeyCreatedResponse = z.object({ key: apiKeyView, secret: z.string() });
export type ApiKeyCreatedResponse = z.infer<typeof apiKeyCreatedResponse>;

export const apiKeyIdParam = z.object({ id: z.string().trim().min(1, "is required").max(64, "is not a key id") });

/** DELETE /api/api-keys/:id */
export const apiKeyRevokedResponse = z.object({ success: z.literal(true) });
export type ApiKeyRevokedResponse = z.infer<typeof apiKeyRevokedResponse>;
