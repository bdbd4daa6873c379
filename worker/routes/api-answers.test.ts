// Every line of shared/schemas/answers.ts (the answer types the SPA reads, by method and path) names a
// route the app serves, so the SPA's request helper cannot type a URL the worker does not answer.
import { describe, expect, it } from "vitest";
import type { ApiEndpoint } from "@shared/schemas/answers";
import { servedRoutes } from "../proof/routes";

// The map's keys, checked against it both ways by the type checker: a key missing here or one the
// map does not have fails `npm run typecheck`.
const MAPPED = {
  "GET /api/profile": true,
  "POST /api/admin/public/user-exists": true,
  "POST /api/admin/public/email-confirmed": true,
  "POST /api/admin/public/update-user-profile": true,
  "POST /api/admin/public/update-user-password": true,
  "POST /api/admin/public/resend-activation": true,
  "GET /api/local/mailbox": true,
  "GET /api/report-mail": true,
  "PUT /api/report-mail": true,
  "GET /api/agents": true,
  "POST /api/agents": true,
  "GET /api/agents/:id": true,
  "PUT /api/agents/:id": true,
  "DELETE /api/agents/:id": true,
  "PATCH /api/agents/:id/deactivate": true,
  "POST /api/create-default-agent": true,
  "POST /api/create-vapi-assistant": true,
  "POST /api/trigger-call": true,
  "GET /api/usage-stats": true,
  "GET /api/vapi/voices": true,
  "GET /api/call-logs": true,
  "GET /api/call-logs/search": true,
  "POST /api/live/ticket": true,
  "GET /api/vapi/call/:call_id": true,
  "GET /api/twilio/my-numbers": true,
  "GET /api/twilio/available-numbers": true,
  "POST /api/twilio/buy": true,
  "POST /api/twilio/assign-number": true,
  "POST /api/twilio/unassign-number": true,
  "GET /api/stripe/products": true,
  "GET /api/stripe/config": true,
  "POST /api/stripe/create-checkout-session": true,
  "POST /api/stripe/start-trial": true,
  "GET /api/stripe/checkout-session/:sessionId": true,
  "GET /api/stripe/customer-subscriptions/:id": true,
  "POST /api/stripe/cancel-subscription": true,
  "POST /api/stripe/portal-session": true,
  "POST /api/stripe/create-customer": true,
  "POST /api/stripe/create-subscription": true,
  "POST /api/leads/leads": true,
  "GET /api/leads/customers/by-email": true,
  "GET /api/call-logs/count": true,
  "GET /api/call-connected-count": true,
  "GET /api/voicemail-count": true,
  "GET /api/forwarded-count": true,
  "GET /api/call-volume": true,
  "GET /api/appointment-count": true,
  "GET /api/appointment-status-count": true,
  "GET /api/appointment-category-count": true,
  "GET /api/appointment-options": true,
  "GET /api/lead-counts/summary": true,
  "GET /api/aircall/call-count": true,
  "GET /api/aircall/outbound-answered-count": true,
  "GET /api/aircall/store-transfer-solutions-count": true,
  "GET /api/aircall/options": true,
  "GET /api/store-funnel": true,
  "GET /api/daily-reports": true,
  "POST /api/analytics/won": true,
  "GET /api/admin/stats/v2": true,
  "GET /api/admin/stats": true,
  "GET /api/admin/users/v2": true,
  "GET /api/admin/users": true,
  "PUT /api/admin/users/:id/flags": true,
  "GET /api/admin/vapi/available-numbers": true,
  "POST /api/admin/assign-phone-number": true,
  "GET /api/admin/config/phone-limit": true,
  "PUT /api/admin/config/phone-limit": true,
  "GET /api/admin/audit-log": true,
  "POST /api/admin/cleanup-user": true,
} satisfies Record<ApiEndpoint, true>;

describe("the answer map", () => {
  it("names only routes the app serves, with the worker's own parameter names", () => {
    const served = new Set(servedRoutes());
    const unserved = Object.keys(MAPPED).filter((endpoint) => !served.has(endpoint));
    expect(unserved).toEqual([]);
  });
});
