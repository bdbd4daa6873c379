// Deleting a user (docs/product/admin.md#deleting-a-user "delete (clean up) a user by email"; docs/decisions/019-user-deletion.md):
// the sign-in account and every row the account owns, in one batch with its audit entry; its
// assistants deleted on the voice platform first, its calls' text in R2 deleted (decision 077), its
// platform numbers returned to the pool and any other number released at the telephony provider.
import type { BatchItem } from "drizzle-orm/batch";
import { and, count, eq, gte, inArray, isNotNull, isNull, lt, ne, or, sql } from "drizzle-orm";
import { ADMIN_API_TEXT } from "@shared/messages";
import type { CleanupUserResponse } from "@shared/schemas/admin";
import { jsonList, type Database } from "../../db/client";
import {
  accountActivations,
  agents,
  callLogDaily,
  callLogHourly,
  callLogUserDaily,
  callLogUserHourly,
  callLogs,
  customers,
  deletedAccounts,
  liveTickets,
  phoneNumberOffers,
  phoneNumbers,
  profiles,
  reportMailDeliveries,
  reportMailSubscriptions,
  reportMailUnsubscribeTokens,
  simAssistants,
  simCalls,
  subscriptions,
  usageAlerts,
  alertHistory,
  alertMailRecipients,
  alertNotifications,
  alertRuleState,
  alertRules,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  apiKeys,
  shardMoves,
} from "../../db/schema";
import { ApiError, conflict, notFound } from "../../lib/errors";
import { log } from "../../lib/log";
import type { BillingPort } from "../../providers/billing/port";
import type { IdentityPort } from "../../providers/identity/port";
import type { TelephonyPort } from "../../providers/telephony/port";
import type { VoicePort } from "../../providers/voice/port";
import { deleteAccountTexts, type CallTextBucket } from "../call-text";
import { deleteAccountChanges } from "../../live/changes";
import { eachShard, shardOutcomes, type Shard } from "../../db/shards";
import { auditStatement, type AdminActor } from "./audit-log";

/**
 * Every table holding a user id, with the columns that hold it, and how deletion treats it. The
 * orphan test derives the same list from the schema, so a new table with a user id fails it until
 * it is handled here.
 */
export const USER_ID_COLUMNS = {
  profiles: ["id"],
  agents: ["user_id"],
  call_logs: ["user_id"],
  call_log_daily: ["user_id"],
  call_log_user_daily: ["user_id"],
  call_log_hourly: ["user_id"],
  call_log_user_hourly: ["user_id"],
  phone_numbers: ["user_id"],
  customers: ["user_id"],
  subscriptions: ["user_id"],
  sim_assistants: ["owner_id"],
  sim_calls: ["owner_id"],
  account_activations: ["user_id"],
  phone_number_offers: ["user_id"],
  report_mail_subscriptions: ["user_id"],
  report_mail_deliveries: ["user_id"],
  report_mail_unsubscribe_tokens: ["user_id"],
  live_tickets: ["user_id"],
  usage_alerts: ["user_id"],
  alert_rules: ["user_id"],
  alert_rule_state: ["user_id"],
  alert_history: ["user_id"],
  alert_notifications: ["user_id"],
  alert_mail_recipients: ["user_id"],
  webhook_endpoints: ["user_id"],
  webhook_deliveries: ["user_id"],
  api_keys: ["user_id"],
  shard_moves: ["user_id"],
  // The local identity service's own tables: deleted through the identity port (empty with Supabase).
  auth_users: ["id"],
  auth_sessions: ["user_id"],
  auth_refresh_tokens: ["user_id"],
  auth_one_time_tokens: ["user_id"],
} as const;

/** Tables that keep a deleted user's id on purpose. */
export const USER_ID_KEPT = {
  // The audit log records who did what to whom; the deletion itself is one of its rows.
  admin_audit_log: ["actor_id", "target_user_id"],
  // A deleted account's tokens are refused until they expire, instead of creating its profile again.
  deleted_accounts: ["user_id"],
  // Alert mail claimed in the last two days (pruned nightly): the per-address caps count every
  // account's mail, so deleting an account must not reset them.
  alert_mail_log: ["user_id"],
} as const;

/**
 * How long a deleted account's id is kept to refuse its tokens: longer than the longest access-token
 * lifetime a Supabase project can set (one week); local sessions end with the account at once.
 */
export const DELETED_ACCOUNT_TTL_MS = 8 * 24 * 3_600_000;

/**
 * `shard`: a shard's database by its binding's name (the request's session of it); `text`: the call
 * text bucket (decision 077), whose objects of the accounts go with them.
 */
