// The webhook channel of an alert event (the mail and the bell are written by ./evaluate.ts itself).
import { enqueueWebhookEvent, type WebhookEnv } from "../../webhooks/enqueue";
import type { AlertEvent, WebhookChannel } from "./evaluate";

/**
 * The account's webhook endpoints that subscribe to `alert.triggered` / `alert.resolved` are sent
 * the alert as the event's data, through the custom webhooks' queue (decision 070), on the shard the
 * rule was evaluated on (the account's, decision 078). Without the bindings (a caller that has none)
 * nothing is sent.
 */
export function webhookChannel(env: WebhookEnv | undefined): WebhookChannel {
  return async (event: AlertEvent, shard) => {
    if (!env) return;
    await enqueueWebhookEvent(env, { id: event.userId, shard: shard.name }, event.type, event.alert);
  };
}
