// Sequential D1 round trips per endpoint: every route the app serves is called once with valid input
// by a caller of the right kind, through a D1 binding wrapped in a D1Timer of the test's own, which
// counts every round trip of the request (those of the identity step, of the handler, of a
// streamed body's pages and of any code that reaches the binding directly). The signed-in answers'
// own Server-Timing `db-trips` is read too and can never exceed it.
//
// Budget: every request makes at most 2 sequential D1 round trips, identity included (a signed-in
// request's identity is confirmed in one round trip before its handler, worker/middleware/auth.ts).
// The routes allowed more are listed in OVER_BUDGET with their count and the reason. The table also
// shows what the identity step adds (measured on a request whose handler makes exactly one D1 call)
// and the handler's own trips.
//
// Providers run as production runs them: the voice platform, telephony and billing as their real
// adapters (VAPI, Twilio, Stripe) against the HTTP stand-ins, and the public account routes (trial,
// first password, activation resend) with the Supabase identity adapter against its stand-in. The
// local adapters keep a vendor's state in D1 (billing_local_objects, auth_users, the mailbox); those
// are a vendor's calls in production, so they are not counted here. The signed-in callers keep the
// local identity, whose confirmation is one round trip as Supabase's is.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb } from "../db/client";
import { D1Timer } from "../db/timed-d1";
import { ROUTES, servedRoutes } from "../proof/routes";
import { signStripePayload } from "../providers/billing/stripe-events";
import { StripeBilling } from "../providers/billing/stripe";
import { STRIPE_WEBHOOK_PATH } from "../providers/billing/local";
import { AIRCALL_WEBHOOK_PATH, DEV_AIRCALL_WEBHOOK_TOKEN } from "../providers/callcentre/aircall-events";
import { DEV_VAPI_WEBHOOK_SECRET } from "../providers/voice/local";
import { storeDailyReports } from "../services/daily-report-store";
import { sendReportMails } from "../services/report-mail";
import { LocalMail } from "../providers/mail/local";
import { healSearchIndex } from "../services/call-search";
import { aircallCall } from "../test/aircall";
import { COMPLETE_AGENT_FIELDS, ingestAppointmentRecord, insertAgent, insertAppointments, insertCallLogs, insertPhoneNumber } from "../test/factories";
import { call, shardNameOf, signUpAndSignIn, testShards, uniqueEmail, type Json } from "../test/helpers";
import { eachShard } from "../db/shards";
import { leadPayload, vapiReport } from "../test/payloads";
import { STRIPE_STANDIN } from "../test/standins/stripe";
import { SUPABASE_STANDIN } from "../test/standins/supabase";
import { TWILIO_STANDIN } from "../test/standins/twilio";
import { VAPI_STANDIN } from "../test/standins/vapi";
import { DEV_INGEST_API_KEY } from "./ingest";

type Session = Awaited<ReturnType<typeof signUpAndSignIn>>;
type Who = "customer" | "staff" | "admin" | "none";

/** One request of a case: who sends it (or a session of the case's own), and what. */
type Spec = {
  as: Who | Session;
  path: string;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
  /** The statuses that prove the request did its work (default 200, 201). */
  ok?: number[];
  /** Bindings of the case's own (a Supabase project of the stand-in), over the file's. */
  bindings?: Record<string, unknown>;
};

const ORIGIN = "http://localhost";
const DAY = "2026-03-03";

let customer: Session;
let staff: Session;
let admin: Session;
/** The VAPI, Twilio and Stripe adapters against their stand-ins, for every request of this file. */
let providerBindings: Record<string, unknown>;
/** The Stripe stand-in's account of this file, and the secret its events are signed with. */
const STRIPE_KEY = `${STRIPE_STANDIN.keyPrefix}trips${crypto.randomUUID().replace(/-/g, "")}`;
const STRIPE_EVENTS_SECRET = "whsec_trips_standin";
let supabaseProjects = 0;
/** A Supabase project of the stand-in of its own: the identity (and its mail) as production has it. */
const supabaseProject = () => ({
  SUPABASE_URL: `${inject("standins").supabase}/p/trips-${Date.now().toString(36)}-${++supabaseProjects}`,
  SUPABASE_ANON_KEY: SUPABASE_STANDIN.anonKey,
  SUPABASE_SERVICE_ROLE_KEY: SUPABASE_STANDIN.serviceRoleKey,
});

const fresh = async (appMetadata?: Json) => {
  const s = await signUpAndSignIn(appMetadata ? { appMetadata } : {});
  // The first signed-in request creates the profile; every measured request finds it.
  expect((await call("/api/profile", { token: s.accessToken })).status).toBe(200);
  return s;
};

const sessionOf = (as: Who | Session): Session | null =>
  as === "customer" ? customer : as === "staff" ? staff : as === "admin" ? admin : as === "none" ? null : as;

/** Sends a request outside the measurement (setting a case up). */
const send = (method: string, spec: Spec) =>
  call(spec.path, { method, token: sessionOf(spec.as)?.accessToken, json: spec.json, body: spec.body, headers: spec.headers, bindings: { ...providerBindings, ...spec.bindings } });

/** The unsubscribe link of a new subscriber's daily report mail for DAY (decision 060). */
async function reportMailUnsubscribePath() {
  const s = await fresh({ shopwindows_info: true });
  expect((await send("PUT", { as: s, path: "/api/report-mail", json: { subscribed: true } })).status).toBe(200);
  const d = createDb(env.DB);
  await sendReportMails({ db: d, mail: new LocalMail(d) }, new Date(`${nextDay(DAY)}T05:15:00Z`));
  const row = await env.DB.prepare("SELECT headers FROM mail_outbox WHERE to_email = ? AND kind = 'daily_report'").bind(s.email.toLowerCase()).first<{ headers: string }>();
  const url = new URL(/<([^>]+)>/.exec((JSON.parse(row!.headers) as Record<string, string>)["List-Unsubscribe"])![1]);
  return `${url.pathname}${url.search}`;
}
/** A rule of a fresh Pro account naming an extra address (not measured): its confirmation link and its unsubscribe link. */
async function alertRecipient() {
  const s = await fresh();
  const email = `trips-${crypto.randomUUID().slice(0, 8)}@example.net`;
  expect((await call("/api/alerts/rules", { method: "POST", token: s.accessToken, json: { ...ALERT_RULE, extraEmails: [email] } })).status).toBe(201);
  const mail = await env.DB.prepare("SELECT link FROM mail_outbox WHERE to_email = ? AND kind = 'alert_confirm'").bind(email).first<{ link: string }>();
  const row = await env.DB.prepare("SELECT unsubscribe_id FROM alert_mail_recipients WHERE email = ?").bind(email).first<{ unsubscribe_id: string }>();
  const confirm = new URL(mail!.link);
  return { s, email, confirm: `${confirm.pathname}${confirm.search}`, unsubscribe: `/api/alerts/recipients/unsubscribe?token=${row!.unsubscribe_id}` };
}
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

