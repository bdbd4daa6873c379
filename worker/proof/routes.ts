// The route inventory the proofs walk: every route the app serves, with who may call it. The
// authorization matrix checks the table names exactly the routes the app serves.
import { app } from "../app";

/**
 * Who may call a route:
 * - public: anyone (the identity service, public account calls, health, config)
 * - user: any signed-in account; `owned` routes answer 404 for another account's resource
 * - shopwindows / callApp: signed-in with that flag (403 without it)
 * - admin: signed-in admin (403 for everyone else)
 * - secret: a webhook or ingestion key, never a user token (401 without the key)
 * - local: a development tool, off in production
 */
export type Access = "public" | "user" | "owned" | "shopwindows" | "callApp" | "admin" | "secret" | "local";

export const ROUTES: Record<string, Access> = {
  "GET /api/health": "public",
  "GET /api/config": "public",
  "POST /api/admin/public/user-exists": "public",
  "POST /api/admin/public/update-user-profile": "user",
  "GET /api/local/mailbox": "local",
  "GET /api/profile": "user",
  "POST /api/local/aircall/simulate": "callApp", // and absent in production
  "GET /api/call-logs/count": "user",
  "GET /api/call-connected-count": "user",
  "GET /api/voicemail-count": "user",
  "GET /api/forwarded-count": "user",
  "GET /api/aircall/call-count": "callApp",
  "GET /api/aircall/outbound-answered-count": "callApp",
  "GET /api/aircall/store-transfer-solutions-count": "callApp",
  "GET /api/aircall/options": "callApp",
  "GET /api/appointment-count": "shopwindows",
  "GET /api/appointment-status-count": "shopwindows",
  "GET /api/appointment-category-count": "shopwindows",
  "GET /api/appointment-options": "shopwindows",
  "GET /api/lead-counts/summary": "shopwindows",
  "GET /api/call-logs": "user",
  "GET /api/vapi/call-logs": "user",
  "GET /api/vapi/call/:call_id": "owned",
  "GET /api/admin/config/phone-limit": "user", // the phone-numbers screen shows every account its limit
  "PUT /api/admin/config/phone-limit": "admin",
  "GET /api/admin/stats/v2": "admin",
  "GET /api/admin/stats": "admin",
  "GET /api/admin/users/v2": "admin",
  "GET /api/admin/users": "admin",
  "PUT /api/admin/users/:id/flags": "admin",
  "GET /api/admin/vapi/available-numbers": "admin",
  "POST /api/admin/assign-phone-number": "admin",
  "POST /api/admin/cleanup-user": "admin",
  "GET /api/admin/audit-log": "admin",
  "GET /api/twilio/health": "user",
  "GET /api/twilio/my-numbers": "user",
  "GET /api/twilio/available-numbers": "user",
  "POST /api/twilio/buy": "user",
  "POST /api/twilio/assign-number": "user",
  "POST /api/twilio/unassign-number": "user",
  "GET /api/agents": "user",
  "POST /api/agents": "user",
  "GET /api/agents/:id": "owned",
  "PUT /api/agents/:id": "owned",
  "DELETE /api/agents/:id": "owned",
  "PATCH /api/agents/:id/deactivate": "owned",
  "POST /api/analytics/won": "shopwindows",
  "GET /api/export-report": "user",
  "GET /api/daily-report": "shopwindows",
  "GET /api/daily-reports": "shopwindows",
  "GET /api/daily-reports/:id": "shopwindows",
  "POST /api/ingest/appointments": "secret",
  "POST /api/ingest/leads": "secret",
  "POST /api/generate-prompt": "user",
  "POST /api/create-vapi-assistant": "user",
  "POST /api/create-default-agent": "user",
  "GET /api/usage-stats": "user",
  "POST /api/trigger-call": "user",
  "GET /api/vapi/voices": "user",
  "DELETE /api/vapi/assistant/:assistantId": "owned",
  "GET /auth/v1/settings": "public",
  "GET /auth/v1/.well-known/jwks.json": "public",
  "POST /auth/v1/signup": "public",
  "POST /auth/v1/token": "public",
  "GET /auth/v1/user": "user",
  "PUT /auth/v1/user": "user",
  "POST /auth/v1/logout": "user",
  "POST /auth/v1/resend": "public",
  "POST /auth/v1/recover": "public",
  "GET /auth/v1/verify": "public",
  "POST /api/webhooks/vapi": "secret",
  "POST /api/webhooks/aircall": "secret",
  "GET /api/vapi/sim-recordings/:file": "local",
};

/** The app's own routes (handlers, not middleware), as "METHOD /path". */
export function servedRoutes(): string[] {
  const seen = new Set<string>();
  for (const r of app.routes) {
    if (r.method === "ALL" || r.path.endsWith("*")) continue;
    seen.add(`${r.method} ${r.path}`);
  }
  return [...seen];
}
