// The daily provider sync: an account deleted at the identity provider (not through the admin's
// clean-up) loses its API keys, webhook endpoints, alert rules and report mail; every other account keeps them.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ADMIN_API_TEXT } from "@shared/messages";
import { alertRuleState, alertRules, apiKeys, authUsers, reportMailSubscriptions, webhookEndpoints } from "../db/schema";
import { parseConfig } from "../env";
import type { IdentityPort } from "../providers/identity/port";
import { closeGoneAccounts } from "../services/admin/gone-accounts";
import { insertRows } from "../test/factories";
import { call, db, shardNameOf, shardOf, signUpAndSignIn, testShards } from "../test/helpers";
import { createDb } from "../db/client";
import { identitySyncJob } from "./identity-sync";
import { DAILY_CRON, jobsByCron } from "./index";

const ctx = () => ({ db: db(), shards: testShards(), config: parseConfig(env as unknown as Record<string, unknown>), now: new Date() });

/** An account with a live key (its secret), an enabled endpoint, a rule and the report mail on. */
async function accountWithAccess() {
  const session = await signUpAndSignIn();
  const created = await call("/api/api-keys", { method: "POST", token: session.accessToken, json: { name: "integration", scopes: ["calls:read"] } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const endpointId = `we_${crypto.randomUUID().replace(/-/g, "")}`;
  // Endpoints and rules live on the account's shard (decision 076).
  const shard = await shardOf(session.userId);
  await insertRows(webhookEndpoints, [{ id: endpointId, userId: session.userId, url: "https://example.com/hook", events: '["call.ended"]', secret: "whsec_sync" }], shard);
  const [rule] = await insertRows(alertRules, [
    {
      userId: session.userId,
      name: "Calls",
      metric: "call_count",
      scopeKind: "all",
      comparison: "gte",
      threshold: 1,
      windowMinutes: 60,
      cooldownMinutes: 60,
      severity: "warning",
    },
  ], shard);
  await insertRows(alertRuleState, [{ ruleId: rule.id, userId: session.userId, since: new Date().toISOString() }], shard);
  await insertRows(reportMailSubscriptions, [{ userId: session.userId, subscribed: true, changedAt: new Date().toISOString() }]);
  return { ...session, secret: created.body.secret as string, keyId: created.body.key.id as string, endpointId, ruleId: rule.id };
}

const v1Calls = (secret: string) => call("/v1/calls", { headers: { authorization: `Bearer ${secret}` } });

describe("the provider sync of accounts", () => {
  it("runs every day", () => {
    expect(jobsByCron[DAILY_CRON]).toContain(identitySyncJob);
  });

  it("revokes the keys, disables the endpoints and deletes the rules of an account the provider no longer has", async () => {
    const gone = await accountWithAccess();
    const kept = await accountWithAccess();
    expect((await v1Calls(gone.secret)).status).toBe(200);

    // Deleted at the identity provider itself (here the local one), not through the admin's clean-up.
    await db().delete(authUsers).where(eq(authUsers.id, gone.userId));
    expect((await v1Calls(gone.secret)).status, "the key works until the sync").toBe(200);

    const result = (await identitySyncJob.run(ctx())) as Awaited<ReturnType<typeof closeGoneAccounts>>;
    expect(result).toMatchObject({ gone: [gone.userId], keysRevoked: 1, endpointsDisabled: 1, rulesDeleted: 1, reportMailStopped: 1 });

    expect((await v1Calls(gone.secret)).status).toBe(401);
    expect((await db().select().from(apiKeys).where(eq(apiKeys.id, gone.keyId)).get())?.revokedAt).not.toBeNull();
    const goneShard = await shardOf(gone.userId);
    const keptShard = await shardOf(kept.userId);
    expect(await goneShard.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, gone.endpointId)).get()).toMatchObject({
      enabled: false,
      disabledReason: ADMIN_API_TEXT.goneAtProvider,
    });
    expect(await goneShard.select().from(alertRules).where(eq(alertRules.userId, gone.userId))).toEqual([]);
    expect(await goneShard.select().from(alertRuleState).where(eq(alertRuleState.userId, gone.userId))).toEqual([]);
    expect((await db().select().from(reportMailSubscriptions).where(eq(reportMailSubscriptions.userId, gone.userId)).get())?.subscribed).toBe(false);

    // The account the provider still has keeps everything.
    expect((await v1Calls(kept.secret)).status).toBe(200);
    expect((await keptShard.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, kept.endpointId)).get())?.enabled).toBe(true);
    expect(await keptShard.select().from(alertRules).where(eq(alertRules.id, kept.ruleId))).toHaveLength(1);
    expect((await db().select().from(reportMailSubscriptions).where(eq(reportMailSubscriptions.userId, kept.userId)).get())?.subscribed).toBe(true);

    // A second run finds nothing more to close.
    expect(await identitySyncJob.run(ctx())).toMatchObject({ gone: [], keysRevoked: 0 });
  });

  it("closes nothing when the provider cannot answer", async () => {
    const account = await accountWithAccess();
    const failing = {
      missingAccounts: async () => {
        throw new Error("provider unreachable");
      },
    } as unknown as IdentityPort;
    await expect(closeGoneAccounts(db(), testShards(), failing, new Date())).rejects.toThrow("provider unreachable");
    expect((await v1Calls(account.secret)).status).toBe(200);
    expect((await (await shardOf(account.userId)).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, account.endpointId)).get())?.enabled).toBe(true);
  });

  it("with one shard failing, closes the gone accounts of the others and fails naming that shard", async () => {
    const gone = await accountWithAccess();
    const name = await shardNameOf(gone.userId);
    await db().delete(authUsers).where(eq(authUsers.id, gone.userId));
    const broken = { name: name === "SHARD_0" ? "SHARD_1" : "SHARD_0", db: createDb({ prepare: () => { throw new Error("D1_ERROR: unreachable"); }, batch: async () => { throw new Error("D1_ERROR: unreachable"); } } as unknown as D1Database) };
    const shards = testShards().map((s) => (s.name === broken.name ? broken : s));
    await expect(identitySyncJob.run({ ...ctx(), shards })).rejects.toThrow(new RegExp(`${broken.name}: D1_ERROR: unreachable`));
    expect((await v1Calls(gone.secret)).status).toBe(401);
    expect((await (await shardOf(gone.userId)).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, gone.endpointId)).get())?.enabled).toBe(false);
  });
});
