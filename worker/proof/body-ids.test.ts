// Ids in bodies and queries, across accounts: the authorization matrix probes the ids in paths
// (every `owned` route, with the owner's real resource); this proof probes the ids a route takes in
// its JSON body or its query. For each (route, field), another account sends the owner's real id
// and must get exactly what it gets for an id that does not exist (the same 4xx naming the same
// field, or the same empty answer of a filter), and the owner's rows read afterwards are as before.
// The field's other ids are the caller's own, so the probed field is the one that decides, and a
// control request with a real id shows the request is otherwise one the route accepts.
// A test over the route tables fails when a body or query field named like an id (…Id, …Ids, …_id,
// ids, or the call filters' `agent`) is neither probed here nor listed as exempt with its reason.
import { eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ROUTES } from "@shared/api/routes";
import { CONNECTED_ENDED_REASONS, FORWARDED_ENDED_REASONS, VOICEMAIL_ENDED_REASONS } from "@shared/call-outcomes";
import { V1_ROUTES } from "@shared/api/v1-routes";
import { nyToday } from "@shared/ny-time";
import { agents, alertMailLog, alertMailRecipients, alertNotifications, alertRules, customers, phoneNumbers, subscriptions } from "../db/schema";
import { insertAgent, insertCallLogs, insertPhoneNumber, insertRows, plainAlertRule } from "../test/factories";
import { call, db, type Json, shardOf, signUpAndSignIn } from "../test/helpers";

type Session = { accessToken: string; userId: string };
type Id = string | number;
type Answer = Awaited<ReturnType<typeof call>>;

/**
 * A field is id-like when it names an account's resource by id: …Id, …Ids, …_id, `ids`, or the call
 * filters' `agent` (an assistant id). POST /api/batch's `requests` carry ids in their paths and are
 * probed too, though the name does not say so.
 */
const ID_LIKE = /(Id|Ids|_id)$|^ids$|^agent$/;

/**
 * Id-like fields that are not an account's resource, or that only an admin may send (admins may name
 * any account's resource), with the reason.
 */
const EXEMPT: Record<string, string> = {
  "POST /api/admin/public/email-confirmed userId": "public: the account id its own sign-up answered is the proof; any other pair of id and email answers false",
  "POST /api/admin/public/update-user-password sessionId": "public: the paid checkout session is the proof (the session's email must match)",
  "POST /api/stripe/create-checkout-session priceId": "a price of the plan catalogue, no account's",
  "POST /api/stripe/start-trial priceId": "a price of the plan catalogue, no account's",
  "POST /api/stripe/create-subscription priceId": "admin only",
  "POST /api/stripe/create-subscription customerId": "admin only",
  "POST /api/admin/assign-phone-number user_id": "admin only",
  "POST /api/admin/assign-phone-number vapi_number_id": "admin only",
  "POST /api/analytics/won storeId": "one of the shared stores behind the shopwindows flag, no account's",
  "POST /api/agents voice_id": "a voice of the voice platform's catalogue, no account's",
  "PUT /api/agents/:id voice_id": "a voice of the voice platform's catalogue, no account's",
  "POST /api/create-vapi-assistant voice_id": "a voice of the voice platform's catalogue, no account's",
  "POST /api/leads/leads price_id": "a price of the plan catalogue, no account's",
};

type Probe = {
  route: string;
  field: string;
  /** Which of a route's probes of one field this is, in the test's name. */
  label?: string;
  /** The probing caller (another account than the owner). */
  as: () => Session | { key: string };
  /** The request with `id` in the field: a JSON body, or a query string for a GET. */
  request: (id: Id) => { json?: unknown; query?: string };
  owners: () => Id;
  missing: Id;
  /** For an answer that is not refused (a filter, a list of ids): the part that must equal the answer for a missing id. */
  view?: (res: Answer) => unknown;
  /** The owner's rows the route could change, read before and after. */
  rows?: () => Promise<unknown>;
  /** A request with a real id the route accepts, and what its answer shows (the probe is not refused for another reason). */
  control?: { as: () => Session | { key: string }; id: () => Id; check: (res: Answer) => void };
  /** For a filter: the owner, sending its own id, gets a different view than for a missing id (the id is real and the filter applies). */
  ownerSees?: () => Session | { key: string };
};

