// Every write path announces its committed change, and the change reaches every subscriber listed
// for it (./subscribers.ts): a path that stops emitting, or a subscriber dropped from the list, fails
// here. What each subscriber then does is tested with it (worker/live/live.test.ts for the live feed,
// worker/routes/call-search.test.ts for the search index).
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { app } from "../app";
import { AIRCALL_WEBHOOK_PATH, DEV_AIRCALL_WEBHOOK_TOKEN } from "../providers/callcentre/aircall-events";
import { DEV_VAPI_WEBHOOK_SECRET } from "../providers/voice/local";
import { DEV_INGEST_API_KEY } from "../routes/ingest";
import { aircallCall } from "../test/aircall";
import { COMPLETE_AGENT_FIELDS, ingestAppointmentRecord, insertAgent } from "../test/factories";
import { call, shardNameOf, signUpAndSignIn } from "../test/helpers";
import { VAPI_STANDIN } from "../test/standins/vapi";
import { SUBSCRIBERS } from "./subscribers";
import type { ChangeName, Subscriber } from "./types";

type Heard = { change: ChangeName; subscriber: string; payload: Record<string, unknown> };
let heard: Heard[] = [];

// Each subscriber is replaced by a recorder: the test sees who heard what, and nothing else runs.
beforeEach(() => {
  heard = [];
  for (const [change, subscribers] of Object.entries(SUBSCRIBERS) as [ChangeName, Subscriber<ChangeName>[]][]) {
    for (const subscriber of subscribers) {
      vi.spyOn(subscriber, "run").mockImplementation((_c, payload) => {
        heard.push({ change, subscriber: subscriber.name, payload: payload as Record<string, unknown> });
        return Promise.resolve();
      });
    }
  }
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The voice platform as production has it (the VAPI adapter against its stand-in). */
const vapiBindings = () => ({ VAPI_PRIVATE_KEY: VAPI_STANDIN.privateKey, VAPI_BASE_URL: inject("standins").vapi, VAPI_PHONE_NUMBER_ID: "pn-fan-out" });

/** Sends a request through the Worker with an execution context, as production does, and waits for what it left running. */
async function dispatch(path: string, init: { method: string; token?: string; json?: unknown; headers?: Record<string, string>; bindings?: Record<string, unknown> }) {
  const headers = new Headers(init.headers);
  headers.set("cf-connecting-ip", `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  if (init.json !== undefined) headers.set("content-type", "application/json");
  const ctx = createExecutionContext();
  const request = new Request(`http://localhost${path}`, { method: init.method, headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
  const res = await app.fetch(request, { ...env, ...init.bindings }, ctx);
  await waitOnExecutionContext(ctx);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

/** Every subscriber listed for `change` heard it with (at least) `payload`. */
function expectFannedOut(change: ChangeName, payload: Record<string, unknown>) {
  const names = SUBSCRIBERS[change].map((s) => s.name);
  expect(names.length).toBeGreaterThan(0);
  for (const name of names) {
    const got = heard.filter((h) => h.change === change && h.subscriber === name).map((h) => h.payload);
    expect(got, `${change} → ${name}`).toContainEqual(expect.objectContaining(payload));
  }
}

describe("the subscribers, listed in one place", () => {
  it("tell the live feed, the search index and the alerts of changed calls, the first two of deleted accounts, the webhooks of reported calls, the live feed of access and store changes", () => {
    const names = Object.fromEntries(Object.entries(SUBSCRIBERS).map(([change, subscribers]) => [change, subscribers.map((s) => s.name)]));
    expect(names).toEqual({
      callsChanged: ["live feed", "search index", "alerts"],
      callReported: ["webhooks"],
      accountsDeleted: ["live feed", "search index"],
      accessChanged: ["live feed"],
      storeChanged: ["live feed"],
    });
  });
});

describe("calls changed", () => {
  it("the VAPI webhook: once per new event, not for a duplicate delivery", async () => {
    const s = await signUpAndSignIn();
    const assistantId = `asst-${crypto.randomUUID()}`;
    await insertAgent(s.userId, { vapiAssistantId: assistantId, name: "Fan-out desk" });
    const id = crypto.randomUUID();
    const message = {
      type: "status-update",
      status: "in-progress",
      timestamp: Date.now(),
      call: { id, orgId: "org-1", type: "outboundPhoneCall", status: "in-progress", assistantId, phoneNumberId: "pn-1", customer: { number: "+13055550100" }, createdAt: new Date().toISOString() },
    };
    const post = () => dispatch("/api/webhooks/vapi", { method: "POST", json: { message }, headers: { "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET } });
    expect((await post()).body).toMatchObject({ received: true, duplicate: false });
    expectFannedOut("callsChanged", { userId: s.userId, callIds: [id] });
    // The account's shard rides along, so its webhooks need no second lookup of it.
    expectFannedOut("callReported", { userId: s.userId, shard: await shardNameOf(s.userId), platformType: "status-update" });
    heard = [];
    expect((await post()).body).toMatchObject({ received: true, duplicate: true });
    expect(heard).toEqual([]);
  });

  it("activation (the assistant's earlier calls adopted) and the test call", async () => {
    const s = await signUpAndSignIn();
    const bindings = vapiBindings();
    const created = await dispatch("/api/agents", { method: "POST", token: s.accessToken, json: { name: "Fan-out desk", ...COMPLETE_AGENT_FIELDS } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const agentId = (created.body.agent as { id: number }).id;
    const activated = await dispatch("/api/create-vapi-assistant", { method: "POST", token: s.accessToken, json: { agent_id: agentId }, bindings });
    expect(activated.status, JSON.stringify(activated.body)).toBe(200);
    expectFannedOut("callsChanged", { userId: s.userId, assistantId: activated.body.id });
    heard = [];
    const placed = await dispatch("/api/trigger-call", { method: "POST", token: s.accessToken, json: { phoneNumber: "+15551234567" }, bindings });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expectFannedOut("callsChanged", { userId: s.userId, callIds: [placed.body.callId] });
  });

  it("a test call the plan refuses announces nothing", async () => {
    const s = await signUpAndSignIn({ plan: null });
    const placed = await dispatch("/api/trigger-call", { method: "POST", token: s.accessToken, json: { phoneNumber: "+15551234567" }, bindings: vapiBindings() });
    expect(placed.status).toBe(402);
    expect(heard).toEqual([]);
  });
});

describe("accounts deleted", () => {
  it("an admin's cleanup, for every account under the email", async () => {
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    const s = await signUpAndSignIn();
    const res = await dispatch("/api/admin/cleanup-user", { method: "POST", token: admin.accessToken, json: { email: s.email } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectFannedOut("accountsDeleted", { userIds: [s.userId] });
  });
});

describe("access changed", () => {
  it("an admin's change of flags, a password change and a sign-out", async () => {
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    const s = await signUpAndSignIn();
    expect((await dispatch(`/api/admin/users/${s.userId}/flags`, { method: "PUT", token: admin.accessToken, json: { call_app: true } })).status).toBe(200);
    expectFannedOut("accessChanged", { userId: s.userId });
    heard = [];
    const changed = await dispatch("/auth/v1/user", { method: "PUT", token: s.accessToken, json: { password: "Another456", current_password: s.password } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expectFannedOut("accessChanged", { userId: s.userId });
    heard = [];
    expect((await dispatch("/auth/v1/logout?scope=global", { method: "POST", token: s.accessToken })).status).toBe(204);
    expectFannedOut("accessChanged", { userId: s.userId });
  });
});

describe("store data changed", () => {
  it("an Aircall webhook, ingested appointments and ingested leads, with their New York days", async () => {
    const startedAt = Math.floor(Date.parse("2026-04-03T15:00:00Z") / 1000);
    const aircall = await dispatch(AIRCALL_WEBHOOK_PATH, {
      method: "POST",
      json: { resource: "call", event: "call.ended", timestamp: startedAt + 200, token: DEV_AIRCALL_WEBHOOK_TOKEN, data: aircallCall(1_980_000_000 + Math.floor(Math.random() * 1e6), startedAt) },
    });
    expect(aircall.status, JSON.stringify(aircall.body)).toBe(200);
    expectFannedOut("storeChanged", { kind: "aircall", days: ["2026-04-03"] });
    const key = { authorization: `Bearer ${DEV_INGEST_API_KEY}` };
    const appointment = ingestAppointmentRecord(`fan-out-${crypto.randomUUID()}`);
    expect((await dispatch("/api/ingest/appointments", { method: "POST", headers: key, json: { appointments: [appointment] } })).status).toBe(200);
    expectFannedOut("storeChanged", { kind: "appointment", days: ["2026-04-14", "2026-04-02"] });
    const lead = { external_id: `lead-${crypto.randomUUID()}`, store: "TULSA", submitted_at: "2026-04-05T09:15:00-05:00", email: "jane@example.com" };
    expect((await dispatch("/api/ingest/leads", { method: "POST", headers: key, json: { leads: [lead] } })).status).toBe(200);
    expectFannedOut("storeChanged", { kind: "lead", days: ["2026-04-05"] });
  });
});

describe("after the commit, whatever a subscriber does", () => {
  it("a subscriber that fails is logged; the answer stands and the others still hear the change", async () => {
    const [live] = SUBSCRIBERS.callsChanged;
    vi.mocked(live.run).mockImplementation(() => {
      throw new Error("the feed is down");
    });
    const s = await signUpAndSignIn();
    const created = await dispatch("/api/agents", { method: "POST", token: s.accessToken, json: { name: "Fan-out desk", ...COMPLETE_AGENT_FIELDS } });
    const activated = await dispatch("/api/create-vapi-assistant", { method: "POST", token: s.accessToken, json: { agent_id: (created.body.agent as { id: number }).id }, bindings: vapiBindings() });
    expect(activated.status, JSON.stringify(activated.body)).toBe(200);
    expect(heard.map((h) => h.subscriber)).toEqual(["search index", "alerts"]);
  });

  it("without an execution context (a test's app.request) the live feed still hears, the search index is left to its healing pass", async () => {
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    const s = await signUpAndSignIn();
    const res = await call("/api/admin/cleanup-user", { method: "POST", token: admin.accessToken, json: { email: s.email } });
    expect(res.status).toBe(200);
    expect(heard.map((h) => `${h.change} → ${h.subscriber}`)).toEqual(["accountsDeleted → live feed"]);
  });
});
