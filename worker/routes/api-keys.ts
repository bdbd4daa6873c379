// Settings → API access (docs/product/api-access.md): the signed-in account's API keys, listed,
// created (the secret answered once) and revoked; both changes are in the audit log.
import type { ApiKeyCreatedResponse, ApiKeyListResponse, ApiKeyRevokedResponse } from "@shared/schemas/api-keys";
import { adminActor } from "../context/request-deps";
import { currentUser } from "../middleware/auth";
import { createApiKey, listApiKeys, revokeApiKey } from "../services/api-keys";
import { DeclaredRoutes } from "./serve";

export const apiKeyRoutes = new DeclaredRoutes()
  .serve("GET /api/api-keys", async (c) => c.json((await listApiKeys(c.var.db, currentUser(c))) satisfies ApiKeyListResponse))
  .serve("POST /api/api-keys", async (c) => {
    const actor = { ...adminActor(c), isAdmin: currentUser(c).isAdmin };
    const created = await createApiKey(c.var.db, actor, c.req.valid("json"), c.var.config.APP_ENV);
    return c.json(created satisfies ApiKeyCreatedResponse, 201);
  })
  .serve("DELETE /api/api-keys/:id", async (c) => {
    await revokeApiKey(c.var.db, adminActor(c), c.req.valid("param").id);
    return c.json({ success: true } satisfies ApiKeyRevokedResponse);
  });