type Measured = { status: number; trips: number; serverTiming: number | null; body: Json };

/**
 * The test binding seen through `timer`, its sessions (D1's Sessions API, which the request's
 * databases are opened with) included: every round trip through it is counted.
 */
function countedBinding(timer: D1Timer, d1: D1Database): D1Database {
  const session = (s: D1DatabaseSession) => ({ ...(timer.wrap(s as unknown as D1Database) as object), getBookmark: () => s.getBookmark() });
  return { ...(timer.wrap(d1) as object), withSession: (constraint?: string) => session(d1.withSession(constraint)) } as unknown as D1Database;
}

/** Sends a request through a binding of its own timer: every D1 round trip of the request is counted. */
async function measure(method: string, spec: Spec): Promise<Measured> {
  const timer = new D1Timer();
  const res = await call(spec.path, {
    method,
    token: sessionOf(spec.as)?.accessToken,
    json: spec.json,
    body: spec.body,
    headers: spec.headers,
    bindings: { ...providerBindings, ...spec.bindings, DB: countedBinding(timer, env.DB), SHARD_0: countedBinding(timer, env.SHARD_0), SHARD_1: countedBinding(timer, env.SHARD_1) },
  });
  const st = /db-trips;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "");
  return { status: res.status, trips: timer.trips, serverTiming: st ? Number(st[1]) : null, body: res.body };
}

const qs = (q: Record<string, string>) => new URLSearchParams(q).toString();
const RANGE = { dateFilterType: "range", startDate: "2026-03-01", endDate: "2026-03-05" };
const checkoutBody = (email: string, priceId = "price_basic_y") => ({
  priceId,
  quantity: 1,
  successUrl: `${ORIGIN}/payments/success?session_id={CHECKOUT_SESSION_ID}`,
  cancelUrl: `${ORIGIN}/payments/cancel`,
  customerEmail: email,
});

/** A Stripe event delivered to the app's webhook, signed as the stand-in's account signs it. */
async function stripeDelivery(type: string, object: object) {
  const body = JSON.stringify({ id: `evt_test_${crypto.randomUUID()}`, object: "event", type, created: 1, data: { object } });
  return { body, headers: { "stripe-signature": await signStripePayload(body, STRIPE_EVENTS_SECRET), "content-type": "application/json" } };
}

/**
 * A checkout paid at the Stripe stand-in by a buyer without an account yet: the session, then what
 * Stripe does when the card is paid (the customer, the subscription, the completed session and its
 * event). With `bindings` (a Supabase project), the buyer's account is made there.
 */
