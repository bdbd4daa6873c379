// The answer of every endpoint the SPA reads, by "<METHOD> <path>" (":name" stands for a path
// parameter). The types are the ones each worker handler answers through (`c.json(body satisfies X)`,
// or a service's declared return type); the SPA's request helper (web/src/lib/api.ts) takes its
// answer type from this map by method and URL, so a field renamed on either side fails the type
// check where the other side writes or reads it (decision 044).
import type { DailyReportListResponse } from "../daily-report";
import type { AdminPhoneNumbersResponse, AdminStats, AdminUserResponse, AdminUsersResponse, AssignPhoneNumberResponse, AuditLogResponse, CleanupUserResponse } from "./admin";
import type {
  ActivateAgentResponse,
  AgentDeactivatedResponse,
  AgentDeletedResponse,
  AgentListResponse,
  AgentResponse,
  TriggerCallResponse,
  UsageStats,
} from "./agents";
import type { CurrentUserView, EmailConfirmedResponse, UserExistsResponse } from "./auth";
import type {
  AccountActionResponse,
  BillingConfigView,
  CheckoutSessionCreatedResponse,
  CheckoutSessionResponse,
  CreateCustomerResponse,
  CustomerResponse,
  CustomerSubscriptionsResponse,
  LeadCreatedResponse,
  PortalSessionResponse,
  ProductsResponse,
  StartTrialResponse,
  SubscriptionResponse,
} from "./billing";
import type { CallLogSearchResponse, CallLogsResponse, VapiCallDetail, VoicesResponse } from "./call-logs";
import type {
  AircallOptionsResponse,
  AnalyticsWonResponse,
  AppointmentCategoryCountsResponse,
  AppointmentOptionsResponse,
  AppointmentStatusCountsResponse,
  CallLogTotalResponse,
  CountResponse,
  LeadSummaryResponse,
} from "./counts";
import type { CallVolumeResponse, StoreFunnelResponse } from "./insights";
import type { LiveTicketResponse } from "./live";
import type { MailboxResponse } from "./mailbox";
import type { AssignNumberResponse, AvailableNumbersResponse, BuyNumberResponse, MyNumbersResponse, PhoneLimitResponse } from "./phone-numbers";
import type { UpdateUserProfileResponse } from "./profile";
import type { ReportMailSetting } from "./report-mail";