let owner: Session;
let other: Session;
let otherKey: string;
let ownerKey: string;
const o = {} as {
  agent: typeof agents.$inferSelect;
  freeAgent: typeof agents.$inferSelect;
  inactiveAgent: typeof agents.$inferSelect;
  linkedNumber: typeof phoneNumbers.$inferSelect;
  freeNumber: typeof phoneNumbers.$inferSelect;
  notificationId: number;
  subscriptionId: string;
  customerId: string;
  email: string;
  recipient: string;
};
const c = {} as {
  agent: typeof agents.$inferSelect;
  freeAgent: typeof agents.$inferSelect;
  freeAgent2: typeof agents.$inferSelect;
  inactiveAgent: typeof agents.$inferSelect;
  activatedAgentId: number;
  email: string;
  freeNumber: typeof phoneNumbers.$inferSelect;
  freeNumber2: typeof phoneNumbers.$inferSelect;
  linkedNumber: typeof phoneNumbers.$inferSelect;
  ruleId: number;
  notificationId: number;
};

const today = nyToday();
const weekAgo = new Date(Date.now() - 8 * 86_400_000).toISOString().slice(0, 10);
const countsQuery = (agent: Id) => ({ query: `startDate=${weekAgo}&endDate=${today}&callType=Both&agent=${agent}` });

/** A rule body scoped to an agent or a number (its other fields any account may save). */
function ruleBody(scopeKind: "agent" | "number", scopeId: Id) {
  return { ...plainAlertRule("Probe"), scopeKind, scopeId: String(scopeId) };
}

