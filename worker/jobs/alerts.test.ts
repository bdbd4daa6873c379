// The minute cron of the alerts across shards (decision 078): every shard's rules are evaluated over
// that shard's calls at once, and a shard whose database fails is reported by name after the others
// have evaluated and recorded theirs.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callLogs, profiles } from "../db/schema";
import { ShardsFailed, type Shard } from "../db/shards";
import { parseConfig } from "../env";
import { createRule } from "../services/alerts/rules";
import { alertRuleBody } from "@shared/schemas/alerts";
import { LocalMail } from "../providers/mail/local";
import type { CurrentUser } from "../services/profiles";
import { db, shardOf, testShards } from "../test/helpers";
import { alertJob } from "./alerts";
import { unreachableShard } from "../test/admin-databases";

const NOW = new Date("2026-05-20T16:07:30.000Z");
const ctx = (shards: Shard[]) => ({ db: db(), shards, config: parseConfig(env as unknown as Record<string, unknown>), now: NOW });

/** An account placed on `shard`, with a rule firing at one call of the last 15 minutes and that call. */
async function breachingAccount(shard: string): Promise<CurrentUser> {
  const id = crypto.randomUUID();
  const email = `${id}@example.com`;
  await db().insert(profiles).values({ id, email, shard });
  const user: CurrentUser = { id, email, username: null, company: null, firstName: null, lastName: null, isAdmin: false, shopwindowsInfo: false, callApp: false, shard };
  const shardDb = await shardOf(id);
  const body = alertRuleBody.parse({ name: "Any call", metric: "call_count", scopeKind: "all", scopeId: "", comparison: "gte", threshold: 1, windowMinutes: 15, cooldownMinutes: 5, severity: "warning" });
  await createRule({ directory: db(), shard: shardDb }, user, body, new Date(NOW.getTime() - 3_600_000), { db: db(), mail: new LocalMail(db()), publicUrl: "https://app.example" });
  await shardDb.insert(callLogs).values({ userId: id, callId: `call-${crypto.randomUUID()}`, direction: "inbound", status: "ended", startTime: new Date(NOW.getTime() - 60_000).toISOString() });
  return user;
}

const fired = async (user: CurrentUser) =>
  (await (await shardOf(user.id)).$client.prepare("SELECT rule_name FROM alert_history WHERE user_id = ?").bind(user.id).all<{ rule_name: string }>()).results;

describe("the alert cron across shards", () => {
  it("evaluates the rules of both shards, each over its own calls", async () => {
    const [first, second] = testShards();
    const a = await breachingAccount(first.name);
    const b = await breachingAccount(second.name);
    const run = (await alertJob.run(ctx(testShards()))) as { fired: number; shards: Record<string, { fired: number }> };
    expect(await fired(a)).toEqual([{ rule_name: "Any call" }]);
    expect(await fired(b)).toEqual([{ rule_name: "Any call" }]);
    expect(Object.keys(run.shards).sort()).toEqual([first.name, second.name].sort());
    expect(run.shards[first.name].fired).toBeGreaterThanOrEqual(1);
    expect(run.shards[second.name].fired).toBeGreaterThanOrEqual(1);
  });

  it("with one shard's database failing, still evaluates the other and reports the failed shard by name", async () => {
    const [healthy, broken] = testShards();
    const a = await breachingAccount(healthy.name);
    const b = await breachingAccount(broken.name);
    const failure = await alertJob.run(ctx([healthy, unreachableShard(broken.name)])).then(
      () => null,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(ShardsFailed);
    expect((failure as Error).message).toContain(`${broken.name}: D1_ERROR: ${broken.name} is unreachable`);
    expect((failure as Error).message).not.toContain(`${healthy.name}:`);
    // The healthy shard's alert was recorded; the broken one's rule was never read.
    expect(await fired(a)).toEqual([{ rule_name: "Any call" }]);
    expect(await fired(b)).toEqual([]);
  });
});
