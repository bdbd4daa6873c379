// The request context every route and middleware sees: the bindings, and what the context middleware
// (middleware/context.ts) and the auth middleware (middleware/auth.ts) set on each request.
import type { Database } from "./db/client";
import type { RequestDatabases } from "./db/sessions";
import type { D1Timer } from "./db/timed-d1";
import type { AppConfig, Bindings } from "./env";
import type { Providers } from "./providers";
import type { CurrentUser } from "./services/profiles";
import type { ApiKeyScope } from "@shared/schemas/api-keys";

export type AppEnv = {
  Bindings: Bindings;
  Variables: {
    requestId: string;
    config: AppConfig;
    /** The directory database (the DB binding) as the request's D1 session. */
    db: Database;
    /** The request's D1 sessions, one per binding it touches; accountDb picks an account's. */
    databases: RequestDatabases;
    /** Measures the request's D1 queries for Server-Timing. */
    dbTimer: D1Timer;
    providers: Providers;
    user: CurrentUser | null;
    authError: string | null;
    /** On /v1, the API key the request authenticated with (middleware/api-key.ts); `user` is its account. */
    apiKey?: { id: string; scopes: readonly ApiKeyScope[] };
    /** Set by requireUser, requireAdmin and requireFlag once they found a signed-in user: the route is a signed-in one. */
    signedInRoute?: true;
  };
};
