// The webhooks' upkeep across shards (decision 078): the requeue runs on every shard at once, its
// messages naming the shard of their delivery, and a shard whose database fails is reported by name
// after the others have queued theirs.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ShardsFailed, type Shard } from "../db/shards";
import { parseConfig } from "../env";
import { createEndpoint, sendTestEvent } from "../webhooks/endpoints";
import type { WebhookEnv, WebhookMessage } from "../webhooks/enqueue";
import { db, shardNameOf, shardOf, signUpAndSignIn, testShards } from "../test/helpers";
import { webhookRequeueJob } from "./webhooks";
import { unreachableShard } from "../test/admin-databases";

const sent: WebhookMessage[] = [];
const queue = {
  sendBatch: (messages: Iterable<MessageSendRequest<WebhookMessage>>) => {
    for (const m of messages) sent.push(m.body);
    return Promise.resolve();
  },
} as unknown as Queue;

/** A Pro account's test delivery whose queue message was lost (never sent), on the account's shard. */
async function lostDelivery(at: Date) {
  const s = await signUpAndSignIn();
  const shard = { name: await shardNameOf(s.userId), db: await shardOf(s.userId) };
  const deps = { db: db(), shard, queue: undefined, production: false, now: at, actor: { id: s.userId, email: s.email, ip: null } };
  const { endpoint } = await createEndpoint(deps, s.userId, { url: "https://hooks.example.com/in", description: "", events: ["test"] });
  const { deliveryId } = await sendTestEvent(deps, s.userId, endpoint.id);
  return { deliveryId, shard: shard.name };
}

describe("the webhook requeue across shards", () => {
  it("queues each shard's lost deliveries naming their shard, and names a failing shard after the others have run", async () => {
    const at = new Date("2026-11-02T12:00:00.000Z");
    const later = new Date(at.getTime() + 20 * 60_000);
    const ctx = (shards: Shard[]) => ({ db: db(), shards, config: parseConfig(env as unknown as Record<string, unknown>), now: later, webhooks: { ...(env as unknown as WebhookEnv), WEBHOOK_QUEUE: queue } });
    const [first, second] = testShards();
    // One lost delivery on each shard (accounts land on either: made until both have one).
    const lost = new Map<string, { deliveryId: string; shard: string }>();
    for (let tries = 0; lost.size < 2 && tries < 30; tries++) {
      const d = await lostDelivery(at);
      if (!lost.has(d.shard)) lost.set(d.shard, d);
    }
    expect([...lost.keys()].sort()).toEqual([first.name, second.name].sort());
    sent.length = 0;
    await webhookRequeueJob.run(ctx(testShards()));
    for (const d of lost.values()) expect(sent).toContainEqual({ deliveryId: d.deliveryId, attempt: 1, shard: d.shard });

    // Lost again; the second shard's database fails: the first's is queued, the second is named.
    const again = new Date(later.getTime() + 20 * 60_000);
    sent.length = 0;
    const failure = await webhookRequeueJob.run({ ...ctx([first, unreachableShard(second.name)]), now: again }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(ShardsFailed);
    expect((failure as Error).message).toContain(`${second.name}: D1_ERROR: ${second.name} is unreachable`);
    expect(sent).toContainEqual({ deliveryId: lost.get(first.name)!.deliveryId, attempt: 1, shard: first.name });
    expect(sent.some((m) => m.shard === second.name)).toBe(false);
  });
});
