// Accounts the identity provider no longer has (deleted there, not through the admin's clean-up):
// nobody can sign in to them again, but their API keys, webhook endpoints and alert rules would keep
// working, and its daily report mail would keep going out. The daily provider sync
// (worker/jobs/identity-sync.ts) closes them: keys revoked (as a revocation does: the row stays,
// revoked_at set), endpoints disabled with the reason, rules deleted with their state (a rule has no
// off switch; the admin's clean-up deletes them the same way), the report mail switched off. One
// batch; the rest of the account's data stays until an admin deletes it.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { ADMIN_API_TEXT } from "@shared/messages";
import { jsonList, type Database } from "../../db/client";
import { alertRuleState, alertRules, apiKeys, reportMailSubscriptions, webhookEndpoints } from "../../db/schema";
import { log } from "../../lib/log";
import type { IdentityPort } from "../../providers/identity/port";

export type GoneAccountsResult = {
  checked: number;
  gone: string[];
  keysRevoked: number;
  endpointsDisabled: number;
  rulesDeleted: number;
  reportMailStopped: number;
};

/** Accounts holding anything that acts without a sign-in: a live key, an enabled endpoint, a rule, the report mail. */
async function accountsWithAccess(db: Database): Promise<string[]> {
  const rows = await db.all<{ user_id: string }>(sql`
    select user_id from ${apiKeys} where ${apiKeys.revokedAt} is null
    union select user_id from ${webhookEndpoints} where ${webhookEndpoints.enabled} = 1
    union select user_id from ${alertRules}
    union select user_id from ${reportMailSubscriptions} where ${reportMailSubscriptions.subscribed} = 1`);
  return rows.map((r) => r.user_id);
}

export async function closeGoneAccounts(db: Database, identity: IdentityPort, now: Date): Promise<GoneAccountsResult> {
  const candidates = await accountsWithAccess(db);
  // Throws when the provider cannot tell: then nothing is closed.
  const gone = await identity.missingAccounts(candidates);
  if (gone.length === 0) return { checked: candidates.length, gone, keysRevoked: 0, endpointsDisabled: 0, rulesDeleted: 0, reportMailStopped: 0 };
  const ids = jsonList(gone);
  const at = now.toISOString();
  const [keys, endpoints, , rules, reportMail] = await db.batch([
    db.update(apiKeys).set({ revokedAt: at }).where(and(inArray(apiKeys.userId, ids), isNull(apiKeys.revokedAt))),
    db
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: ADMIN_API_TEXT.goneAtProvider, updatedAt: at })
      .where(and(inArray(webhookEndpoints.userId, ids), eq(webhookEndpoints.enabled, true))),
    db.delete(alertRuleState).where(inArray(alertRuleState.userId, ids)),
    db.delete(alertRules).where(inArray(alertRules.userId, ids)),
    db
      .update(reportMailSubscriptions)
      .set({ subscribed: false, changedAt: at })
      .where(and(inArray(reportMailSubscriptions.userId, ids), eq(reportMailSubscriptions.subscribed, true))),
  ]);
  const changes = (r: unknown) => Number((r as { meta?: { changes?: number } }).meta?.changes ?? 0);
  const result = {
    checked: candidates.length,
    gone,
    keysRevoked: changes(keys),
    endpointsDisabled: changes(endpoints),
    rulesDeleted: changes(rules),
    reportMailStopped: changes(reportMail),
  };
  log(null, "warn", "accounts gone at the identity provider: keys revoked, endpoints disabled, rules deleted, report mail stopped", result);
  return result;
}