export type CleanupDeps = {
  db: Database;
  shard: (name: string) => Database;
  identity: IdentityPort;
  voice: VoicePort;
  telephony: TelephonyPort;
  billing: BillingPort;
  text: CallTextBucket;
};

/**
 * The statements that delete these accounts' rows on one shard (decision 076), for one batch there:
 * call logs and their roll-ups and change log, alerts, custom webhooks. By name, as the answer counts them.
 */
export function shardDeletions(db: Database, ids: string[]) {
  const ofIds = jsonList(ids);
  return [
    ["call_log_daily", db.delete(callLogDaily).where(inArray(callLogDaily.userId, ofIds))],
    ["call_log_user_daily", db.delete(callLogUserDaily).where(inArray(callLogUserDaily.userId, ofIds))],
    ["call_log_hourly", db.delete(callLogHourly).where(inArray(callLogHourly.userId, ofIds))],
    ["call_log_user_hourly", db.delete(callLogUserHourly).where(inArray(callLogUserHourly.userId, ofIds))],
    ["call_logs", db.delete(callLogs).where(inArray(callLogs.userId, ofIds))],
    ["call_log_changes", deleteAccountChanges(db, ids)],
    ["alert_notifications", db.delete(alertNotifications).where(inArray(alertNotifications.userId, ofIds))],
    ["alert_history", db.delete(alertHistory).where(inArray(alertHistory.userId, ofIds))],
    ["alert_rule_state", db.delete(alertRuleState).where(inArray(alertRuleState.userId, ofIds))],
    ["alert_rules", db.delete(alertRules).where(inArray(alertRules.userId, ofIds))],
    // Custom webhooks (decision 070). Attempts carry their endpoint's id only: deleted before the endpoints they name.
    [
      "webhook_attempts",
      db.delete(webhookAttempts).where(inArray(webhookAttempts.endpointId, db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(inArray(webhookEndpoints.userId, ofIds)))),
    ],
    ["webhook_deliveries", db.delete(webhookDeliveries).where(inArray(webhookDeliveries.userId, ofIds))],
    ["webhook_endpoints", db.delete(webhookEndpoints).where(inArray(webhookEndpoints.userId, ofIds))],
  ] as const;
}

/** Deletes these accounts' rows on one shard in one batch; each table's deleted rows by name. */
export async function deleteOnShard(db: Database, ids: string[]): Promise<Record<string, number>> {
  const steps = shardDeletions(db, ids);
  const [first, ...rest] = steps.map(([, statement]) => statement as BatchItem<"sqlite">);
  const results = await db.batch([first, ...rest]);
  return Object.fromEntries(steps.map(([name], i) => [name, Number((results[i] as { meta?: { changes?: number } }).meta?.changes ?? 0)]));
}

/** Subscription states the provider still bills (docs/decisions/019-user-deletion.md). */
const BILLED_STATUSES = ["active", "trialing", "past_due"];

