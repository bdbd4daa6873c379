// Every route the Worker serves, declared once: "METHOD /path" (":name" a path parameter), who may
// call it (the access class, shared/api/declare.ts), what it takes (path parameters, query, body) and
// what it answers. The worker serves each from here (worker/routes/serve.ts installs the access
// class's guard and the validators); the SPA's answer types (shared/schemas/answers.ts), the proofs'
// route inventory (worker/proof/routes.ts) and the OpenAPI document (GET /api/openapi.json) are
// derived from this table.
import {
  adminFlagsBody,
  adminUserIdParam,
  adminUsersQuery,
  assignPhoneNumberBody,
  auditLogQuery,
  cleanupUserBody,
  adminPhoneNumbersResponse,
  adminStats,
  adminUserResponse,
  adminUsersResponse,
  assignPhoneNumberResponse,
  auditLogResponse,
  cleanupUserResponse,
  shardMoveBody,
  shardMoveResponse,
  shardMovesResponse,
  shardNameParam,
  shardOpenBody,
  shardResponse,
  shardStatusResponse,
} from "../schemas/admin";
import {
  activateAgentBody,
  assistantDeletedResponse,
  agentCreateBody,
  agentIdParam,
  agentUpdateBody,
  generatePromptBody,
  triggerCallBody,
  activateAgentResponse,
  agentDeactivatedResponse,
  agentDeletedResponse,
  agentListResponse,
  agentResponse,
  generatePromptResponse,
  triggerCallResponse,
  usageStats,
} from "../schemas/agents";
import {
  emailConfirmedBody,
  recoverBody,
  resendBody,
  signupBody,
  updateUserBody,
  updateUserProfileBody,
  userExistsBody,
  verifyBody,
  currentUserView,
  emailConfirmedResponse,
  userExistsResponse,
} from "../schemas/auth";
import { apiKeyCreateBody, apiKeyIdParam, apiKeyCreatedResponse, apiKeyListResponse, apiKeyRevokedResponse } from "../schemas/api-keys";
import { batchBody } from "../schemas/batch";
import {
  cancelSubscriptionBody,
  createCheckoutSessionBody,
  createCustomerBody,
  createSubscriptionBody,
  customerByEmailQuery,
  customerIdParam,
  leadBody,
  resendActivationBody,
  sessionIdParam,
  startTrialBody,
  updateUserPasswordBody,
  upsertCustomerBody,
  accountActionResponse,
  billingConfigView,
  checkoutSessionCreatedResponse,
  checkoutSessionResponse,
  createCustomerResponse,
  customerResponse,
  customerSubscriptionsResponse,
  leadCreatedResponse,
  portalSessionResponse,
  productsResponse,
  startTrialResponse,
  subscriptionResponse,
} from "../schemas/billing";
import {
  assistantParams,
  callLogSearchQuery,
  callLogsQuery,
  vapiCallLogsQuery,
  vapiCallParams,
  callLogSearchResponse,
  callLogsResponse,
  vapiCallDetail,
  vapiCallLogsResponse,
  voicesResponse,
} from "../schemas/call-logs";
import { appConfigResponse } from "../schemas/config";
import {
  aircallCallCountQuery,
  aircallCountsQuery,
  analyticsWonBody,
  appointmentCountsQuery,
  callLogCountsQuery,
  dailyReportIdParam,
  dailyReportListQuery,
  dailyReportQuery,
  dateRangeQuery,
  leadSummaryQuery,
  aircallOptionsResponse,
  analyticsWonResponse,
  appointmentCategoryCountsResponse,
  appointmentOptionsResponse,
  appointmentStatusCountsResponse,
  callLogTotalResponse,
  countResponse,
  leadSummaryResponse,
} from "../schemas/counts";
import { ingestAppointmentsBody, ingestLeadsBody, ingestResult } from "../schemas/ingest";
import { batchResponse, callVolumeResponse, dailyReportListResponse, storeFunnelResponse } from "../schemas/answer-shapes";
import { liveConnectQuery, liveTicketResponse } from "../schemas/live";
import { localCheckoutParams, localPayForm, simRecordingParams, simulateCallBody } from "../schemas/local-tools";
import { mailboxQuery, mailboxResponse } from "../schemas/mailbox";
import {
  assignNumberBody,
  availableNumbersQuery,
  buyNumberBody,
  phoneLimitBody,
  unassignNumberBody,
  assignNumberResponse,
  availableNumbersResponse,
  buyNumberResponse,
  myNumbersResponse,
  phoneLimitResponse,
  telephonyHealth,
} from "../schemas/phone-numbers";
import { updateUserProfileResponse } from "../schemas/profile";
import { reportMailBody, reportMailSetting } from "../schemas/report-mail";
import {
  webhookDeliveriesQuery,
  webhookDeliveryListResponse,
  webhookDeliveryParams,
  webhookEndpointCreateBody,
  webhookEndpointDeletedResponse,
  webhookEndpointListResponse,
  webhookEndpointParams,
  webhookEndpointResponse,
  webhookEndpointSecretResponse,
  webhookEndpointUpdateBody,
  webhookInboxFaults,
  webhookInboxParams,
  webhookInboxQuery,
  webhookInboxReceived,
  webhookInboxResponse,
  webhookQueuedResponse,
} from "../schemas/webhooks";
import {
  alertAcknowledgedResponse,
  alertBellReadBody,
  alertBellReadResponse,
  alertBellResponse,
  alertHistoryQuery,
  alertHistoryResponse,
  alertIdParam,
  alertRecipientResendBody,
  alertRecipientResendResponse,
  alertRuleBody,
  alertRuleDeletedResponse,
  alertRuleIdParam,
  alertRuleResponse,
  alertRulesResponse,
  alertTestResponse,
} from "../schemas/alerts";
import { audio, csv, empty, html, json, redirect, untyped, websocket, type RouteDeclaration, type RouteKey } from "./declare";

