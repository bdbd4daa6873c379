// The channels of an alert event besides the mail and the bell (which ./evaluate.ts writes itself).
import type { Database } from "../../db/client";
import { log } from "../../lib/log";
import type { AlertEvent, WebhookChannel } from "./evaluate";

/**
 * The webhook channel: the account's webhook endpoints are told `alert.triggered` / `alert.resolved`
 * with the alert as the event's data. This is the one call site of the webhooks' enqueue
 * (`enqueueWebhookEvent(env, userId, type, data)` of worker/webhooks/enqueue.ts, issue 35); until that
 * module is on this branch the event is only logged.
 */
export function webhookChannel(db: Database): WebhookChannel {
  void db;
  return async (event: AlertEvent) => {
    // WEBHOOK CALL SITE: enqueueWebhookEvent(env, event.userId, event.type, event.alert)
    log(null, "info", "alert webhook event", { type: event.type, userId: event.userId, alertId: event.alert.id });
  };
}
