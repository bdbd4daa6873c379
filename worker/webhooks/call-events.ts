// What a voice-platform event of a call sends to webhooks (docs/webhooks.md#events): the status
// update "in-progress" is `call.started`; the end-of-call report is `call.ended`, with the summary,
// the ended reason and the transcript it carries. Every other event sends nothing.
import type { PlatformCall } from "@shared/schemas/call-logs";
import type { WebhookEventType } from "@shared/webhooks";
import { enqueueWebhookEvent, type WebhookEnv } from "./enqueue";

const DIRECTIONS: Record<PlatformCall["type"], string> = { inboundPhoneCall: "inbound", outboundPhoneCall: "outbound", webCall: "web" };

/** The webhook event of a platform event, or null when it sends none. */
export function callWebhookEvent(platformType: string, call: PlatformCall): { type: WebhookEventType; data: Record<string, unknown> } | null {
  const base = {
    call_id: call.id,
    assistant_id: call.assistantId,
    agent_id: call.metadata?.agentId ?? null,
    direction: DIRECTIONS[call.type],
    customer_number: call.customer.number,
    created_at: call.createdAt,
    started_at: call.startedAt,
  };
  if (platformType === "status-update" && call.status === "in-progress") return { type: "call.started", data: { ...base, status: call.status } };
  if (platformType === "end-of-call-report") {
    return {
      type: "call.ended",
      data: {
        ...base,
        status: call.status,
        ended_at: call.endedAt,
        ended_reason: call.endedReason,
        duration_seconds: call.duration,
        summary: call.summary,
        transcript: call.transcript,
        recording_url: call.recordingUrl,
        cost: call.cost,
      },
    };
  }
  return null;
}

/**
 * Sends a recorded platform event of an account's call to its webhooks (nothing for a call no account
 * owns), on the account's shard: the one the webhook wrote the call to, else read from the directory.
 */
export async function sendCallWebhook(env: WebhookEnv, account: { id: string | null; shard?: string | null }, platformType: string, call: PlatformCall) {
  const event = account.id ? callWebhookEvent(platformType, call) : null;
  if (!event || !account.id) return;
  await enqueueWebhookEvent(env, account.shard ? { id: account.id, shard: account.shard } : account.id, event.type, event.data);
}
