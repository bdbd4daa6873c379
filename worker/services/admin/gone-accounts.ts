// Accounts the identity provider no longer has (deleted there, not through the admin's clean-up):
// nobody can sign in to them again, but their API keys, webhook endpoints and alert rules would keep
// working, and its daily report mail would keep going out. The daily provider sync
// (worker/jobs/identity-sync.ts) closes them: keys revoked (as a revocation does: the row stays,
// revoked_at set), endpoints disabled with the reason, rules deleted with their state (a rule has no
// off switch; the admin's clean-up deletes them the same way), the report mail switched off. One
// batch in the directory and one on each shard (endpoints and rules live on the accounts' shards,
// decision 076), all at once; the rest of the account's data stays until an admin deletes it.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { ADMIN_API_TEXT } from "@shared/messages";
import { jsonList, type Database } from "../../db/client";
import { alertRuleState, alertRules, apiKeys, reportMailSubscriptions, webhookEndpoints } from "../../db/schema";
import { log } from "../../lib/log";
import { eachShard, shardOutcomes, ShardsFailed, type Shard, type ShardOutcome } from "../../db/shards";
import type { IdentityPort } from "../../providers/identity/port";

export type GoneAccountsResult = {
  checked: number;
  gone: string[];
  keysRevoked: number;
  endpointsDisabled: number;
  rulesDeleted: number;
  reportMailStopped: number;
};

/** Accounts holding anything in the directory that acts without a sign-in: a live key, the report mail. */
async function directoryAccountsWithAccess(db: Database): Promise<string[]> {
  const rows = await db.all<{ user_id: string }>(sql`
    select user_id from ${apiKeys} where ${apiKeys.revokedAt} is null
    union select user_id from ${reportMailSubscriptions} where ${reportMailSubscriptions.subscribed} = 1`);
  return rows.map((r) => r.user_id);
}

/** Accounts holding anything on a shard that acts without a sign-in: an enabled endpoint, a rule. */
async function shardAccountsWithAccess(db: Database): Promise<string[]> {
  const rows = await db.all<{ user_id: string }>(sql`
    select user_id from ${webhookEndpoints} where ${webhookEndpoints.enabled} = 1
    union select user_id from ${alertRules}`);
  return rows.map((r) => r.user_id);
}

const changes = (r: unknown) => Number((r as { meta?: { changes?: number } }).meta?.changes ?? 0);

/**
 * Closes the accounts the provider no longer has. The candidates come from the directory and every
 * shard at once; a shard that fails is named in the run's error (ShardsFailed) once the others'
 * accounts are closed, and its accounts are checked again on the next run.
 */
export async function closeGoneAccounts(db: Database, shards: readonly Shard[], identity: IdentityPort, now: Date): Promise<GoneAccountsResult> {
  const [fromDirectory, fromShards] = await Promise.all([directoryAccountsWithAccess(db), shardOutcomes(shards, (s) => shardAccountsWithAccess(s.db))]);
  const reached = shards.filter((s) => fromShards.some((o) => o.shard === s.name && o.ok));
  const candidates = [...new Set([...fromDirectory, ...fromShards.flatMap((o) => (o.ok ? o.value : []))])].sort();
  const failed = () => {
    if (fromShards.some((o) => !o.ok)) throw new ShardsFailed(fromShards as ShardOutcome<unknown>[]);
  };
  // Throws when the provider cannot tell: then nothing is closed.
  const gone = await identity.missingAccounts(candidates);
  if (gone.length === 0) {
    failed();
    return { checked: candidates.length, gone, keysRevoked: 0, endpointsDisabled: 0, rulesDeleted: 0, reportMailStopped: 0 };
  }
  const ids = jsonList(gone);
  const at = now.toISOString();
  const [[keys, reportMail], onShards] = await Promise.all([
    db.batch([
      db.update(apiKeys).set({ revokedAt: at }).where(and(inArray(apiKeys.userId, ids), isNull(apiKeys.revokedAt))),
      db
        .update(reportMailSubscriptions)
        .set({ subscribed: false, changedAt: at })
        .where(and(inArray(reportMailSubscriptions.userId, ids), eq(reportMailSubscriptions.subscribed, true))),
    ]),
    // Every shard reached: the list is short, and an account's rows are only on its own.
    eachShard(reached, (s) =>
      s.db.batch([
        s.db
          .update(webhookEndpoints)
          .set({ enabled: false, disabledReason: ADMIN_API_TEXT.goneAtProvider, updatedAt: at })
          .where(and(inArray(webhookEndpoints.userId, ids), eq(webhookEndpoints.enabled, true))),
        s.db.delete(alertRuleState).where(inArray(alertRuleState.userId, ids)),
        s.db.delete(alertRules).where(inArray(alertRules.userId, ids)),
      ]),
    ),
  ]);
  const result = {
    checked: candidates.length,
    gone,
    keysRevoked: changes(keys),
    endpointsDisabled: onShards.reduce((n, s) => n + changes(s.value[0]), 0),
    rulesDeleted: onShards.reduce((n, s) => n + changes(s.value[2]), 0),
    reportMailStopped: changes(reportMail),
  };
  log(null, "warn", "accounts gone at the identity provider: keys revoked, endpoints disabled, rules deleted, report mail stopped", result);
  failed();
  return result;
}
