// Every sub-app of the public API (/v1; docs/api.md), mounted by app.ts. A new /v1 noun adds its
// file here (its routes declared in shared/api/v1-routes.ts and served with V1DeclaredRoutes.serve).
import { v1AgentRoutes } from "./agents";
import { v1CallRoutes } from "./calls";
import { v1CountRoutes } from "./counts";
import { v1DocsRoutes } from "./docs";

export const v1Routes = [v1DocsRoutes, v1CallRoutes, v1CountRoutes, v1AgentRoutes];
