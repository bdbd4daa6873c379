// The producer at the voice webhook: a call's status update "in-progress" writes a call.started
// delivery and its queue message for each endpoint of the call's owner subscribed to it, the
// end-of-call report a call.ended with the summary, the ended reason and the transcript; a repeated
// report, a call no account owns and an unsubscribed event send nothing.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { app } from "../app";
import { webhookDeliveries } from "../db/schema";
import { DEV_VAPI_WEBHOOK_SECRET } from "../providers/voice/local";
import { insertAgent } from "../test/factories";
import { db, shardNameOf, shardOf, signUpAndSignIn, testShards } from "../test/helpers";
import { vapiReport } from "../test/payloads";
import { createEndpoint } from "./endpoints";
import type { WebhookMessage } from "./enqueue";

let sent: WebhookMessage[] = [];
const queue = {
  send: (body: WebhookMessage) => Promise.resolve(void sent.push(body)),
  sendBatch: (messages: Iterable<{ body: WebhookMessage }>) => Promise.resolve(void sent.push(...[...messages].map((m) => m.body))),
} as unknown as Queue;

beforeEach(() => {
  sent = [];
});

/** Posts a VAPI message through the Worker with an execution context, as production runs it, and waits for its subscribers. */
async function post(message: unknown) {
  const ctx = createExecutionContext();
  const headers = { "content-type": "application/json", "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET, "cf-connecting-ip": "10.1.2.3" };
  const res = await app.fetch(new Request("http://localhost/api/webhooks/vapi", { method: "POST", headers, body: JSON.stringify(message) }), { ...env, WEBHOOK_QUEUE: queue }, ctx);
  await waitOnExecutionContext(ctx);
  return (await res.json()) as { duplicate?: boolean };
}

async function ownerWithEndpoint(events: ("call.started" | "call.ended")[]) {
  const s = await signUpAndSignIn();
  const assistantId = `asst-${crypto.randomUUID()}`;
  await insertAgent(s.userId, { vapiAssistantId: assistantId });
  const shard = { name: await shardNameOf(s.userId), db: await shardOf(s.userId) };
  const { endpoint } = await createEndpoint({ db: db(), shard, queue, production: false, actor: { id: s.userId, email: s.email, ip: null } }, s.userId, {
    url: "https://hooks.example.com/calls",
    description: "",
    events,
  });
  return { ...s, assistantId, endpointId: endpoint.id };
}

/** The endpoint's deliveries, on its account's shard (decision 078). */
const deliveriesOf = async (endpointId: string) =>
  (await Promise.all(testShards().map((shard) => shard.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId))))).flat();

describe("call events to webhooks", () => {
  it("in-progress is call.started; the end-of-call report is call.ended with summary, ended reason and transcript; once each", async () => {
    const { assistantId, endpointId } = await ownerWithEndpoint(["call.started", "call.ended"]);
    const callId = crypto.randomUUID();
    const started = {
      message: {
        type: "status-update",
        status: "in-progress",
        timestamp: Date.now(),
        call: { id: callId, orgId: "org-1", type: "outboundPhoneCall", status: "in-progress", assistantId, customer: { number: "+13055550100" }, createdAt: new Date().toISOString() },
      },
    };
    await post(started);
    await post(vapiReport(callId, assistantId));
    expect((await post(vapiReport(callId, assistantId))).duplicate).toBe(true);
    const rows = await deliveriesOf(endpointId);
    expect(rows.map((r) => r.eventType).sort()).toEqual(["call.ended", "call.started"]);
    expect(sent.map((m) => m.deliveryId).sort()).toEqual(rows.map((r) => r.id).sort());
    const ended = JSON.parse(rows.find((r) => r.eventType === "call.ended")!.payload) as { data: Record<string, unknown> };
    expect(ended.data).toMatchObject({
      call_id: callId,
      assistant_id: assistantId,
      direction: "outbound",
      ended_reason: "customer-ended-call",
      summary: "The customer booked a hearing test for Friday.",
      transcript: expect.anything(),
    });
    const begun = JSON.parse(rows.find((r) => r.eventType === "call.started")!.payload) as { data: Record<string, unknown> };
    expect(begun.data).toMatchObject({ call_id: callId, status: "in-progress", customer_number: "+13055550100" });
  });

  it("sends nothing for an event the endpoint does not subscribe to, nor for a call no account owns", async () => {
    const { assistantId, endpointId } = await ownerWithEndpoint(["call.started"]);
    await post(vapiReport(crypto.randomUUID(), assistantId));
    await post(vapiReport(crypto.randomUUID(), `asst-nobody-${crypto.randomUUID()}`));
    expect(await deliveriesOf(endpointId)).toEqual([]);
    expect(sent).toEqual([]);
  });
});