async function keyOf(token: string, scopes: string[]) {
  const res = await call("/api/api-keys", { method: "POST", token, json: { name: "Body ids", scopes } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.secret as string;
}

/** An agent linked to a number, on both sides as assign-number leaves them. */
async function linked(userId: string, numberOverrides: Partial<typeof phoneNumbers.$inferInsert> = {}) {
  const agent = await insertAgent(userId);
  const number = await insertPhoneNumber(userId, { agentId: agent.id, ...numberOverrides });
  await db().update(agents).set({ twilioNumberId: number.id }).where(eq(agents.id, agent.id));
  return { agent, number };
}

async function notification(userId: string) {
  const [row] = await insertRows(alertNotifications, [{ userId, alertId: 0, kind: "fired", title: "Probe", severity: "warning", createdAt: new Date().toISOString() }], await shardOf(userId));
  return row.id;
}

beforeAll(async () => {
  [owner, other] = await Promise.all([signUpAndSignIn(), signUpAndSignIn()]);
  [ownerKey, otherKey] = await Promise.all([keyOf(owner.accessToken, ["calls:read"]), keyOf(other.accessToken, ["calls:read"])]);

  const ownersLink = await linked(owner.userId);
  o.agent = ownersLink.agent;
  o.linkedNumber = ownersLink.number;
  o.freeAgent = await insertAgent(owner.userId);
  o.freeNumber = await insertPhoneNumber(owner.userId, { agentId: null });
  o.inactiveAgent = await insertAgent(owner.userId, {}, { active: false });
  // The owner's calls by its agent, one of each outcome the counts count: what a filter naming that agent would leak.
  for (const endedReason of [CONNECTED_ENDED_REASONS[0], VOICEMAIL_ENDED_REASONS[0], FORWARDED_ENDED_REASONS[0]]) {
    await insertCallLogs(owner.userId, 1, { agentId: o.agent.id, endedReason }, { agent: o.agent });
  }
  o.notificationId = await notification(owner.userId);
  // An extra address of the owner's rules, waiting for its confirmation.
  o.recipient = `owners-recipient-${owner.userId}@example.com`;
  await insertRows(alertRules, [{ userId: owner.userId, ...plainAlertRule("Owner's rule"), extraEmails: JSON.stringify([o.recipient]) }], await shardOf(owner.userId));
  await insertRows(alertMailRecipients, [{ userId: owner.userId, email: o.recipient, unsubscribeId: crypto.randomUUID(), changedAt: new Date().toISOString() }]);
  // A subscription the billing provider holds (one only in D1 would be refused by the provider whoever
  // asks, and the probe would prove nothing), made the owner's in D1.
  const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
  const customer = await call("/api/stripe/create-customer", { method: "POST", token: admin.accessToken, json: { email: `owner-${owner.userId}@example.com` } });
  const sub = await call("/api/stripe/create-subscription", { method: "POST", token: admin.accessToken, json: { customerId: customer.body.customer.id, priceId: "price_local_pro_month" } });
  expect(sub.status, JSON.stringify(sub.body)).toBe(200);
  o.subscriptionId = sub.body.subscription.id;
  await db().update(subscriptions).set({ userId: owner.userId }).where(eq(subscriptions.id, o.subscriptionId));
  o.customerId = `cus_owner_${owner.userId}`;
  o.email = String(decodeJwt(owner.accessToken).email);
  await insertRows(customers, [{ userId: owner.userId, email: o.email, stripeCustomerId: o.customerId, subscriptionId: o.subscriptionId, subscriptionStatus: "active" }]);

  // The caller's own resources, for the fields a probe does not vary and for the controls. Its
  // linked number has no platform id, so unassigning it touches only D1.
  const callersLink = await linked(other.userId, { vapiPhoneNumberId: null });
  c.agent = callersLink.agent;
  c.linkedNumber = callersLink.number;
  c.freeAgent = await insertAgent(other.userId);
  c.freeAgent2 = await insertAgent(other.userId);
  c.email = String(decodeJwt(other.accessToken).email);
  // Agents without an assistant yet: one the control activates, one activated here so a test call
  // has an assistant the voice platform knows.
  c.inactiveAgent = await insertAgent(other.userId, {}, { active: false });
  c.activatedAgentId = (await insertAgent(other.userId, {}, { active: false })).id;
  const activated = await call("/api/create-vapi-assistant", { method: "POST", token: other.accessToken, json: { agent_id: c.activatedAgentId } });
  expect(activated.status, JSON.stringify(activated.body)).toBe(200);
  c.freeNumber = await insertPhoneNumber(other.userId, { agentId: null, vapiPhoneNumberId: null });
  c.freeNumber2 = await insertPhoneNumber(other.userId, { agentId: null, vapiPhoneNumberId: null });
  await insertCallLogs(other.userId, 2, { agentId: c.agent.id }, { agent: c.agent });
  const [rule] = await insertRows(alertRules, [{ userId: other.userId, ...plainAlertRule("Caller's rule"), extraEmails: "[]" }], await shardOf(other.userId));
  c.ruleId = rule.id;
  c.notificationId = await notification(other.userId);
});

const caller = () => other;
const ownerRows = {
  agent: async (id: number) => db().select().from(agents).where(eq(agents.id, id)).get(),
  number: async (id: number) => db().select().from(phoneNumbers).where(eq(phoneNumbers.id, id)).get(),
  agentsAndNumbers: async () => ({
    agents: await db().select().from(agents).where(eq(agents.userId, owner.userId)),
    numbers: await db().select().from(phoneNumbers).where(eq(phoneNumbers.userId, owner.userId)),
  }),
};
const ok = (res: Answer) => expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);

const PROBES: Probe[] = [
  // Alert rules: a scope must be one of the caller's own agents or numbers (400 naming scopeId).
  ...(["POST /api/alerts/rules", "PUT /api/alerts/rules/:id", "POST /api/alerts/test"] as const).flatMap((route): Probe[] =>
    (["agent", "number"] as const).map((kind) => ({
      route,
      field: "scopeId",
      label: `${kind} scope`,
      as: caller,
      request: (id) => ({ json: ruleBody(kind, id) }),
      owners: () => (kind === "agent" ? o.agent.id : o.linkedNumber.id),
      missing: 999_999_999,
      rows: ownerRows.agentsAndNumbers,
      control: { as: caller, id: () => (kind === "agent" ? c.agent.id : c.linkedNumber.id), check: ok },
    })),
  ),
  {
    route: "POST /api/alerts/bell/read",
    field: "ids",
    as: caller,
    request: (id) => ({ json: { ids: [id] } }),
    owners: () => o.notificationId,
    missing: 999_999_999,
    view: (res) => res.body,
    rows: async () => (await shardOf(owner.userId)).select().from(alertNotifications).where(eq(alertNotifications.userId, owner.userId)),
    control: { as: caller, id: () => c.notificationId, check: (res) => expect(res.body).toEqual({ unread: 0 }) },
  },
  {
    route: "POST /api/create-vapi-assistant",
    field: "agent_id",
    as: caller,
    request: (id) => ({ json: { agent_id: id } }),
    owners: () => o.inactiveAgent.id,
    missing: 999_999_999,
    rows: ownerRows.agentsAndNumbers,
    control: { as: caller, id: () => c.inactiveAgent.id, check: ok },
  },
  {
    route: "POST /api/trigger-call",
    field: "agentId",
    as: caller,
    request: (id) => ({ json: { phoneNumber: "+15551234567", agentId: id } }),
    owners: () => o.agent.id,
    missing: 999_999_999,
    rows: ownerRows.agentsAndNumbers,
    control: { as: caller, id: () => c.activatedAgentId, check: ok },
  },
  {
    route: "POST /api/twilio/assign-number",
    field: "phoneNumberId",
    as: caller,
    request: (id) => ({ json: { phoneNumberId: id, agentId: c.freeAgent.id } }),
    owners: () => o.freeNumber.id,
    missing: 999_999_999,
    rows: ownerRows.agentsAndNumbers,
    control: { as: caller, id: () => c.freeNumber.id, check: ok },
  },
  {
    route: "POST /api/twilio/assign-number",
    field: "agentId",
    as: caller,
    request: (id) => ({ json: { phoneNumberId: c.freeNumber2.id, agentId: id } }),
    owners: () => o.freeAgent.id,
    missing: 999_999_999,
    rows: ownerRows.agentsAndNumbers,
    control: { as: caller, id: () => c.freeAgent2.id, check: ok },
  },
  {
    route: "POST /api/twilio/unassign-number",
    field: "phoneNumberId",
    as: caller,
    request: (id) => ({ json: { phoneNumberId: id } }),
    owners: () => o.linkedNumber.id,
    missing: 999_999_999,
    rows: ownerRows.agentsAndNumbers,
    control: { as: caller, id: () => c.linkedNumber.id, check: ok },
  },
  {
    route: "POST /api/twilio/buy",
    field: "phoneNumber",
    label: "a number the owner holds",
    as: caller,
    request: (id) => ({ json: { phoneNumber: id, createInVapi: false } }),
    owners: () => o.freeNumber.phoneNumber,
    missing: "+15125550199",
    rows: ownerRows.agentsAndNumbers,
  },
  {
    route: "POST /api/stripe/cancel-subscription",
    field: "subscriptionId",
    as: caller,
    request: (id) => ({ json: { subscriptionId: id } }),
    owners: () => o.subscriptionId,
    missing: "sub_missing_probe",
    rows: async () => db().select().from(subscriptions).where(eq(subscriptions.userId, owner.userId)),
    control: { as: () => owner, id: () => o.subscriptionId, check: (res) => expect((res.body as Json).subscription).toMatchObject({ cancel_at_period_end: true }) },
  },
  // The customer record: the billing ids are an admin's to set; a customer's own record never takes them.
  ...(["stripe_customer_id", "subscription_id"] as const).map(
    (field): Probe => ({
      route: "POST /api/leads/customers",
      field,
      as: caller,
      request: (id) => ({ json: { email: c.email, [field]: id } }),
      owners: () => (field === "stripe_customer_id" ? o.customerId : o.subscriptionId),
      missing: "missing_probe",
      // The caller's own record, as saved: it must not carry the owner's billing ids.
      view: (res) => {
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const { stripe_customer_id, subscription_id, subscription_status, current_plan } = (res.body as Json).customer;
        return { stripe_customer_id, subscription_id, subscription_status, current_plan };
      },
      rows: async () => db().select().from(customers).where(eq(customers.userId, owner.userId)),
    }),
  ),
  // Filters: another account's agent finds nothing, as an agent that does not exist.
  {
    route: "GET /api/call-logs",
    field: "agent",
    as: caller,
    request: (id) => ({ query: `agent=${id}` }),
    owners: () => o.agent.vapiAssistantId!,
    missing: "asst_missing_probe",
    view: (res) => ({ status: res.status, logs: (res.body as Json).logs }),
    ownerSees: () => owner,
    control: { as: () => owner, id: () => o.agent.vapiAssistantId!, check: (res) => expect((res.body as Json).logs).toHaveLength(3) },
  },
  ...(["GET /api/call-logs/count", "GET /api/call-connected-count", "GET /api/voicemail-count", "GET /api/forwarded-count", "GET /api/call-volume"] as const).map(
    (route): Probe => ({
      route,
      field: "agent",
      as: caller,
      request: countsQuery,
      owners: () => o.agent.vapiAssistantId!,
      missing: "asst_missing_probe",
      view: (res) => ({ status: res.status, body: res.body }),
      ownerSees: () => owner,
    }),
  ),
  {
    route: "GET /api/export-report",
    field: "agent",
    as: caller,
    request: countsQuery,
    owners: () => o.agent.vapiAssistantId!,
    missing: "asst_missing_probe",
    view: (res) => ({ status: res.status, text: (res.body as Json).text }),
    ownerSees: () => owner,
  },
  {
    route: "GET /v1/calls",
    field: "agent_id",
    as: () => ({ key: otherKey }),
    request: (id) => ({ query: `agent_id=${id}` }),
    owners: () => o.agent.id,
    missing: 999_999_999,
    view: (res) => ({ status: res.status, data: (res.body as Json).data }),
    ownerSees: () => ({ key: ownerKey }),
    control: { as: () => ({ key: ownerKey }), id: () => o.agent.id, check: (res) => expect((res.body as Json).data).toHaveLength(3) },
  },
  // Addresses that name the owner's records: refused as any address not the caller's.
  {
    route: "POST /api/alerts/recipients/resend",
    field: "email",
    label: "an extra address of the owner's rules",
    as: caller,
    request: (id) => ({ json: { email: id } }),
    owners: () => o.recipient,
    missing: "nobody-probe@example.com",
    rows: async () => ({
      recipients: await db().select().from(alertMailRecipients).where(eq(alertMailRecipients.userId, owner.userId)),
      mail: await db().select().from(alertMailLog).where(eq(alertMailLog.email, o.recipient)),
    }),
  },
  {
    route: "GET /api/leads/customers/by-email",
    field: "email",
    label: "the owner's customer record",
    as: caller,
    request: (id) => ({ query: `email=${encodeURIComponent(String(id))}` }),
    owners: () => o.email,
    missing: "nobody-probe@example.com",
    control: { as: () => owner, id: () => o.email, check: (res) => expect((res.body as Json).customer).toMatchObject({ stripe_customer_id: o.customerId }) },
  },
  {
    route: "POST /api/leads/customers",
    field: "email",
    label: "the owner's customer record",
    as: caller,
    request: (id) => ({ json: { email: id, company: "Taken over" } }),
    owners: () => o.email,
    missing: "nobody-probe@example.com",
    rows: async () => db().select().from(customers).where(eq(customers.userId, owner.userId)),
  },
  // A batch carries paths, each answered as if sent alone: an id in a path, and a filter's id.
  {
    route: "POST /api/batch",
    field: "requests",
    label: "the agent read and the call filter of another account",
    as: caller,
    request: (id) => ({ json: { requests: [`/api/agents/${typeof id === "number" ? id : 999_999_999}`, `/api/call-logs?agent=${typeof id === "number" ? o.agent.vapiAssistantId : id}`] } }),
    owners: () => o.agent.id,
    missing: "asst_missing_probe",
    view: (res) => {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body as Json).responses.map((r: { status: number; body: string }) => {
        const { requestId: _, ...body } = JSON.parse(r.body) as Json;
        return { status: r.status, body };
      });
    },
    ownerSees: () => owner,
  },
];