export async function cleanupUser(deps: CleanupDeps, actor: AdminActor, email: string): Promise<CleanupUserResponse> {
  const { db } = deps;
  // Profiles are not unique by email (an account deleted at the identity provider and registered
  // again has a new id): every account under the email goes. Everything the deletion reads is read
  // in one batch (one snapshot, one round trip), keyed by the accounts under the email: the accounts,
  // the admins outside them, their agents, their numbers, and their subscriptions still billed.
  const ofEmail = sql`(select id from profiles where lower(email) = ${email.toLowerCase()})`;
  const [targets, [otherAdmins], ownedAgents, ownedNumbers, billed, moves] = await db.batch([
    db.select().from(profiles).where(sql`lower(${profiles.email}) = ${email.toLowerCase()}`),
    db.select({ n: count() }).from(profiles).where(and(eq(profiles.isAdmin, true), sql`${profiles.id} not in ${ofEmail}`)),
    db.select({ id: agents.id, userId: agents.userId, assistantId: agents.vapiAssistantId }).from(agents).where(sql`${agents.userId} in ${ofEmail}`),
    db.select().from(phoneNumbers).where(sql`${phoneNumbers.userId} in ${ofEmail}`),
    // A deleted account is not billed again: its live subscriptions end with the period already paid.
    db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(and(sql`${subscriptions.userId} in ${ofEmail}`, inArray(subscriptions.status, BILLED_STATUSES), or(isNull(subscriptions.cancelAtPeriodEnd), eq(subscriptions.cancelAtPeriodEnd, false)))),
    // A move under way (decision 080) has copied rows to its target shard too: both shards are cleared.
    db.select({ userId: shardMoves.userId, from: shardMoves.fromShard, to: shardMoves.toShard }).from(shardMoves).where(and(sql`${shardMoves.userId} in ${ofEmail}`, ne(shardMoves.phase, "done"))),
  ]);
  if (targets.length === 0) throw notFound(ADMIN_API_TEXT.userNotFound);
  const ids = targets.map((t) => t.id);
  if (ids.includes(actor.id)) throw conflict(ADMIN_API_TEXT.cannotDeleteSelf, "email");
  if (targets.some((t) => t.isAdmin) && (otherAdmins?.n ?? 0) === 0) {
    throw conflict(ADMIN_API_TEXT.cannotDeleteLastAdmin, "email");
  }

  const toPool = ownedNumbers.filter((n) => n.vapiPhoneNumberId && n.status !== "pending");
  const toRelease = ownedNumbers.filter((n) => !n.vapiPhoneNumberId && n.status !== "pending" && n.sid);

  // 1. Outside calls that can be repeated: a failure here leaves every row in place, and the admin
  //    can try again (deleting an assistant or account already gone is not an error).
  for (const n of toPool) {
    if (n.agentId != null) await deps.voice.setNumberAssistant(n.vapiPhoneNumberId!, null);
  }
  for (const a of ownedAgents) {
    if (a.assistantId) await deps.voice.deleteAssistant(a.userId, a.assistantId);
  }
  for (const sub of billed) {
    try {
      await deps.billing.cancelSubscription(sub.id, `cleanup-user:${sub.id}`);
    } catch (e) {
      // One the provider no longer knows is not billed either.
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
  }
  // The calls' text: a failure leaves the rows, and a repeat deletes what is left. The calls' rows
  // still show meanwhile, without their transcript.
  for (const id of ids) await deleteAccountTexts(deps.text, id);
  const identityWrites = (await Promise.all(ids.map((id) => deps.identity.deleteUser(id)))).flat();

  // 2. Every row: the directory's in one transaction, and at the same time each shard's in one of its
  //    own (the accounts' calls, alerts and webhooks, decision 076). The accounts' ids go to each
  //    statement as one JSON parameter, so no statement's parameters grow with the number of accounts.
  //    A shard that fails does not stop the deletion: the answer names it, and the accounts' ids,
  //    kept in deleted_accounts, let the nightly sweep (sweepDeletedAccounts) delete its rows then.
  const now = new Date().toISOString();
  const ofIds = jsonList(ids);
  const steps = [
    ["sim_calls", db.delete(simCalls).where(inArray(simCalls.ownerId, ofIds))],
    ["sim_assistants", db.delete(simAssistants).where(inArray(simAssistants.ownerId, ofIds))],
    ["agents", db.delete(agents).where(inArray(agents.userId, ofIds))],
    [
      "phone_numbers_returned",
      db
        .update(phoneNumbers)
        .set({ userId: null, agentId: null, updatedAt: now })
        .where(and(inArray(phoneNumbers.userId, ofIds), isNotNull(phoneNumbers.vapiPhoneNumberId), ne(phoneNumbers.status, "pending"))),
    ],
    [
      "phone_numbers",
      db
        .delete(phoneNumbers)
        .where(and(inArray(phoneNumbers.userId, ofIds), or(isNull(phoneNumbers.vapiPhoneNumberId), eq(phoneNumbers.status, "pending")))),
    ],
    ["customers", db.delete(customers).where(inArray(customers.userId, ofIds))],
    ["subscriptions", db.delete(subscriptions).where(inArray(subscriptions.userId, ofIds))],
    ["account_activations", db.delete(accountActivations).where(inArray(accountActivations.userId, ofIds))],
    ["phone_number_offers", db.delete(phoneNumberOffers).where(inArray(phoneNumberOffers.userId, ofIds))],
    ["report_mail_subscriptions", db.delete(reportMailSubscriptions).where(inArray(reportMailSubscriptions.userId, ofIds))],
    ["report_mail_deliveries", db.delete(reportMailDeliveries).where(inArray(reportMailDeliveries.userId, ofIds))],
    ["report_mail_unsubscribe_tokens", db.delete(reportMailUnsubscribeTokens).where(inArray(reportMailUnsubscribeTokens.userId, ofIds))],
    ["live_tickets", db.delete(liveTickets).where(inArray(liveTickets.userId, ofIds))],
    ["usage_alerts", db.delete(usageAlerts).where(inArray(usageAlerts.userId, ofIds))],
    ["alert_mail_recipients", db.delete(alertMailRecipients).where(inArray(alertMailRecipients.userId, ofIds))],
    ["api_keys", db.delete(apiKeys).where(inArray(apiKeys.userId, ofIds))],
    ["shard_moves", db.delete(shardMoves).where(inArray(shardMoves.userId, ofIds))],
    ["profiles", db.delete(profiles).where(inArray(profiles.id, ofIds))],
  ] as const;
  const [first, ...rest] = steps.map(([, statement]) => statement as BatchItem<"sqlite">);
  const expiresAt = new Date(Date.parse(now) + DELETED_ACCOUNT_TTL_MS).toISOString();
  const byShard = new Map<string, string[]>();
  const place = (shard: string | null, id: string) => {
    if (shard && !byShard.get(shard)?.includes(id)) byShard.set(shard, [...(byShard.get(shard) ?? []), id]);
  };
  for (const t of targets) place(t.shard, t.id);
  for (const m of moves) for (const shard of [m.from, m.to]) place(shard, m.userId);
  const onShards = shardOutcomes(
    [...byShard.keys()].map((name) => ({ name, db: deps.shard(name) })),
    (s) => deleteOnShard(s.db, byShard.get(s.name)!),
  );
  const results = await db.batch([
    first,
    ...rest,
    ...identityWrites,
    db.delete(deletedAccounts).where(lt(deletedAccounts.expiresAt, now)),
    // `where true` settles SQLite's parse of INSERT ... SELECT ... ON CONFLICT.
    db
      .insert(deletedAccounts)
      .select(sql`select value, ${now}, ${expiresAt} from json_each(${JSON.stringify(ids)}) where true`)
      .onConflictDoUpdate({ target: deletedAccounts.userId, set: { deletedAt: now, expiresAt } }),
    auditStatement(db, actor, "delete_user", { id: ids[0], email: targets[0].email }, {
      user_ids: ids,
      agents: ownedAgents.length,
      numbers_returned_to_pool: toPool.map((n) => n.phoneNumber),
      numbers_released: toRelease.map((n) => n.phoneNumber),
    }),
  ]);
  const deleted: Record<string, number> = {};
  steps.forEach(([name], i) => {
    deleted[name] = Number((results[i] as { meta?: { changes?: number } }).meta?.changes ?? 0);
  });
  const shardResults = await onShards;
  for (const o of shardResults) if (o.ok) for (const [name, n] of Object.entries(o.value)) deleted[name] = (deleted[name] ?? 0) + n;
  const failedShards = shardResults.filter((o) => !o.ok).map((o) => o.shard);
  if (failedShards.length) log(null, "error", "a deleted account's rows stay on failing shards until the nightly sweep", { userIds: ids, shards: shardResults.filter((o) => !o.ok) });

  // 3. A transcript stored between step 1 and the batch (a report of the account's call that came
  //    meanwhile) goes too: once the batch committed no agent is the account's, so none is stored
  //    under it again. A failure is logged; the objects then left name no row.
  for (const id of ids) {
    try {
      await deleteAccountTexts(deps.text, id);
    } catch (e) {
      log(null, "error", "deleting a deleted user's call text failed", { userId: id, error: (e as Error).message });
    }
  }

  // 4. Numbers that were never on the voice platform go back to the telephony provider. Last, because
  //    a release cannot be repeated: a failure is logged (the number is already out of our records).
  let released = 0;
  for (const n of toRelease) {
    try {
      await deps.telephony.release(n.sid!);
      released++;
    } catch (e) {
      log(null, "error", "release of a deleted user's number failed", { sid: n.sid, phoneNumber: n.phoneNumber, error: (e as Error).message });
    }
  }

  return {
    success: true,
    userId: ids[0],
    userIds: ids,
    deleted,
    assistantsReleased: ownedAgents.filter((a) => a.assistantId).length,
    numbersReturnedToPool: toPool.length,
    numbersReleased: released,
    ...(failedShards.length ? { failedShards } : {}),
  };
}

/**
 * Deletes, on every shard, the rows of the accounts deleted in the last DELETED_ACCOUNT_TTL_MS
 * (deleted_accounts): what a deletion left on a shard that failed then. Idempotent; the nightly
 * provider sync runs it. A failing shard fails the run, naming it, after the others are swept.
 */
export async function sweepDeletedAccounts(db: Database, shards: readonly Shard[], now: Date): Promise<{ accounts: number; deleted: number }> {
  const rows = await db.select({ id: deletedAccounts.userId }).from(deletedAccounts).where(gte(deletedAccounts.expiresAt, now.toISOString()));
  if (rows.length === 0) return { accounts: 0, deleted: 0 };
  const ids = rows.map((r) => r.id);
  const swept = await eachShard(shards, (s) => deleteOnShard(s.db, ids));
  const deleted = swept.reduce((sum, s) => sum + Object.values(s.value).reduce((a, b) => a + b, 0), 0);
  return { accounts: ids.length, deleted };
}
