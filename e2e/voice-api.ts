// Journey set-up and checks around the voice platform and webhooks on a local server: VAPI's end-of-call
// report as VAPI sends it, and what the local webhook receiver heard.
import { json } from "./harness.ts";

/** The webhook secret every local server takes (worker/providers/voice/local.ts DEV_VAPI_WEBHOOK_SECRET). */
const DEV_VAPI_WEBHOOK_SECRET = "local-development-vapi-webhook-secret-0001";

/**
 * An inbound call of the agent that ended just now after `minutes` (1 by default), reported as VAPI
 * reports it: `endedReason` (the caller hung up by default), summary and cost as given.
 */
export async function reportEndedCall(
  baseUrl: string,
  assistantId: string,
  { minutes = 1, endedReason = "customer-ended-call", summary = "A call.", cost }: { minutes?: number; endedReason?: string; summary?: string; cost?: number } = {},
) {
  const end = Date.now();
  const start = end - minutes * 60_000;
  const message = {
    type: "end-of-call-report",
    endedReason,
    startedAt: new Date(start).toISOString(),
    endedAt: new Date(end).toISOString(),
    ...(cost === undefined ? {} : { cost }),
    analysis: { summary },
    artifact: { transcript: "AI: Hello.", messages: [] },
    call: {
      id: crypto.randomUUID(),
      type: "inboundPhoneCall",
      status: "ended",
      assistantId,
      customer: { number: "+13055550100" },
      createdAt: new Date(start).toISOString(),
      duration: minutes * 60,
    },
  };
  const headers = { "content-type": "application/json", "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET };
  await json(await fetch(`${baseUrl}/api/webhooks/vapi`, { method: "POST", headers, body: JSON.stringify({ message }) }));
}

/** A delivery the local webhook receiver heard, as GET /api/local/webhook-inbox lists it. */
export type InboxEntry = { webhookId: string | null; eventType: string | null; verified: boolean; receivedAt: string };

/** The local receiver's inbox `name`, oldest first. */
export async function webhookInbox(baseUrl: string, name: string): Promise<InboxEntry[]> {
  const body = (await json(await fetch(`${baseUrl}/api/local/webhook-inbox?inbox=${name}`))) as { deliveries: InboxEntry[] };
  return body.deliveries.reverse();
}