/** Per probe: another account's id's status, and a missing id's. */
const answered: string[] = [];

/** Sends a probe's request with `id` as `who`. */
function send(probe: Probe, who: Session | { key: string }, id: Id) {
  const [method, path] = probe.route.split(" ");
  const req = probe.request(id);
  const concrete = path.replace(":id", String(c.ruleId));
  const token = "key" in who ? who.key : who.accessToken;
  return call(req.query ? `${concrete}?${req.query}` : concrete, { method, token, ...(req.json !== undefined ? { json: req.json } : {}) });
}

/** The fields of a route's body, query and form, nested ones by their own name. */
function fieldsOf(declared: { body?: z.ZodType; query?: z.ZodType; form?: z.ZodType }): string[] {
  const found = new Set<string>();
  const walk = (schema: unknown) => {
    if (!schema || typeof schema !== "object") return;
    const s = schema as Record<string, unknown>;
    for (const [name, sub] of Object.entries((s.properties as Record<string, unknown>) ?? {})) {
      found.add(name);
      walk(sub);
    }
    for (const k of ["anyOf", "oneOf", "allOf", "prefixItems"]) for (const sub of (s[k] as unknown[]) ?? []) walk(sub);
    for (const k of ["$defs", "definitions"]) for (const sub of Object.values((s[k] as Record<string, unknown>) ?? {})) walk(sub);
    walk(s.items);
    walk(s.additionalProperties);
  };
  for (const schema of [declared.body, declared.query, declared.form]) if (schema) walk(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }));
  return [...found];
}