async function paidCheckout(email = uniqueEmail("buyer"), bindings: Record<string, unknown> = {}) {
  const all = { ...providerBindings, ...bindings };
  const created = await call("/api/stripe/create-checkout-session", { method: "POST", json: checkoutBody(email), bindings: all });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const sessionId = created.body.sessionId as string;
  const stripe = new StripeBilling({ secretKey: STRIPE_KEY, webhookSecret: STRIPE_EVENTS_SECRET, apiBase: inject("standins").stripe });
  const customer = await stripe.createCustomer({ email, name: "Pat Buyer", idempotencyKey: `trips-customer:${email}` });
  const sub = await stripe.createSubscription({ customerId: customer.id, priceId: "price_basic_y", idempotencyKey: `trips-sub:${email}` });
  await fetch(`${inject("standins").stripe}/v1/test-objects`, {
    method: "PUT",
    headers: { authorization: `Bearer ${STRIPE_KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ id: sessionId, status: "complete", payment_status: "paid", customer: customer.id, subscription: sub.id, customer_details: { email, name: "Pat Buyer" } }),
  });
  const delivered = await call(STRIPE_WEBHOOK_PATH, { method: "POST", ...(await stripeDelivery("checkout.session.completed", { id: sessionId })), bindings: all });
  expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
  return { email, sessionId };
}

/** A buyer who paid, chose a password and signed in: their customer record and live subscription. */
async function buyer() {
  const { email, sessionId } = await paidCheckout();
  expect((await send("POST", { as: "none", path: "/api/admin/public/update-user-password", json: { email, password: "Secret123", sessionId } })).status).toBe(200);
  const token = (await call("/auth/v1/token?grant_type=password", { method: "POST", json: { email, password: "Secret123" } })).body.access_token as string;
  const session = { email, password: "Secret123", userId: "", accessToken: token, refreshToken: "" };
  const mine = await send("GET", { as: session, path: `/api/leads/customers/by-email?email=${encodeURIComponent(email)}` });
  const customerId = mine.body.customer.stripe_customer_id as string;
  const list = await send("GET", { as: session, path: `/api/stripe/customer-subscriptions/${customerId}` });
  session.userId = mine.body.customer.user_id as string;
  return { session, customerId, subscriptionId: list.body.subscriptions[0].id as string };
}

/** An agent created and activated through the API (an assistant on the VAPI stand-in). */
async function activeAgent(s: Session, name = `Desk ${crypto.randomUUID().slice(0, 8)}`) {
  const created = await send("POST", { as: s, path: "/api/agents", json: { name, ...COMPLETE_AGENT_FIELDS } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const activated = await send("POST", { as: s, path: "/api/create-vapi-assistant", json: { agent_id: created.body.agent.id } });
  expect(activated.status, JSON.stringify(activated.body)).toBe(200);
  return { id: created.body.agent.id as number, assistantId: activated.body.id as string };
}

/** A number of the Twilio stand-in bought by this account (searched first, as the SPA does). */
async function boughtNumber(s: Session) {
  const search = await send("GET", { as: s, path: "/api/twilio/available-numbers?areaCode=305&limit=5" });
  expect(search.status, JSON.stringify(search.body)).toBe(200);
  const phoneNumber = search.body.numbers[0].phoneNumber as string;
  const bought = await send("POST", { as: s, path: "/api/twilio/buy", json: { phoneNumber, createInVapi: true } });
  expect(bought.status, JSON.stringify(bought.body)).toBe(200);
  const mine = await send("GET", { as: s, path: "/api/twilio/my-numbers" });
  return mine.body.numbers.find((n: Json) => n.phone_number === phoneNumber || n.phoneNumber === phoneNumber) as Json;
}

const COUNT_QUERY = qs({ ...RANGE, callType: "Both" });

/** An alert rule over the whole account (decision 071). */
const ALERT_RULE = { name: "Calls", metric: "call_count", scopeKind: "all", scopeId: "", comparison: "gte", threshold: 5, windowMinutes: 15, cooldownMinutes: 5, severity: "warning" };

/** Every request: at most this many sequential D1 round trips, its identity included. */
const BUDGET = 2;

/** Why a signed-in write that reads before it writes needs a third round trip. */
const READ_THEN_WRITE = "the sign-in's confirmation, then the handler's reads, then its write (identity confirmed before the handler)";

/**
 * Routes allowed more than their budget: the round trips they may not exceed, and why they need
 * them. An entry here is a known cost, never a silent one.
 */
const OVER_BUDGET: Record<string, { trips: number; why: string }> = {
  "POST /api/stripe/cancel-subscription": { trips: 3, why: READ_THEN_WRITE },
  "PUT /api/admin/config/phone-limit": { trips: 3, why: READ_THEN_WRITE },
  "PUT /api/admin/users/:id/flags": { trips: 3, why: READ_THEN_WRITE },
  "POST /api/admin/shards/moves": { trips: 3, why: READ_THEN_WRITE },
  "POST /api/admin/assign-phone-number": { trips: 3, why: READ_THEN_WRITE },
  "POST /api/admin/cleanup-user": { trips: 3, why: READ_THEN_WRITE },
  "GET /api/admin/users/v2": { trips: 3, why: "the sign-in, then the page from the directory, then its accounts' calls from their shards at once (decision 079)" },
  "GET /api/admin/users": { trips: 3, why: "the sign-in, then the page from the directory, then its accounts' calls from their shards at once (decision 079)" },
  "POST /api/twilio/buy": { trips: 3, why: READ_THEN_WRITE },
  "POST /api/twilio/assign-number": { trips: 3, why: READ_THEN_WRITE },
  "POST /api/twilio/unassign-number": { trips: 3, why: READ_THEN_WRITE },
  "POST /api/agents": { trips: 3, why: READ_THEN_WRITE },
  "PUT /api/agents/:id": { trips: 3, why: READ_THEN_WRITE },
  "DELETE /api/agents/:id": { trips: 3, why: READ_THEN_WRITE },
  "PATCH /api/agents/:id/deactivate": { trips: 3, why: READ_THEN_WRITE },
  "POST /api/create-vapi-assistant": { trips: 3, why: READ_THEN_WRITE },
  "POST /api/create-default-agent": { trips: 3, why: READ_THEN_WRITE },
  "POST /api/analytics/won": { trips: 3, why: "the sign-in, the store's appointments and the store network's accounts (the directory), then their calls on every shard holding them, at once (decision 076)" },
  "POST /api/trigger-call": { trips: 3, why: "the sign-in, then the plan, the agent and the rate limits, then the call's row after the voice platform" },
  "DELETE /api/vapi/assistant/:assistantId": { trips: 3, why: READ_THEN_WRITE },
  "POST /api/webhook-endpoints": { trips: 3, why: "the sign-in, then the plan beside the shard's insert that keeps the limit of 10, then its audit row in the directory (decision 078)" },
  "PATCH /api/webhook-endpoints/:endpointId": { trips: 3, why: "the sign-in, then the plan beside the endpoint as it was, then the update beside its audit row (decision 078)" },
  "DELETE /api/webhook-endpoints/:endpointId": { trips: 3, why: READ_THEN_WRITE },
  "POST /api/webhook-endpoints/:endpointId/rotate-secret": { trips: 3, why: READ_THEN_WRITE },
  "POST /api/webhook-endpoints/:endpointId/test": { trips: 3, why: "the sign-in, then the plan, the per-account limit and the endpoint at once, then the delivery" },
  "POST /api/webhook-endpoints/:endpointId/deliveries/:deliveryId/resend": { trips: 3, why: "the sign-in, then the plan, the per-account limit and the endpoint at once, then the conditional write" },
  "POST /api/alerts/rules": { trips: 3, why: READ_THEN_WRITE },
  "PUT /api/alerts/rules/:id": { trips: 3, why: READ_THEN_WRITE },
  "POST /api/alerts/test": { trips: 3, why: "the sign-in, then the scope's owner (the account's agents and numbers), then the replay's one read of the calls" },
  "POST /api/alerts/recipients/resend": { trips: 3, why: "the sign-in, then the address and its confirmation's claim (the day's caps) in one batch, then the local outbox's insert (the mail vendor in production)" },
  "POST /api/api-keys": { trips: 3, why: "the sign-in, the plan (a refused plan writes nothing), then the key with its audit row in one batch" },
  "DELETE /api/api-keys/:id": { trips: 3, why: READ_THEN_WRITE },
};

const WEBHOOK_ENDPOINT = { url: "https://hooks.example.com/trips", description: "", events: ["call.ended"] };
/** A webhook endpoint of the account, made through the API (not measured); its id. */
async function webhookEndpoint(s: Session) {
  const made = await call("/api/webhook-endpoints", { method: "POST", token: s.accessToken, json: WEBHOOK_ENDPOINT });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.endpoint.id as string;
}

/**
 * How to call each route with valid input. Development tools absent in production (the local
 * identity service under /auth/v1, the local checkout page) are not API endpoints of the product
 * and are left out; the local API tools are measured but not budgeted.
 */
const CASES: Record<string, () => Promise<Spec>> = {
  "GET /api/health": async () => ({ as: "none", path: "/api/health" }),
  "GET /api/config": async () => ({ as: "none", path: "/api/config" }),
  "GET /api/openapi.json": async () => ({ as: "none", path: "/api/openapi.json" }),
  "POST /api/admin/public/user-exists": async () => ({ as: "none", path: "/api/admin/public/user-exists", json: { email: customer.email } }),
  "POST /api/admin/public/email-confirmed": async () => ({ as: "none", path: "/api/admin/public/email-confirmed", json: { email: customer.email, userId: customer.userId } }),
  "POST /api/admin/public/update-user-password": async () => {
    const bindings = supabaseProject();
    const { email, sessionId } = await paidCheckout(uniqueEmail("buyer"), bindings);
    return { as: "none", path: "/api/admin/public/update-user-password", json: { email, password: "Secret123", sessionId }, bindings };
  },
  "POST /api/admin/public/resend-activation": async () => {
    const bindings = supabaseProject();
    const { email } = await paidCheckout(uniqueEmail("buyer"), bindings);
    return { as: "none", path: "/api/admin/public/resend-activation", json: { email }, bindings };
  },
  "GET /api/stripe/config": async () => ({ as: "none", path: "/api/stripe/config" }),
  "GET /api/stripe/products": async () => ({ as: "none", path: "/api/stripe/products" }),
  "POST /api/stripe/create-checkout-session": async () => ({ as: "none", path: "/api/stripe/create-checkout-session", json: checkoutBody(uniqueEmail("checkout")) }),
  "POST /api/stripe/start-trial": async () => ({
    as: "none",
    path: "/api/stripe/start-trial",
    json: { email: uniqueEmail("trial"), priceId: "price_pro_m", first_name: "Tri", last_name: "Al" },
    bindings: supabaseProject(),
  }),
  "GET /api/stripe/checkout-session/:sessionId": async () => {
    const created = await send("POST", { as: "none", path: "/api/stripe/create-checkout-session", json: checkoutBody(uniqueEmail("look")) });
    return { as: "none", path: `/api/stripe/checkout-session/${created.body.sessionId}` };
  },
  "GET /api/stripe/customer-subscriptions/:id": async () => {
    const b = await buyer();
    return { as: b.session, path: `/api/stripe/customer-subscriptions/${b.customerId}` };
  },
  "POST /api/stripe/cancel-subscription": async () => {
    const b = await buyer();
    return { as: b.session, path: "/api/stripe/cancel-subscription", json: { subscriptionId: b.subscriptionId } };
  },
  "POST /api/stripe/portal-session": async () => ({ as: (await buyer()).session, path: "/api/stripe/portal-session" }),
  "POST /api/stripe/create-customer": async () => ({ as: "admin", path: "/api/stripe/create-customer", json: { email: uniqueEmail("made"), name: "N" } }),
  "POST /api/stripe/create-subscription": async () => {
    const made = await send("POST", { as: "admin", path: "/api/stripe/create-customer", json: { email: uniqueEmail("made"), name: "N" } });
    return { as: "admin", path: "/api/stripe/create-subscription", json: { customerId: made.body.customer.id, priceId: "price_basic_m" } };
  },
  "POST /api/leads/leads": async () => ({ as: "none", path: "/api/leads/leads", json: leadPayload() }),
  "GET /api/leads/customers/by-email": async () => {
    const b = await buyer();
    return { as: b.session, path: `/api/leads/customers/by-email?email=${encodeURIComponent(b.session.email)}` };
  },
  "POST /api/leads/customers": async () => ({ as: customer, path: "/api/leads/customers", json: { email: customer.email, company: "Acme" } }),
  "POST /api/webhooks/stripe": async () => {
    const b = await buyer();
    const delivery = await stripeDelivery("customer.subscription.updated", { id: b.subscriptionId });
    return { as: "none", path: STRIPE_WEBHOOK_PATH, ...delivery };
  },
  "POST /api/admin/public/update-user-profile": async () => {
    const s = await fresh();
    return { as: s, path: "/api/admin/public/update-user-profile", json: { email: s.email, username: "renamed" } };
  },
  "GET /api/local/mailbox": async () => ({ as: "none", path: `/api/local/mailbox?email=${encodeURIComponent(customer.email)}` }),
  "GET /api/profile": async () => ({ as: "customer", path: "/api/profile" }),
  "POST /api/live/ticket": async () => ({ as: "customer", path: "/api/live/ticket" }),
  // Its reads run together: their round trips overlap (decision 064).
  "POST /api/batch": async () => ({ as: "customer", path: "/api/batch", json: { requests: ["/api/profile", "/api/agents", `/api/call-logs/count?${COUNT_QUERY}`] } }),
  // Without an upgrade the feed's path only checks its query (the socket itself is worker/routes/live.test.ts).
  "GET /api/live": async () => ({ as: "none", path: "/api/live?ticket=abc", ok: [426] }),
  "POST /api/local/aircall/simulate": async () => ({ as: "staff", path: "/api/local/aircall/simulate", json: { scenario: "answered", store: "NAPLES", userName: "Ana Lopez" } }),
  "GET /api/call-logs/count": async () => ({ as: "customer", path: `/api/call-logs/count?${COUNT_QUERY}` }),
  "GET /api/call-connected-count": async () => ({ as: "customer", path: `/api/call-connected-count?${COUNT_QUERY}` }),
  "GET /api/voicemail-count": async () => ({ as: "customer", path: `/api/voicemail-count?${COUNT_QUERY}` }),
  "GET /api/forwarded-count": async () => ({ as: "customer", path: `/api/forwarded-count?${COUNT_QUERY}` }),
  "GET /api/aircall/call-count": async () => ({ as: "staff", path: `/api/aircall/call-count?${qs({ ...RANGE, direction: "inbound" })}` }),
  "GET /api/aircall/outbound-answered-count": async () => ({ as: "staff", path: `/api/aircall/outbound-answered-count?${qs(RANGE)}` }),
  "GET /api/aircall/store-transfer-solutions-count": async () => ({ as: "staff", path: `/api/aircall/store-transfer-solutions-count?${qs(RANGE)}` }),
  "GET /api/aircall/options": async () => ({ as: "staff", path: "/api/aircall/options" }),
  "GET /api/appointment-count": async () => ({ as: "staff", path: `/api/appointment-count?${qs(RANGE)}` }),
  "GET /api/appointment-status-count": async () => ({ as: "staff", path: `/api/appointment-status-count?${qs(RANGE)}` }),
  "GET /api/appointment-category-count": async () => ({ as: "staff", path: `/api/appointment-category-count?${qs(RANGE)}` }),
  "GET /api/appointment-options": async () => ({ as: "staff", path: "/api/appointment-options" }),
  "GET /api/lead-counts/summary": async () => ({ as: "staff", path: `/api/lead-counts/summary?${qs(RANGE)}` }),
  "GET /api/call-volume": async () => ({ as: "customer", path: `/api/call-volume?${COUNT_QUERY}` }),
  "GET /api/store-funnel": async () => ({ as: "staff", path: `/api/store-funnel?${qs({ startDate: RANGE.startDate, endDate: RANGE.endDate })}` }),
  "GET /api/call-logs": async () => ({ as: "customer", path: "/api/call-logs" }),
  "GET /api/call-logs/search": async () => {
    // The customer's calls in the search index, so the search finds them and reads them back.
    await eachShard(testShards(), (shard) => healSearchIndex(createDb(env.DB), shard.db, env.CALL_TEXT));
    return { as: "customer", path: "/api/call-logs/search?q=you" };
  },
  "GET /api/vapi/call-logs": async () => ({ as: "customer", path: "/api/vapi/call-logs" }),
  "GET /api/vapi/call/:call_id": async () => {
    const s = await fresh();
    const agent = await activeAgent(s);
    const id = crypto.randomUUID();
    const delivered = await send("POST", { as: "none", path: "/api/webhooks/vapi", body: JSON.stringify(vapiReport(id, agent.assistantId)), headers: { "content-type": "application/json", "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET } });
    expect(delivered.status).toBe(200);
    return { as: s, path: `/api/vapi/call/${id}` };
  },
  "GET /api/admin/config/phone-limit": async () => ({ as: "customer", path: "/api/admin/config/phone-limit" }),
  "PUT /api/admin/config/phone-limit": async () => {
    const now = await send("GET", { as: "admin", path: "/api/admin/config/phone-limit" });
    return { as: "admin", path: "/api/admin/config/phone-limit", json: { phoneNumberLimit: now.body.phoneNumberLimit } };
  },
  "GET /api/admin/stats/v2": async () => ({ as: "admin", path: "/api/admin/stats/v2" }),
  "GET /api/admin/stats": async () => ({ as: "admin", path: "/api/admin/stats" }),
  "GET /api/admin/users/v2": async () => ({ as: "admin", path: "/api/admin/users/v2?limit=25" }),
  "GET /api/admin/users": async () => ({ as: "admin", path: "/api/admin/users?limit=25" }),
  "PUT /api/admin/users/:id/flags": async () => {
    const s = await fresh();
    return { as: "admin", path: `/api/admin/users/${s.userId}/flags`, json: { shopwindows_info: true } };
  },
  "GET /api/admin/vapi/available-numbers": async () => ({ as: "admin", path: "/api/admin/vapi/available-numbers" }),
  "POST /api/admin/assign-phone-number": async () => {
    const s = await fresh();
    const pooled = await insertPhoneNumber(null, { name: null });
    return { as: "admin", path: "/api/admin/assign-phone-number", json: { user_id: s.userId, phone_number: pooled.phoneNumber, vapi_number_id: pooled.vapiPhoneNumberId } };
  },
  "POST /api/admin/cleanup-user": async () => {
    const s = await fresh();
    await activeAgent(s);
    await boughtNumber(s);
    // The plan the account is on is billed at the Stripe stand-in too, which cancels it.
    await fetch(`${inject("standins").stripe}/v1/test-objects`, {
      method: "PUT",
      headers: { authorization: `Bearer ${STRIPE_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ id: `sub_test_${s.userId}_pro_active`, object: "subscription", customer: `cus_test_${s.userId}`, price: "price_pro_m", status: "active", cancel_at_period_end: false, trial_end: null, created: 1, current_period_end: 2 }),
    });
    return { as: "admin", path: "/api/admin/cleanup-user", json: { email: s.email } };
  },
  "GET /api/admin/audit-log": async () => ({ as: "admin", path: "/api/admin/audit-log?limit=50" }),
  "GET /api/admin/shards": async () => ({ as: "admin", path: "/api/admin/shards" }),
  "PUT /api/admin/shards/:name": async () => ({ as: "admin", path: "/api/admin/shards/SHARD_0", json: { open: true } }),
  "GET /api/admin/shards/moves": async () => ({ as: "admin", path: "/api/admin/shards/moves" }),
  "POST /api/admin/shards/moves": async () => {
    const s = await fresh();
    const own = await shardNameOf(s.userId);
    return { as: "admin", path: "/api/admin/shards/moves", json: { account: s.userId, shard: own === "SHARD_0" ? "SHARD_1" : "SHARD_0" }, ok: [202] };
  },
  "GET /api/twilio/health": async () => ({ as: "customer", path: "/api/twilio/health" }),
  "GET /api/twilio/my-numbers": async () => ({ as: "customer", path: "/api/twilio/my-numbers" }),
  "GET /api/twilio/available-numbers": async () => ({ as: "customer", path: "/api/twilio/available-numbers?areaCode=305&limit=50" }),
  "POST /api/twilio/buy": async () => {
    const s = await fresh();
    const search = await send("GET", { as: s, path: "/api/twilio/available-numbers?areaCode=305&limit=5" });
    return { as: s, path: "/api/twilio/buy", json: { phoneNumber: search.body.numbers[0].phoneNumber, createInVapi: true } };
  },
  "POST /api/twilio/assign-number": async () => {
    const s = await fresh();
    const agent = await activeAgent(s);
    const number = await boughtNumber(s);
    return { as: s, path: "/api/twilio/assign-number", json: { phoneNumberId: number.id, agentId: agent.id } };
  },
  "POST /api/twilio/unassign-number": async () => {
    const s = await fresh();
    const agent = await activeAgent(s);
    const number = await boughtNumber(s);
    expect((await send("POST", { as: s, path: "/api/twilio/assign-number", json: { phoneNumberId: number.id, agentId: agent.id } })).status).toBe(200);
    return { as: s, path: "/api/twilio/unassign-number", json: { phoneNumberId: number.id } };
  },
  "GET /api/agents": async () => ({ as: "customer", path: "/api/agents" }),
  "POST /api/agents": async () => ({ as: "customer", path: "/api/agents", json: { name: `New ${crypto.randomUUID().slice(0, 8)}`, ...COMPLETE_AGENT_FIELDS } }),
  "GET /api/agents/:id": async () => ({ as: "customer", path: `/api/agents/${(await insertAgent(customer.userId, { name: `Get ${crypto.randomUUID().slice(0, 8)}` })).id}` }),
  "PUT /api/agents/:id": async () => {
    const agent = await insertAgent(customer.userId, { name: `Put ${crypto.randomUUID().slice(0, 8)}` });
    return { as: "customer", path: `/api/agents/${agent.id}`, json: { name: `Renamed ${crypto.randomUUID().slice(0, 8)}`, ...COMPLETE_AGENT_FIELDS } };
  },
  "DELETE /api/agents/:id": async () => {
    const s = await fresh();
    return { as: s, path: `/api/agents/${(await activeAgent(s)).id}` };
  },
  "PATCH /api/agents/:id/deactivate": async () => {
    const s = await fresh();
    return { as: s, path: `/api/agents/${(await activeAgent(s)).id}/deactivate` };
  },
  "POST /api/analytics/won": async () => ({ as: "staff", path: "/api/analytics/won", json: { storeId: "MIAMI", startDate: "2026-03-01", endDate: "2026-03-05", limit: 300 } }),
  "GET /api/export-report": async () => ({ as: "customer", path: `/api/export-report?${COUNT_QUERY}` }),
  "GET /api/daily-report": async () => ({ as: "staff", path: `/api/daily-report?${qs({ date: DAY })}` }),
  "GET /api/daily-reports": async () => ({ as: "staff", path: "/api/daily-reports" }),
  "GET /api/daily-reports/:id": async () => {
    const list = await send("GET", { as: "staff", path: "/api/daily-reports" });
    const id = (list.body.reports ?? list.body.items ?? [])[0]?.id;
    expect(id, JSON.stringify(list.body).slice(0, 300)).toBeDefined();
    return { as: "staff", path: `/api/daily-reports/${id}` };
  },
  "GET /api/webhook-endpoints": async () => {
    await webhookEndpoint(customer);
    return { as: "customer", path: "/api/webhook-endpoints" };
  },
  "POST /api/webhook-endpoints": async () => ({ as: await fresh(), path: "/api/webhook-endpoints", json: WEBHOOK_ENDPOINT }),
  "GET /api/webhook-endpoints/:endpointId": async () => ({ as: "customer", path: `/api/webhook-endpoints/${await webhookEndpoint(customer)}` }),
  "PATCH /api/webhook-endpoints/:endpointId": async () => ({ as: "customer", path: `/api/webhook-endpoints/${await webhookEndpoint(customer)}`, json: { description: "Renamed" } }),
  "DELETE /api/webhook-endpoints/:endpointId": async () => ({ as: "customer", path: `/api/webhook-endpoints/${await webhookEndpoint(customer)}` }),
  "POST /api/webhook-endpoints/:endpointId/rotate-secret": async () => ({ as: "customer", path: `/api/webhook-endpoints/${await webhookEndpoint(customer)}/rotate-secret` }),
  "POST /api/webhook-endpoints/:endpointId/test": async () => ({ as: "customer", path: `/api/webhook-endpoints/${await webhookEndpoint(customer)}/test`, ok: [202] }),
  "GET /api/webhook-endpoints/:endpointId/deliveries": async () => {
    const id = await webhookEndpoint(customer);
    await send("POST", { as: "customer", path: `/api/webhook-endpoints/${id}/test` });
    return { as: "customer", path: `/api/webhook-endpoints/${id}/deliveries` };
  },
  "POST /api/webhook-endpoints/:endpointId/deliveries/:deliveryId/resend": async () => {
    const id = await webhookEndpoint(customer);
    const test = await send("POST", { as: "customer", path: `/api/webhook-endpoints/${id}/test` });
    // A resend is of a decided delivery (a queued one answers 409).
    // The delivery is on the account's shard (decision 078): the statement changes it wherever it is.
    await eachShard(testShards(), (shard) => shard.db.$client.prepare("update webhook_deliveries set status = 'failed', attempts = 8 where id = ?").bind(test.body.deliveryId).run());
    return { as: "customer", path: `/api/webhook-endpoints/${id}/deliveries/${test.body.deliveryId}/resend`, ok: [202] };
  },
  "GET /api/local/webhook-inbox": async () => ({ as: "none", path: "/api/local/webhook-inbox?inbox=trips" }),
  "POST /api/local/webhook-inbox/:inbox": async () => ({ as: "none", path: "/api/local/webhook-inbox/trips", json: { type: "test", data: {} } }),
  "GET /api/alerts/rules": async () => ({ as: "customer", path: "/api/alerts/rules" }),
  "POST /api/alerts/rules": async () => ({ as: await fresh(), path: "/api/alerts/rules", json: ALERT_RULE }),
  "PUT /api/alerts/rules/:id": async () => {
    const s = await fresh();
    const id = (await send("POST", { as: s, path: "/api/alerts/rules", json: ALERT_RULE })).body.rule.id;
    return { as: s, path: `/api/alerts/rules/${id}`, json: { ...ALERT_RULE, threshold: 9 } };
  },
  "DELETE /api/alerts/rules/:id": async () => {
    const s = await fresh();
    const id = (await send("POST", { as: s, path: "/api/alerts/rules", json: ALERT_RULE })).body.rule.id;
    return { as: s, path: `/api/alerts/rules/${id}` };
  },
  "POST /api/alerts/test": async () => ({ as: "customer", path: "/api/alerts/test", json: ALERT_RULE }),
  "GET /api/alerts/history": async () => ({ as: "customer", path: "/api/alerts/history" }),
  "POST /api/alerts/history/:id/acknowledge": async () => {
    const s = await fresh();
    // The alert is on the account's shard (decision 078).
    const placed = await env.DB.prepare("SELECT shard FROM profiles WHERE id = ?").bind(s.userId).first<{ shard: string }>();
    const row = await testShards().find((shard) => shard.name === placed!.shard)!.db.$client.prepare(
      "INSERT INTO alert_history (user_id, rule_name, metric, scope_kind, severity, comparison, threshold, window_minutes, value, window_start, window_end, fired_at, run_id) " +
        "VALUES (?, 'r', 'call_count', 'all', 'warning', 'gte', 1, 15, 2, 't', 't', 't', 'trips') RETURNING id",
    )
      .bind(s.userId)
      .first<{ id: number }>();
    return { as: s, path: `/api/alerts/history/${row!.id}/acknowledge` };
  },
  "POST /api/alerts/recipients/resend": async () => {
    const { s, email } = await alertRecipient();
    return { as: s, path: "/api/alerts/recipients/resend", json: { email } };
  },
  "GET /api/alerts/recipients/confirm": async () => ({ as: "none", path: (await alertRecipient()).confirm }),
  "POST /api/alerts/recipients/confirm": async () => ({ as: "none", path: (await alertRecipient()).confirm }),
  "GET /api/alerts/recipients/unsubscribe": async () => ({ as: "none", path: (await alertRecipient()).unsubscribe }),
  "POST /api/alerts/recipients/unsubscribe": async () => ({
    as: "none",
    path: (await alertRecipient()).unsubscribe,
    body: "List-Unsubscribe=One-Click",
    headers: { "content-type": "application/x-www-form-urlencoded" },
  }),
  "GET /api/alerts/bell": async () => ({ as: "customer", path: "/api/alerts/bell" }),
  "POST /api/alerts/bell/read": async () => ({ as: "customer", path: "/api/alerts/bell/read", json: {} }),
  "GET /api/report-mail": async () => ({ as: "staff", path: "/api/report-mail" }),
  "GET /api/api-keys": async () => ({ as: "customer", path: "/api/api-keys" }),
  "POST /api/api-keys": async () => ({ as: await fresh(), path: "/api/api-keys", json: { name: "Trips", scopes: ["calls:read"] } }),
  "DELETE /api/api-keys/:id": async () => {
    const s = await fresh();
    const made = await send("POST", { as: s, path: "/api/api-keys", json: { name: "Trips", scopes: ["calls:read"] } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return { as: s, path: `/api/api-keys/${made.body.key.id}` };
  },
  "PUT /api/report-mail": async () => ({ as: await fresh({ shopwindows_info: true }), path: "/api/report-mail", json: { subscribed: true } }),
  "GET /api/report-mail/unsubscribe": async () => ({ as: "none", path: await reportMailUnsubscribePath() }),
  "POST /api/report-mail/unsubscribe": async () => ({
    as: "none",
    path: await reportMailUnsubscribePath(),
    body: "List-Unsubscribe=One-Click",
    headers: { "content-type": "application/x-www-form-urlencoded" },
  }),
  "POST /api/ingest/appointments": async () => ({
    as: "none",
    path: "/api/ingest/appointments",
    json: { appointments: [ingestAppointmentRecord(`TRIPS-${crypto.randomUUID()}`), ingestAppointmentRecord(`TRIPS-${crypto.randomUUID()}`)] },
    headers: { authorization: `Bearer ${DEV_INGEST_API_KEY}` },
  }),
  "POST /api/ingest/leads": async () => ({
    as: "none",
    path: "/api/ingest/leads",
    json: {
      leads: [
        { external_id: `TRIPS-${crypto.randomUUID()}`, store: "TULSA", submitted_at: "2026-03-03T09:15:00-05:00", email: "jane@example.com", phone: "918-555-0199", first_name: "Jane", last_name: "Doe" },
      ],
    },
    headers: { authorization: `Bearer ${DEV_INGEST_API_KEY}` },
  }),
  "POST /api/generate-prompt": async () => ({ as: "customer", path: "/api/generate-prompt", json: { name: "Front Desk", ...COMPLETE_AGENT_FIELDS } }),
  "POST /api/create-vapi-assistant": async () => {
    const created = await send("POST", { as: "customer", path: "/api/agents", json: { name: `Act ${crypto.randomUUID().slice(0, 8)}`, ...COMPLETE_AGENT_FIELDS } });
    return { as: "customer", path: "/api/create-vapi-assistant", json: { agent_id: created.body.agent.id } };
  },
  "POST /api/create-default-agent": async () => ({ as: await fresh(), path: "/api/create-default-agent" }),
  "GET /api/usage-stats": async () => ({ as: "customer", path: "/api/usage-stats" }),
  "POST /api/trigger-call": async () => {
    const s = await fresh();
    const agent = await activeAgent(s);
    return { as: s, path: "/api/trigger-call", json: { phoneNumber: "+15551230000", agentId: agent.id } };
  },
  "GET /api/vapi/voices": async () => ({ as: "customer", path: "/api/vapi/voices" }),
  "DELETE /api/vapi/assistant/:assistantId": async () => {
    const s = await fresh();
    return { as: s, path: `/api/vapi/assistant/${(await activeAgent(s)).assistantId}` };
  },
  "POST /api/webhooks/vapi": async () => {
    const s = await fresh();
    const agent = await activeAgent(s);
    return {
      as: "none",
      path: "/api/webhooks/vapi",
      body: JSON.stringify(vapiReport(crypto.randomUUID(), agent.assistantId)),
      headers: { "content-type": "application/json", "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET },
    };
  },
  "POST /api/webhooks/aircall": async () => {
    const id = 4_100_000_000 + Math.floor(Math.random() * 1_000_000);
    const t0 = Date.UTC(2026, 2, 2, 14, 0, 0) / 1000;
    const delivery = { resource: "call", event: "call.ended", timestamp: t0 + 220, token: DEV_AIRCALL_WEBHOOK_TOKEN, data: aircallCall(id, t0) };
    return { as: "none", path: AIRCALL_WEBHOOK_PATH, body: JSON.stringify(delivery), headers: { "content-type": "application/json" } };
  },
  "GET /api/vapi/sim-recordings/:file": async () => ({ as: "none", path: `/api/vapi/sim-recordings/sim_call_${crypto.randomUUID()}.wav`, ok: [200, 404] }),
};

/** Development tools of the local identity service and checkout page: not product endpoints. */
// The public API's round trips are measured against the dashboard's in routes/v1/public-api.test.ts.
const NOT_MEASURED = (route: string) => route.includes(" /auth/v1/") || route.includes(" /_local/") || route.includes(" /v1/");
/** Measured, not budgeted: development tools that production does not serve (decision 040). */
const UNBUDGETED = (route: string) => ROUTES[route] === "local" || route.startsWith("POST /api/local/");

/** The round trips a request may make in all. */
const budgetOf = (route: string) => OVER_BUDGET[route]?.trips ?? BUDGET;

const identityTrips: Record<string, number> = {};
const table: { route: string; status: number; total: number; identity: number; own: number; serverTiming: number | null; budget: string }[] = [];

beforeAll(async () => {
  providerBindings = {
    VAPI_PRIVATE_KEY: VAPI_STANDIN.privateKey,
    VAPI_BASE_URL: inject("standins").vapi,
    TWILIO_ACCOUNT_SID: `AC${crypto.randomUUID().replace(/-/g, "")}`,
    TWILIO_AUTH_TOKEN: TWILIO_STANDIN.authToken,
    TWILIO_BASE_URL: inject("standins").twilio,
    // Test calls go out from this number when the agent has none of its own.
    VAPI_PHONE_NUMBER_ID: "pn-configured-default",
    STRIPE_SECRET_KEY: STRIPE_KEY,
    STRIPE_API_BASE: inject("standins").stripe,
    STRIPE_WEBHOOK_SECRET: STRIPE_EVENTS_SECRET,
  };
  [customer, staff, admin] = await Promise.all([fresh(), fresh({ shopwindows_info: true, call_app: true }), fresh({ is_admin: true, shopwindows_info: true, call_app: true })]);
  // Data for the lists and reports to read.
  const agent = await insertAgent(customer.userId, { vapiAssistantId: `asst-${crypto.randomUUID()}` }, { store: "MIAMI" });
  await insertCallLogs(customer.userId, 5, {}, { agent: { vapiAssistantId: agent.vapiAssistantId, store: "MIAMI", type: "inbound" }, day: DAY });
  await insertAppointments(5, {}, { day: DAY, store: "MIAMI" });
  await storeDailyReports(createDb(env.DB), DAY);
  // What the identity step adds, per kind of method, measured on a request whose handler makes exactly
  // one D1 call: the confirmation is one round trip before the handler, whatever the method.
  const oneRead = await measure("GET", { as: "customer", path: "/api/admin/config/phone-limit" });
  const oneWrite = await measure("POST", { as: "customer", path: "/api/generate-prompt", json: { name: "Probe", ...COMPLETE_AGENT_FIELDS } });
  expect([oneRead.status, oneWrite.status]).toEqual([200, 200]);
  identityTrips.GET = oneRead.trips - 1;
  for (const method of ["POST", "PUT", "PATCH", "DELETE"]) identityTrips[method] = oneWrite.trips - 1;
});

describe("sequential D1 round trips per endpoint", () => {
  it("has a case for every route the app serves", () => {
    const missing = servedRoutes().filter((r) => !NOT_MEASURED(r) && !(r in CASES));
    expect(missing).toEqual([]);
  });

  for (const route of Object.keys(CASES)) {
    it(route, async () => {
      const [method] = route.split(" ");
      const spec = await CASES[route]();
      // A read is measured warm: after one request the coverage a count guessed from is this account's
      // (a cold isolate reads what it remembers with the sign-in: middleware/cold-isolate.test.ts).
      // The batch only carries reads, so it is measured warm too.
      if (method === "GET" || route === "POST /api/batch") await send(method, spec);
      const res = await measure(method, spec);
      expect(spec.ok ?? [200, 201], `${route}: ${JSON.stringify(res.body).slice(0, 400)}`).toContain(res.status);
      const signedIn = sessionOf(spec.as) !== null;
      const identity = signedIn ? identityTrips[method] : 0;
      const own = res.trips - identity;
      const unbudgeted = UNBUDGETED(route);
      const budget = budgetOf(route);
      table.push({ route, status: res.status, total: res.trips, identity, own, serverTiming: res.serverTiming, budget: unbudgeted ? "-" : String(budget) });
      // The answer's own figure counts the same round trips (a streamed body's later pages excepted).
      if (res.serverTiming !== null) expect(res.serverTiming).toBeLessThanOrEqual(res.trips);
      if (unbudgeted) return;
      expect(res.trips, `${route}: ${res.trips} trips, ${identity} of them the identity step`).toBeLessThanOrEqual(budget);
    });
  }
});

afterAll(() => {
  const width = Math.max(...table.map((r) => r.route.length));
  const lines = table.map(
    (r) =>
      `${r.route.padEnd(width)} | ${String(r.status).padEnd(6)} | ${String(r.total).padEnd(5)} | ${String(r.identity).padEnd(8)} | ${String(r.own).padEnd(3)} | ${String(r.serverTiming ?? "·").padEnd(12)} | ${r.budget}`,
  );
  console.log(
    `\nSequential D1 round trips per endpoint (identity: GET ${identityTrips.GET}, POST ${identityTrips.POST})\n` +
      `${"route".padEnd(width)} | status | total | identity | own | server-timing | budget\n${lines.join("\n")}`,
  );
});