const countsQuery = { query: callLogCountsQuery, answer: json(countResponse) };

export const ROUTES = {
  // Health and client configuration
  "GET /api/health": { access: "public", summary: "Monitoring: the database, the migration, the adapters", answer: untyped },
  "GET /api/config": { access: "public", summary: "The SPA's configuration, before anyone signs in", answer: json(appConfigResponse) },
  "GET /api/openapi.json": { access: "public", summary: "This document", answer: untyped },

  // Profile and account
  "GET /api/profile": { access: "user", answer: json(currentUserView) },
  "POST /api/admin/public/user-exists": { access: "public", summary: "Plan panel; rate limited", body: userExistsBody, answer: json(userExistsResponse) },
  "POST /api/admin/public/email-confirmed": {
    access: "public",
    summary: "\"I've Confirmed\": the account id its sign-up answered is the proof; rate limited",
    body: emailConfirmedBody,
    answer: json(emailConfirmedResponse),
  },
  "POST /api/admin/public/update-user-password": {
    access: "public",
    summary: "A buyer's first password: the paid session is the proof; rate limited",
    body: updateUserPasswordBody,
    answer: json(accountActionResponse),
  },
  "POST /api/admin/public/resend-activation": {
    access: "public",
    summary: "A buyer without a password yet; rate limited, answers alike",
    body: resendActivationBody,
    answer: json(accountActionResponse),
  },
  // Settings → API access: keys of the public API (/v1, declared in ./v1-routes.ts)
  "GET /api/api-keys": { access: "user", answer: json(apiKeyListResponse) },
  "POST /api/api-keys": { access: "user", summary: "Pro or admin; the secret is answered once", body: apiKeyCreateBody, answer: json(apiKeyCreatedResponse, 201) },
  "DELETE /api/api-keys/:id": { access: "owned", params: apiKeyIdParam, answer: json(apiKeyRevokedResponse) },
  "POST /api/admin/public/update-user-profile": { access: "user", body: updateUserProfileBody, answer: json(updateUserProfileResponse) },
  "GET /api/local/mailbox": { access: "local", query: mailboxQuery, answer: json(mailboxResponse) },
  "GET /api/report-mail": { access: "shopwindows", answer: json(reportMailSetting) },
  "PUT /api/report-mail": { access: "shopwindows", body: reportMailBody, answer: json(reportMailSetting) },
  "GET /api/report-mail/unsubscribe": { access: "public", summary: "The mail's link: only shows a button; the random token is the key, rate limited", answer: html },
  "POST /api/report-mail/unsubscribe": { access: "public", summary: "The button and one-click: the unguessable token is the key, rate limited", answer: html },

  // Alerts (decision 071): the account's own rules, history and bell; flags and scope checked per rule
  "GET /api/alerts/rules": { access: "user", summary: "The account's rules, the metrics and scopes it may use", answer: json(alertRulesResponse) },
  "POST /api/alerts/rules": { access: "user", summary: "At most 50; a store metric needs its flag", body: alertRuleBody, answer: json(alertRuleResponse, 201) },
  "PUT /api/alerts/rules/:id": { access: "owned", summary: "The account's own rule; another's answers 404", params: alertRuleIdParam, body: alertRuleBody, answer: json(alertRuleResponse) },
  "DELETE /api/alerts/rules/:id": { access: "owned", params: alertRuleIdParam, answer: json(alertRuleDeletedResponse) },
  "POST /api/alerts/test": { access: "user", summary: "What an unsaved rule would have said over the last 7 days", body: alertRuleBody, answer: json(alertTestResponse) },
  "GET /api/alerts/history": { access: "user", query: alertHistoryQuery, answer: json(alertHistoryResponse) },
  "POST /api/alerts/history/:id/acknowledge": { access: "owned", params: alertIdParam, answer: json(alertAcknowledgedResponse) },
  "GET /api/alerts/bell": { access: "user", answer: json(alertBellResponse) },
  "POST /api/alerts/bell/read": { access: "user", body: alertBellReadBody, answer: json(alertBellReadResponse) },
  "POST /api/alerts/recipients/resend": { access: "user", summary: "A new confirmation link to an extra address; capped a day per account and per address", body: alertRecipientResendBody, answer: json(alertRecipientResendResponse) },
  "GET /api/alerts/recipients/confirm": { access: "public", summary: "The confirmation mail's link: only shows a button; the random token is the key, rate limited", answer: html },
  "POST /api/alerts/recipients/confirm": { access: "public", summary: "The button: confirms the address for every rule of the account; rate limited", answer: html },
  "GET /api/alerts/recipients/unsubscribe": { access: "public", summary: "An alert mail's unsubscribe link: only shows a button; rate limited", answer: html },
  "POST /api/alerts/recipients/unsubscribe": { access: "public", summary: "The button and RFC 8058 one-click: the address gets nothing more from the account; rate limited", answer: html },

  // Agents
  "GET /api/agents": { access: "user", answer: json(agentListResponse) },
  "POST /api/agents": { access: "user", body: agentCreateBody, answer: json(agentResponse, 201) },
  "GET /api/agents/:id": { access: "owned", params: agentIdParam, answer: json(agentResponse) },
  "PUT /api/agents/:id": { access: "owned", params: agentIdParam, body: agentUpdateBody, answer: json(agentResponse) },
  "DELETE /api/agents/:id": { access: "owned", params: agentIdParam, answer: json(agentDeletedResponse) },
  "PATCH /api/agents/:id/deactivate": { access: "owned", params: agentIdParam, answer: json(agentDeactivatedResponse) },
  "POST /api/generate-prompt": { access: "user", body: generatePromptBody, answer: json(generatePromptResponse) },
  "POST /api/create-vapi-assistant": { access: "user", body: activateAgentBody, answer: json(activateAgentResponse) },
  "POST /api/create-default-agent": { access: "user", answer: json(agentResponse, 201) },
  "GET /api/usage-stats": { access: "user", answer: json(usageStats) },
  "POST /api/trigger-call": { access: "user", body: triggerCallBody, answer: json(triggerCallResponse) },
  "GET /api/vapi/voices": { access: "user", answer: json(voicesResponse) },
  "DELETE /api/vapi/assistant/:assistantId": { access: "owned", params: assistantParams, answer: json(assistantDeletedResponse) },

  // Call logs and the live feed
  "GET /api/call-logs": { access: "user", query: callLogsQuery, answer: json(callLogsResponse) },
  "GET /api/call-logs/search": { access: "user", summary: "The account's own calls only", query: callLogSearchQuery, answer: json(callLogSearchResponse) },
  "GET /api/vapi/call-logs": { access: "user", query: vapiCallLogsQuery, answer: json(vapiCallLogsResponse) },
  "GET /api/vapi/call/:call_id": { access: "owned", params: vapiCallParams, answer: json(vapiCallDetail) },
  "POST /api/live/ticket": { access: "user", answer: json(liveTicketResponse) },
  "GET /api/live": {
    access: "public",
    summary: "The live feed's socket: its ticket (from POST /api/live/ticket) is the credential",
    query: liveConnectQuery,
    validatedBy: "handler",
    answer: websocket,
  },
  "POST /api/batch": {
    access: "user",
    summary: "Several reads in one request: each is authorized as if sent alone",
    body: batchBody,
    answer: json(batchResponse),
  },

  // Phone numbers
  "GET /api/admin/config/phone-limit": { access: "user", summary: "The phone-numbers screen shows every account its limit", answer: json(phoneLimitResponse) },
  "PUT /api/admin/config/phone-limit": { access: "admin", body: phoneLimitBody, answer: json(phoneLimitResponse) },
  "GET /api/twilio/health": { access: "user", answer: json(telephonyHealth) },
  "GET /api/twilio/my-numbers": { access: "user", answer: json(myNumbersResponse) },
  "GET /api/twilio/available-numbers": { access: "user", query: availableNumbersQuery, answer: json(availableNumbersResponse) },
  "POST /api/twilio/buy": { access: "user", body: buyNumberBody, answer: json(buyNumberResponse) },
  "POST /api/twilio/assign-number": { access: "user", body: assignNumberBody, answer: json(assignNumberResponse) },
  "POST /api/twilio/unassign-number": { access: "user", body: unassignNumberBody, answer: json(assignNumberResponse) },

  // Billing, leads and customers
  "GET /api/stripe/config": { access: "public", summary: "Publishable billing configuration", answer: json(billingConfigView) },
  "GET /api/stripe/products": { access: "public", summary: "The plans a visitor picks from", answer: json(productsResponse) },
  "POST /api/stripe/create-checkout-session": {
    access: "public",
    summary: "A visitor's checkout; rate limited",
    body: createCheckoutSessionBody,
    answer: json(checkoutSessionCreatedResponse),
  },
  "POST /api/stripe/start-trial": { access: "public", summary: "A visitor's trial; rate limited", body: startTrialBody, answer: json(startTrialResponse) },
  "GET /api/stripe/checkout-session/:sessionId": {
    access: "public",
    summary: "The success page before any account exists; the id is the secret",
    params: sessionIdParam,
    answer: json(checkoutSessionResponse),
  },
  "GET /api/stripe/customer-subscriptions/:id": { access: "ownedOrAdmin", params: customerIdParam, answer: json(customerSubscriptionsResponse) },
  "POST /api/stripe/cancel-subscription": {
    access: "user",
    summary: "The subscription named in the body must be the caller's",
    body: cancelSubscriptionBody,
    answer: json(subscriptionResponse),
  },
  "POST /api/stripe/portal-session": { access: "user", answer: json(portalSessionResponse) },
  "POST /api/stripe/create-customer": { access: "admin", body: createCustomerBody, answer: json(createCustomerResponse) },
  "POST /api/stripe/create-subscription": { access: "admin", body: createSubscriptionBody, answer: json(subscriptionResponse) },
  "POST /api/leads/leads": { access: "public", summary: "The checkout's lead form; rate limited", body: leadBody, answer: json(leadCreatedResponse, 201) },
  "GET /api/leads/customers/by-email": {
    access: "user",
    summary: "An account's own record; another's only for an admin",
    query: customerByEmailQuery,
    answer: json(customerResponse),
  },
  "POST /api/leads/customers": { access: "user", body: upsertCustomerBody, answer: json(customerResponse) },

  // Dashboard counts, filter options, insights and reports
  "GET /api/call-logs/count": { access: "user", query: callLogCountsQuery, answer: json(callLogTotalResponse) },
  "GET /api/call-connected-count": { access: "user", ...countsQuery },
  "GET /api/voicemail-count": { access: "user", ...countsQuery },
  "GET /api/forwarded-count": { access: "user", ...countsQuery },
  "GET /api/call-volume": { access: "user", query: callLogCountsQuery, answer: json(callVolumeResponse) },
  "GET /api/aircall/call-count": { access: "callApp", query: aircallCallCountQuery, answer: json(countResponse) },
  "GET /api/aircall/outbound-answered-count": { access: "callApp", query: aircallCountsQuery, answer: json(countResponse) },
  "GET /api/aircall/store-transfer-solutions-count": { access: "callApp", query: aircallCountsQuery, answer: json(countResponse) },
  "GET /api/aircall/options": { access: "callApp", answer: json(aircallOptionsResponse) },
  "GET /api/appointment-count": { access: "shopwindows", query: appointmentCountsQuery, answer: json(countResponse) },
  "GET /api/appointment-status-count": { access: "shopwindows", query: appointmentCountsQuery, answer: json(appointmentStatusCountsResponse) },
  "GET /api/appointment-category-count": { access: "shopwindows", query: appointmentCountsQuery, answer: json(appointmentCategoryCountsResponse) },
  "GET /api/appointment-options": { access: "shopwindows", answer: json(appointmentOptionsResponse) },
  "GET /api/lead-counts/summary": { access: "shopwindows", query: leadSummaryQuery, answer: json(leadSummaryResponse) },
  "GET /api/store-funnel": { access: "shopwindows", query: dateRangeQuery, answer: json(storeFunnelResponse) },
  "POST /api/analytics/won": { access: "shopwindows", body: analyticsWonBody, answer: json(analyticsWonResponse) },
  "GET /api/export-report": { access: "user", summary: "The call report, streamed as CSV", query: callLogCountsQuery, answer: csv },
  "GET /api/daily-report": { access: "shopwindows", summary: "The daily report, streamed as CSV", query: dailyReportQuery, answer: csv },
  "GET /api/daily-reports": { access: "shopwindows", query: dailyReportListQuery, answer: json(dailyReportListResponse) },
  "GET /api/daily-reports/:id": { access: "shopwindows", summary: "A stored nightly report as CSV", params: dailyReportIdParam, answer: csv },

  // Custom webhooks (docs/product/webhooks.md): Pro accounts and admins, 402 for the others
  "GET /api/webhook-endpoints": { access: "user", summary: "The account's endpoints, and whether its plan has webhooks", answer: json(webhookEndpointListResponse) },
  "POST /api/webhook-endpoints": { access: "user", summary: "Adds an endpoint; its secret is answered this once", body: webhookEndpointCreateBody, answer: json(webhookEndpointSecretResponse, 201) },
  "GET /api/webhook-endpoints/:endpointId": { access: "owned", params: webhookEndpointParams, answer: json(webhookEndpointResponse) },
  "PATCH /api/webhook-endpoints/:endpointId": { access: "owned", params: webhookEndpointParams, body: webhookEndpointUpdateBody, answer: json(webhookEndpointResponse) },
  "DELETE /api/webhook-endpoints/:endpointId": { access: "owned", summary: "With its delivery log", params: webhookEndpointParams, answer: json(webhookEndpointDeletedResponse) },
  "POST /api/webhook-endpoints/:endpointId/rotate-secret": {
    access: "owned",
    summary: "A new secret, answered this once; the old one signs beside it for 24 hours",
    params: webhookEndpointParams,
    answer: json(webhookEndpointSecretResponse),
  },
  "POST /api/webhook-endpoints/:endpointId/test": {
    access: "owned",
    summary: "Queues a test event (at most 10 a minute per account, 429 past it)",
    params: webhookEndpointParams,
    answer: json(webhookQueuedResponse, 202),
  },
  "GET /api/webhook-endpoints/:endpointId/deliveries": {
    access: "owned",
    summary: "The delivery log (30 days), newest first",
    params: webhookEndpointParams,
    query: webhookDeliveriesQuery,
    answer: json(webhookDeliveryListResponse),
  },
  "POST /api/webhook-endpoints/:endpointId/deliveries/:deliveryId/resend": {
    access: "owned",
    summary: "One more attempt of a decided delivery, with the same webhook-id (409 while one is queued; at most 30 a minute per account)",
    params: webhookDeliveryParams,
    answer: json(webhookQueuedResponse, 202),
  },

  // Administration
  "GET /api/admin/stats/v2": { access: "admin", answer: json(adminStats) },
  "GET /api/admin/stats": { access: "admin", answer: json(adminStats) },
  "GET /api/admin/users/v2": { access: "admin", query: adminUsersQuery, answer: json(adminUsersResponse) },
  "GET /api/admin/users": { access: "admin", query: adminUsersQuery, answer: json(adminUsersResponse) },
  "PUT /api/admin/users/:id/flags": { access: "admin", params: adminUserIdParam, body: adminFlagsBody, answer: json(adminUserResponse) },
  "GET /api/admin/vapi/available-numbers": { access: "admin", answer: json(adminPhoneNumbersResponse) },
  "POST /api/admin/assign-phone-number": { access: "admin", body: assignPhoneNumberBody, answer: json(assignPhoneNumberResponse) },
  "POST /api/admin/cleanup-user": { access: "admin", body: cleanupUserBody, answer: json(cleanupUserResponse) },
  "GET /api/admin/audit-log": { access: "admin", query: auditLogQuery, answer: json(auditLogResponse) },
  // Shards and moving an account between them (decision 080); npm run shards drives the same code.
  "GET /api/admin/shards": { access: "admin", summary: "Each shard's size, accounts and room", answer: json(shardStatusResponse) },
  "PUT /api/admin/shards/:name": { access: "admin", summary: "Open or close a shard to new accounts; audited", params: shardNameParam, body: shardOpenBody, answer: json(shardResponse) },
  "GET /api/admin/shards/moves": { access: "admin", summary: "Moves, newest first", answer: json(shardMovesResponse) },
  "POST /api/admin/shards/moves": {
    access: "admin",
    summary: "Start moving an account to a shard; the minute cron carries it out; audited",
    body: shardMoveBody,
    answer: json(shardMoveResponse, 202),
  },

  // Machine callers: ingestion and webhooks (each proves itself with its own key or signature)
  "POST /api/ingest/appointments": { access: "secret", body: ingestAppointmentsBody, validatedBy: "handler", answer: json(ingestResult) },
  "POST /api/ingest/leads": { access: "secret", body: ingestLeadsBody, validatedBy: "handler", answer: json(ingestResult) },
  "POST /api/webhooks/stripe": { access: "secret", answer: untyped },
  "POST /api/webhooks/vapi": { access: "secret", answer: untyped },
  "POST /api/webhooks/aircall": { access: "secret", answer: untyped },

  // Development tools, off in production
  "POST /api/local/aircall/simulate": { access: "callApp", summary: "Plays one Aircall call through the webhook; local only", body: simulateCallBody, answer: untyped },
  "GET /_local/checkout/c/pay/:id": { access: "local", summary: "The local billing adapter's checkout page", params: localCheckoutParams, answer: html },
  "POST /_local/checkout/c/pay/:id/pay": { access: "local", params: localCheckoutParams, form: localPayForm, answer: redirect },
  "POST /_local/checkout/c/pay/:id/cancel": { access: "local", params: localCheckoutParams, answer: redirect },
  "GET /api/local/webhook-inbox": { access: "local", summary: "The local webhook receiver's page data", query: webhookInboxQuery, answer: json(webhookInboxResponse) },
  "POST /api/local/webhook-inbox/:inbox": {
    access: "local",
    summary: "The local webhook receiver: keeps each delivery and checks its signature; ?fail=P and ?down_until=T fake a failing receiver",
    params: webhookInboxParams,
    query: webhookInboxFaults,
    validatedBy: "handler",
    answer: json(webhookInboxReceived),
  },
  "GET /api/vapi/sim-recordings/:file": { access: "local", summary: "The simulator's tones; <audio> sends no token", params: simRecordingParams, answer: audio },

  // The local identity service (GoTrue's API, for supabase-js), off in production. Last: the
  // authorization matrix walks this table in order, and its logout ends the session it signs in with.
  "GET /auth/v1/settings": { access: "public", answer: untyped },
  "GET /auth/v1/.well-known/jwks.json": { access: "public", answer: untyped },
  "POST /auth/v1/signup": { access: "public", body: signupBody, answer: untyped },
  "POST /auth/v1/token": { access: "public", summary: "Password and refresh-token grants, read by the handler per grant", answer: untyped },
  "GET /auth/v1/user": { access: "user", summary: "The bearer's own session, checked by the service itself", answer: untyped },
  "PUT /auth/v1/user": { access: "user", body: updateUserBody, answer: untyped },
  "POST /auth/v1/logout": { access: "user", answer: empty },
  "POST /auth/v1/resend": { access: "public", body: resendBody, answer: untyped },
  "POST /auth/v1/recover": { access: "public", body: recoverBody, answer: untyped },
  "GET /auth/v1/verify": { access: "public", summary: "An e-mailed link: verifies and redirects", answer: redirect },
  "POST /auth/v1/verify": { access: "public", body: verifyBody, answer: untyped },
} as const satisfies Record<RouteKey, RouteDeclaration>;

export type Routes = typeof ROUTES;
export type DeclaredRoute = keyof Routes;