describe("ids in bodies and queries, across accounts", () => {
  it("probes every id-like body or query field of every route, or names why it is exempt", () => {
    const all = { ...ROUTES, ...V1_ROUTES } as Record<string, { body?: z.ZodType; query?: z.ZodType; form?: z.ZodType }>;
    const fields = Object.entries(all).flatMap(([route, declared]) => fieldsOf(declared).map((field) => `${route} ${field}`));
    const probed = new Set(PROBES.map((p) => `${p.route} ${p.field}`));
    expect(
      fields.filter((f) => ID_LIKE.test(f.slice(f.lastIndexOf(" ") + 1)) && !probed.has(f) && !(f in EXEMPT)),
      "id-like fields no probe covers: add a probe to PROBES (or a reason to EXEMPT)",
    ).toEqual([]);
    expect(
      [...probed, ...Object.keys(EXEMPT)].filter((f) => !fields.includes(f)),
      "probes or exemptions naming a field no route takes",
    ).toEqual([]);
  });

  for (const probe of PROBES) {
    const name = `${probe.route} ${probe.field}${probe.label ? ` (${probe.label})` : ""}`;
    it(`${name}: another account's id answers as a missing one, and the owner's rows stay`, async () => {
      const before = await probe.rows?.();
      const probed = await send(probe, probe.as(), probe.owners());
      const missing = await send(probe, probe.as(), probe.missing);
      const detail = `${probe.route} ${probe.field}: ${probed.status} ${JSON.stringify(probed.body).slice(0, 300)}`;
      expect(probed.status, detail).not.toBe(500);
      if (probe.view) {
        expect(probe.view(probed), detail).toEqual(probe.view(missing));
      } else {
        expect(probed.status, detail).toBeGreaterThanOrEqual(400);
        expect(probed.status, detail).toBeLessThan(500);
        expect({ status: probed.status, code: probed.body.code, field: probed.body.field }, detail).toEqual({
          status: missing.status,
          code: missing.body.code,
          field: missing.body.field,
        });
      }
      if (probe.rows) expect(await probe.rows(), `${probe.route} ${probe.field}: the owner's rows changed`).toEqual(before);
      if (probe.ownerSees && probe.view) {
        const [own, none] = [await send(probe, probe.ownerSees(), probe.owners()), await send(probe, probe.ownerSees(), probe.missing)];
        expect(probe.view(own), `${probe.route} ${probe.field}: the owner's own id must find what a missing one does not`).not.toEqual(probe.view(none));
      }
      answered.push(`${name} | ${probed.status} | ${missing.status}`);
      if (probe.control) {
        const res = await send(probe, probe.control.as(), probe.control.id());
        expect(res.status, `control of ${probe.route} ${probe.field}: ${JSON.stringify(res.body).slice(0, 300)}`).toBeLessThan(300);
        probe.control.check(res);
      }
    });
  }
});

afterAll(() => {
  console.log(`\nIds in bodies and queries (route field | another account's id | a missing id), ${answered.length} probes\n${answered.join("\n")}`);
});
