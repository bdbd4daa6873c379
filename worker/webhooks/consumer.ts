// The queue handler's dependencies from the Worker's bindings: the directory's and the shards' primaries, the real network
// (every host name resolved over DNS over HTTPS first, production or not), the local receiver
// in-process outside production, and the product's mail for disabled endpoints.
import { WEBHOOK_RETRY_DELAYS_SECONDS } from "@shared/webhooks";
import { createDb } from "../db/client";
import { primaryOf } from "../db/sessions";
import { parseConfig, type Bindings } from "../env";
import { createMail } from "../providers";
import { handleWebhookBatch, type DeliveryDeps } from "./deliver";
import { shardPrimary } from "./enqueue";
import { urlChecks } from "./url-safety";

export function deliveryDeps(env: Bindings, appFetch: (request: Request) => Promise<Response>): DeliveryDeps {
  const config = parseConfig(env);
  const production = config.APP_ENV === "production";
  const db = createDb(primaryOf(env.DB));
  const delays = !production && config.WEBHOOK_RETRY_DELAYS ? [0, ...config.WEBHOOK_RETRY_DELAYS.split(",").map(Number)] : WEBHOOK_RETRY_DELAYS_SECONDS;
  return {
    db,
    shard: (name) => shardPrimary(env, name).db,
    queue: env.WEBHOOK_QUEUE,
    production,
    now: () => new Date(),
    fetch: (input, init) => fetch(input, init),
    localDeliver: production ? undefined : appFetch,
    ...urlChecks(config),
    mail: createMail(config, db),
    delays,
  };
}

/** The queue's messages are parsed one by one by handleWebhookBatch, so the batch is taken as unknown. */
export function consumeWebhooks(batch: MessageBatch<unknown>, env: Bindings, appFetch: (request: Request) => Promise<Response>) {
  return handleWebhookBatch(batch, deliveryDeps(env, appFetch));
}