export type ApiAnswers = {
  // Profile and account
  "GET /api/profile": CurrentUserView;
  "POST /api/admin/public/user-exists": UserExistsResponse;
  "POST /api/admin/public/email-confirmed": EmailConfirmedResponse;
  "POST /api/admin/public/update-user-profile": UpdateUserProfileResponse;
  "POST /api/admin/public/update-user-password": AccountActionResponse;
  "POST /api/admin/public/resend-activation": AccountActionResponse;
  "GET /api/local/mailbox": MailboxResponse;
  "GET /api/report-mail": ReportMailSetting;
  "PUT /api/report-mail": ReportMailSetting;

  // Agents
  "GET /api/agents": AgentListResponse;
  "POST /api/agents": AgentResponse;
  "GET /api/agents/:id": AgentResponse;
  "PUT /api/agents/:id": AgentResponse;
  "DELETE /api/agents/:id": AgentDeletedResponse;
  "PATCH /api/agents/:id/deactivate": AgentDeactivatedResponse;
  "POST /api/create-default-agent": AgentResponse;
  "POST /api/create-vapi-assistant": ActivateAgentResponse;
  "POST /api/trigger-call": TriggerCallResponse;
  "GET /api/usage-stats": UsageStats;
  "GET /api/vapi/voices": VoicesResponse;

  // Call logs
  "GET /api/call-logs": CallLogsResponse;
  "GET /api/call-logs/search": CallLogSearchResponse;
  "POST /api/live/ticket": LiveTicketResponse;
  "GET /api/vapi/call/:call_id": VapiCallDetail;

  // Phone numbers
  "GET /api/twilio/my-numbers": MyNumbersResponse;
  "GET /api/twilio/available-numbers": AvailableNumbersResponse;
  "POST /api/twilio/buy": BuyNumberResponse;
  "POST /api/twilio/assign-number": AssignNumberResponse;
  "POST /api/twilio/unassign-number": AssignNumberResponse;

  // Billing and leads
  "GET /api/stripe/products": ProductsResponse;
  "GET /api/stripe/config": BillingConfigView;
  "POST /api/stripe/create-checkout-session": CheckoutSessionCreatedResponse;
  "POST /api/stripe/start-trial": StartTrialResponse;
  "GET /api/stripe/checkout-session/:sessionId": CheckoutSessionResponse;
  "GET /api/stripe/customer-subscriptions/:id": CustomerSubscriptionsResponse;
  "POST /api/stripe/cancel-subscription": SubscriptionResponse;
  "POST /api/stripe/portal-session": PortalSessionResponse;
  "POST /api/stripe/create-customer": CreateCustomerResponse;
  "POST /api/stripe/create-subscription": SubscriptionResponse;
  "POST /api/leads/leads": LeadCreatedResponse;
  "GET /api/leads/customers/by-email": CustomerResponse;

  // Dashboard counts, filter options, insights and stored reports
  "GET /api/call-logs/count": CallLogTotalResponse;
  "GET /api/call-connected-count": CountResponse;
  "GET /api/voicemail-count": CountResponse;
  "GET /api/forwarded-count": CountResponse;
  "GET /api/call-volume": CallVolumeResponse;
  "GET /api/appointment-count": CountResponse;
  "GET /api/appointment-status-count": AppointmentStatusCountsResponse;
  "GET /api/appointment-category-count": AppointmentCategoryCountsResponse;
  "GET /api/appointment-options": AppointmentOptionsResponse;
  "GET /api/lead-counts/summary": LeadSummaryResponse;
  "GET /api/aircall/call-count": CountResponse;
  "GET /api/aircall/outbound-answered-count": CountResponse;
  "GET /api/aircall/store-transfer-solutions-count": CountResponse;
  "GET /api/aircall/options": AircallOptionsResponse;
  "GET /api/store-funnel": StoreFunnelResponse;
  "GET /api/daily-reports": DailyReportListResponse;
  "POST /api/analytics/won": AnalyticsWonResponse;

  // Administration
  "GET /api/admin/stats/v2": AdminStats;
  "GET /api/admin/stats": AdminStats;
  "GET /api/admin/users/v2": AdminUsersResponse;
  "GET /api/admin/users": AdminUsersResponse;
  "PUT /api/admin/users/:id/flags": AdminUserResponse;
  "GET /api/admin/vapi/available-numbers": AdminPhoneNumbersResponse;
  "POST /api/admin/assign-phone-number": AssignPhoneNumberResponse;
  "GET /api/admin/config/phone-limit": PhoneLimitResponse;
  "PUT /api/admin/config/phone-limit": PhoneLimitResponse;
  "GET /api/admin/audit-log": AuditLogResponse;
  "POST /api/admin/cleanup-user": CleanupUserResponse;
};

export type ApiEndpoint = keyof ApiAnswers;
export type ApiMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The paths of the map answered for a method. */
export type ApiPath<M extends ApiMethod> = { [E in ApiEndpoint]: E extends `${M} ${infer P}` ? P : never }[ApiEndpoint];

/** The URLs a path pattern stands for: each ":name" any text, and any query string after the path. */
type Filled<P extends string> = P extends `${infer Head}:${string}/${infer Tail}`
  ? `${Head}${string}/${Filled<Tail>}`
  : P extends `${infer Head}:${string}`
    ? `${Head}${string}`
    : P;
export type UrlOfPath<P extends string> = Filled<P> | `${Filled<P>}?${string}`;

/** Every URL the map answers for a method. */
export type ApiUrl<M extends ApiMethod> = UrlOfPath<ApiPath<M>>;

type AnswersMatching<M extends ApiMethod, U extends string, Static extends boolean> = {
  [P in ApiPath<M>]: (P extends `${string}:${string}` ? false : true) extends Static
    ? U extends UrlOfPath<P>
      ? ApiAnswers[`${M} ${P}` & ApiEndpoint]
      : never
    : never;
}[ApiPath<M>];

/**
 * The answer at a URL. A path without parameters wins over a pattern that also matches
 * ("/api/call-logs/count" is not read as some "/api/call-logs/:id").
 */
export type ApiAnswer<M extends ApiMethod, U extends string> = [AnswersMatching<M, U, true>] extends [never]
  ? AnswersMatching<M, U, false>
  : AnswersMatching<M, U, true>;
