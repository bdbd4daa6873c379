// The route inventory the proofs walk: every route the app serves, with who may call it. The
// authorization matrix checks the table names exactly the routes the app serves.
import { app } from "../app";

/**
 * Who may call a route:
 * - public: anyone (the identity service, public account calls, health, config)
 * - user: any signed-in account; `owned` routes answer 404 (or 403) for another account's resource,
 *   `ownedOrAdmin` ones too except to an admin
 * - shopwindows / callApp: signed-in with that flag (403 without it)
 * - admin: signed-in admin (403 for everyone else)
 * - secret: a webhook or ingestion key, never a user token (401 without the key)
 * - local: a development tool, off in production
 */
export type Access = "public" | "user" | "owned" | "ownedOrAdmin" | "shopwindows" | "callApp" | "admin" | "secret" | "local";

export const ROUTES: Record<string, Access> = {
  "GET /api/health": "public", // monitoring
  "GET /api/config": "public", // the SPA needs it before anyone signs in
  "GET /api/live": "public", // the live feed's socket: its ticket (from POST /api/live/ticket) is the credential
  "POST /api/live/ticket": "user",
  "POST /api/batch": "user", // several reads in one request: each is authorized as if sent alone (decision 064)
  "POST /api/admin/public/user-exists": "public", // plan panel, rate limited
  "POST /api/admin/public/email-confirmed": "public", // "I've Confirmed": the account id its sign-up answered is the proof, rate limited
  "POST /api/admin/public/update-user-password": "public", // a buyer's first password: proof is the paid session, rate limited
  "POST /api/admin/public/resend-activation": "public", // a buyer without a password yet, rate limited, answers alike
  "GET /api/stripe/config": "public", // publishable billing configuration
  "GET /api/stripe/products": "public", // the plans a visitor picks from
  "POST /api/stripe/create-checkout-session": "public", // a visitor's checkout, rate limited
  "POST /api/stripe/start-trial": "public", // a visitor's trial, rate limited
  "GET /api/stripe/checkout-session/:sessionId": "public", // the success page before any account exists; the id is the secret
  "GET /api/stripe/customer-subscriptions/:id": "ownedOrAdmin",
  "POST /api/stripe/cancel-subscription": "user", // the subscription named in the body must be the caller's (billing tests)
  "POST /api/stripe/portal-session": "user",
  "POST /api/stripe/create-customer": "admin",
  "POST /api/stripe/create-subscription": "admin",
  "POST /api/leads/leads": "public", // the checkout's lead form, rate limited
  "GET /api/leads/customers/by-email": "user", // an account's own record; another's only for an admin (billing tests)
  "POST /api/leads/customers": "user",
  "POST /api/webhooks/stripe": "secret",
  "GET /_local/checkout/c/pay/:id": "local", // the local billing adapter's checkout page, absent with Stripe
  "POST /_local/checkout/c/pay/:id/pay": "local",
  "POST /_local/checkout/c/pay/:id/cancel": "local",
  "POST /api/admin/public/update-user-profile": "user",
  "GET /api/local/mailbox": "local", // local mode only, never in production
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
  "GET /api/call-volume": "user",
  "GET /api/store-funnel": "shopwindows",
  "GET /api/call-logs": "user",
  "GET /api/call-logs/search": "user", // the account's own calls only (call-search.test.ts)
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
  "GET /api/report-mail": "shopwindows",
  "PUT /api/report-mail": "shopwindows",
  "GET /api/report-mail/unsubscribe": "public", // the mail's link: only shows a button; the token is random, rate limited
  "POST /api/report-mail/unsubscribe": "public", // the button and one-click: the unguessable token is the key, rate limited
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
  "POST /auth/v1/verify": "public",
  "POST /api/webhooks/vapi": "secret",
  "POST /api/webhooks/aircall": "secret",
  "GET /api/vapi/sim-recordings/:file": "local", // the simulator's tones; <audio> sends no token
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
