// An account's alert rules, its history and its bell (decision 071). The body's own bounds are the
// schema's (shared/schemas/alerts.ts); what needs the account is checked here: the metric's flag
// (403 naming `metric`), the scope being the account's own agent or number or a store (400 naming
// `scopeId`), the extra addresses its plan allows (403 naming `extraEmails`, decision 073) and the
// rules its plan allows (409, counted inside the INSERT so two creates cannot pass it together).
// A saved rule's new extra addresses are mailed a confirmation; until confirmed they get nothing.
import { ALERT_HISTORY_DAYS, ALERT_METRIC_IDS, ALERT_METRICS, STORE_SCOPE_IDS, type AlertMetricId, type AlertPlanLimits } from "@shared/alerts";
import { ALERT_MAIL_TEXT } from "@shared/messages";
import type { AlertBellResponse, AlertRecipientView, AlertRuleBody, AlertRuleView, AlertRulesResponse, AlertScopeOption, AlertView } from "@shared/schemas/alerts";
import type { Database } from "../../db/client";
import { d1Of } from "../../db/client";
import { ApiError, badRequest, notFound } from "../../lib/errors";
import { alertLimits, planOf, subscriptionsStatement } from "../plans";
import type { CurrentUser } from "../profiles";
import { SHARD_ROW_ID } from "../../db/shards";
import { mayUse } from "./evaluate";
import {
  addRecipientStatements,
  confirmationAsk,
  confirmationStatements,
  pruneMailLogStatement,
  recipientsStatement,
  requestConfirmations,
  sendConfirmation,
  type ConfirmDeps,
  type RecipientRow,
} from "./recipients";
import { assistantsOf, readScopes, scopeLabel, scopesStatements, type AccountScopes } from "./values";

/**
 * The two databases an account's alerts span (decision 078): the directory (its agents, numbers,
 * plan and extra addresses) and its shard (its rules, their states, its history and its bell).
 * Reads of both that do not depend on each other go in parallel: one round trip.
 */
export type AlertDbs = { directory: Database; shard: Database };

const flagsOf = (user: CurrentUser) => ({ shopwindows_info: user.shopwindowsInfo ? 1 : 0, call_app: user.callApp ? 1 : 0, is_admin: user.isAdmin ? 1 : 0 });

/** The metrics this account may use: the call metrics, and the store ones its flags open. */
export const metricsFor = (user: CurrentUser): AlertMetricId[] => ALERT_METRIC_IDS.filter((m) => mayUse(m, flagsOf(user)));

type RuleDbRow = {
  id: number;
  name: string;
  metric: AlertMetricId;
  scope_kind: AlertRuleView["scopeKind"];
  scope_id: string;
  comparison: AlertRuleView["comparison"];
  threshold: number;
  window_minutes: number;
  cooldown_minutes: number;
  severity: AlertRuleView["severity"];
  email_account: number;
  extra_emails: string;
  webhook: number;
  bell: number;
  status: "ok" | "triggered" | null;
  since: string | null;
  last_value: number | null;
  evaluated_at: string | null;
  created_at: string;
};

const RULE_SELECT =
  "SELECT r.*, s.status, s.since, s.last_value, s.evaluated_at FROM alert_rules r LEFT JOIN alert_rule_state s ON s.rule_id = r.id";

function viewOf(r: RuleDbRow, scopes: AccountScopes): AlertRuleView {
  return {
    id: r.id,
    name: r.name,
    metric: r.metric,
    scopeKind: r.scope_kind,
    scopeId: r.scope_id,
    scopeLabel: scopeLabel(scopes, r.scope_kind, r.scope_id),
    comparison: r.comparison,
    threshold: r.threshold,
    windowMinutes: r.window_minutes,
    cooldownMinutes: r.cooldown_minutes,
    severity: r.severity,
    emailAccount: Boolean(r.email_account),
    extraEmails: JSON.parse(r.extra_emails) as string[],
    webhook: Boolean(r.webhook),
    bell: Boolean(r.bell),
    status: r.status ?? "ok",
    since: r.since ?? r.created_at,
    lastValue: r.last_value,
    evaluatedAt: r.evaluated_at,
  };
}

function scopeOptions(user: CurrentUser, scopes: AccountScopes): AlertScopeOption[] {
  const stores = metricsFor(user).some((m) => ALERT_METRICS[m].scopes.includes("store"));
  return [
    { kind: "all", id: "", label: "All" },
    ...scopes.agents.map((a) => ({ kind: "agent" as const, id: String(a.id), label: a.name })),
    ...scopes.numbers.map((n) => ({ kind: "number" as const, id: String(n.id), label: n.phone })),
    ...(stores ? STORE_SCOPE_IDS.map((s) => ({ kind: "store" as const, id: s, label: s })) : []),
  ];
}

type PlanRow = { id: string; productName: string | null; status: string; trialEnd: string | null };

/** What the account's plan allows of alerts (accountPlan's rule over the rows read in a batch). */
const limitsOf = (user: CurrentUser, rows: unknown[], now: Date): AlertPlanLimits => alertLimits(planOf(rows as PlanRow[], now), user.isAdmin);

/** The account's rules with their state (shard), its extra addresses' states, what its plan allows, the metrics and scopes (directory): one round trip. */
export async function listRules(dbs: AlertDbs, user: CurrentUser, now = new Date()): Promise<AlertRulesResponse> {
  const d1 = d1Of(dbs.directory);
  const [rules, [agents, numbers, recipients, plan]] = await Promise.all([
    d1Of(dbs.shard).prepare(`${RULE_SELECT} WHERE r.user_id = ? ORDER BY r.created_at, r.id`).bind(user.id).all<Record<string, unknown>>(),
    d1.batch<Record<string, unknown>>([...scopesStatements(d1, user.id), recipientsStatement(d1, user.id), subscriptionsStatement(d1, user.id)]),
  ]);
  const scopes = readScopes(agents.results, numbers.results);
  const limits = limitsOf(user, plan.results, now);
  return {
    rules: (rules.results as RuleDbRow[]).map((r) => viewOf(r, scopes)),
    limit: limits.rules,
    plan: limits,
    recipients: (recipients.results as RecipientRow[]).map((r): AlertRecipientView => ({ email: r.email, status: r.status })),
    metrics: metricsFor(user),
    scopes: scopeOptions(user, scopes),
  };
}

/** A rule's extra addresses as stored: lower-cased, each once. */
export const normalizedEmails = (emails: string[]) => [...new Set(emails.map((e) => e.trim().toLowerCase()))];

/**
 * The checks that need the account: the flag of the metric, the owner of the scope and the extra
 * addresses its plan allows. Answers the scopes and what the plan allows. `db` is the directory.
 */
export async function checkForAccount(db: Database, user: CurrentUser, body: AlertRuleBody, now = new Date()): Promise<{ scopes: AccountScopes; limits: AlertPlanLimits }> {
  if (!mayUse(body.metric, flagsOf(user))) {
    throw new ApiError(403, `metric: ${ALERT_METRICS[body.metric].label} needs store access this account does not have`, "forbidden", "metric");
  }
  const d1 = d1Of(db);
  const [agents, numbers, plan] = await d1.batch<Record<string, unknown>>([...scopesStatements(d1, user.id), subscriptionsStatement(d1, user.id)]);
  const scopes = readScopes(agents.results, numbers.results);
  const limits = limitsOf(user, plan.results, now);
  if (normalizedEmails(body.extraEmails).length > limits.extraEmails) {
    throw new ApiError(403, ALERT_MAIL_TEXT.extraEmailsOverPlan(limits.extraEmails), "forbidden", "extraEmails");
  }
  const own =
    body.scopeKind === "all" ||
    (body.scopeKind === "agent" && scopes.agents.some((a) => String(a.id) === body.scopeId)) ||
    (body.scopeKind === "number" && scopes.numbers.some((n) => String(n.id) === body.scopeId)) ||
    (body.scopeKind === "store" && (STORE_SCOPE_IDS as readonly string[]).includes(body.scopeId));
  if (!own) throw badRequest(`scopeId: no ${body.scopeKind} ${body.scopeId} in this account`, "scopeId");
  return { scopes, limits };
}

const ruleValues = (b: AlertRuleBody) => [
  b.name,
  b.metric,
  b.scopeKind,
  b.scopeId,
  b.comparison,
  b.threshold,
  b.windowMinutes,
  b.cooldownMinutes,
  b.severity,
  b.emailAccount ? 1 : 0,
  JSON.stringify(normalizedEmails(b.extraEmails)),
  b.webhook ? 1 : 0,
  b.bell ? 1 : 0,
];

/** The directory's pending rows of a save's new extra addresses, in one batch (none: no round trip). */
async function recipientRows(directory: Database, userId: string, emails: string[], now: Date) {
  const d1 = d1Of(directory);
  const statements = addRecipientStatements(d1, userId, emails, now);
  if (statements.length > 0) await d1.batch(statements);
}

/**
 * A new rule and its state (ok since now) in one batch on the shard, beside a pending row in the
 * directory for each new extra address (one round trip for both); 409 at the plan's limit. New
 * addresses are then mailed their confirmation.
 */
export async function createRule(dbs: AlertDbs, user: CurrentUser, body: AlertRuleBody, now: Date, confirm: ConfirmDeps): Promise<AlertRuleView> {
  const { scopes, limits } = await checkForAccount(dbs.directory, user, body, now);
  const d1 = d1Of(dbs.shard);
  const at = now.toISOString();
  const extras = normalizedEmails(body.extraEmails);
  const [[inserted, , created]] = await Promise.all([
    d1.batch<Record<string, unknown>>([
      d1
        .prepare(
          "INSERT INTO alert_rules (id, user_id, name, metric, scope_kind, scope_id, comparison, threshold, window_minutes, cooldown_minutes, severity, email_account, extra_emails, webhook, bell, created_at, updated_at) " +
            `SELECT ${SHARD_ROW_ID}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM alert_rules WHERE user_id = ?) < ? RETURNING id`,
        )
        .bind(user.id, ...ruleValues(body), at, at, user.id, limits.rules),
      // The state of every rule of the account that has none yet: the one just inserted.
      d1
        .prepare(
          "INSERT INTO alert_rule_state (rule_id, user_id, status, since) SELECT r.id, r.user_id, 'ok', ? FROM alert_rules r " +
            "LEFT JOIN alert_rule_state s ON s.rule_id = r.id WHERE r.user_id = ? AND s.rule_id IS NULL",
        )
        .bind(at, user.id),
      // The newest rule of the account, read in the same transaction: the one just inserted, when it was.
      d1.prepare(`${RULE_SELECT} WHERE r.id = (SELECT max(id) FROM alert_rules WHERE user_id = ?)`).bind(user.id),
    ]),
    // The addresses' rows (a row left by a refused save is harmless: nothing mails it until a saved rule names it).
    recipientRows(dbs.directory, user.id, extras, now),
  ]);
  if (inserted.results.length === 0) throw new ApiError(409, ALERT_MAIL_TEXT.rulesOverPlan(limits.rules), "conflict", "rules");
  await requestConfirmations(confirm, user.id, extras, now);
  return viewOf(created.results[0] as RuleDbRow, scopes);
}

/**
 * A changed rule keeps its state: an alert it has open stays open until the next evaluation reads the
 * rule as it now stands, which resolves it (alert.resolved on its channels, once) when the changed
 * rule no longer breaches, and the cooldown still counts from the last firing.
 */
export async function updateRule(dbs: AlertDbs, user: CurrentUser, id: number, body: AlertRuleBody, now: Date, confirm: ConfirmDeps): Promise<AlertRuleView> {
  const { scopes } = await checkForAccount(dbs.directory, user, body, now);
  const d1 = d1Of(dbs.shard);
  const at = now.toISOString();
  const extras = normalizedEmails(body.extraEmails);
  const [[updated, changed]] = await Promise.all([
    d1.batch<Record<string, unknown>>([
      d1
        .prepare(
          "UPDATE alert_rules SET name = ?, metric = ?, scope_kind = ?, scope_id = ?, comparison = ?, threshold = ?, window_minutes = ?, cooldown_minutes = ?, severity = ?, " +
            "email_account = ?, extra_emails = ?, webhook = ?, bell = ?, updated_at = ? WHERE id = ? AND user_id = ? RETURNING id",
        )
        .bind(...ruleValues(body), at, id, user.id),
      d1.prepare(`${RULE_SELECT} WHERE r.id = ? AND r.user_id = ?`).bind(id, user.id),
    ]),
    recipientRows(dbs.directory, user.id, extras, now),
  ]);
  if (updated.results.length === 0) throw notFound("Alert rule not found");
  await requestConfirmations(confirm, user.id, extras, now);
  return viewOf(changed.results[0] as RuleDbRow, scopes);
}

/**
 * The form's "Resend confirmation": mails the address a new link (the old one stops working), within
 * the day's caps. 404 naming `email` for an address no rule of the account names, 409 for one
 * already confirmed, 429 past the caps.
 */
export async function resendConfirmation(dbs: AlertDbs, user: CurrentUser, email: string, now: Date, confirm: ConfirmDeps): Promise<AlertRecipientView> {
  const address = email.trim().toLowerCase();
  const d1 = d1Of(dbs.directory);
  const ask = await confirmationAsk(address);
  // The address as it stood, then the claim and the new token (the directory), beside whether a rule
  // of the account names it (its shard): one round trip.
  const [[found, claimed], named] = await Promise.all([
    d1.batch<Record<string, unknown>>([
      d1.prepare("SELECT m.email, m.status FROM alert_mail_recipients m WHERE m.user_id = ?1 AND m.email = ?2").bind(user.id, address),
      ...confirmationStatements(d1, user.id, ask, now, true),
    ]),
    d1Of(dbs.shard)
      .prepare("SELECT 1 AS named FROM alert_rules r, json_each(r.extra_emails) e WHERE r.user_id = ?1 AND e.value = ?2 LIMIT 1")
      .bind(user.id, address)
      .first(),
  ]);
  const row = named ? (found.results[0] as AlertRecipientView | undefined) : undefined;
  if (!row) {
    // No rule names the address: the claim made beside the check is given back (the day's caps count mails sent).
    if (claimed.results.length > 0) await d1.prepare("DELETE FROM alert_mail_log WHERE kind = 'confirm' AND ref = ?").bind(ask.ref).run();
    throw new ApiError(404, ALERT_MAIL_TEXT.notARecipient, "not_found", "email");
  }
  if (row.status === "confirmed") throw new ApiError(409, ALERT_MAIL_TEXT.alreadyConfirmed, "conflict", "email");
  if (row.status === "unsubscribed") throw new ApiError(409, ALERT_MAIL_TEXT.recipientUnsubscribed, "conflict", "email");
  if (claimed.results.length === 0) throw new ApiError(429, ALERT_MAIL_TEXT.confirmationsCapped, "rate_limited", "email");
  await sendConfirmation(confirm, ask);
  return { email: address, status: row.status };
}

/** Deletes the rule and its state; its history stays (an open alert is closed now). */
export async function deleteRule(shard: Database, user: CurrentUser, id: number, now: Date): Promise<void> {
  const d1 = d1Of(shard);
  const [, , deleted] = await d1.batch([
    d1
      .prepare("UPDATE alert_history SET resolved_at = ? WHERE id = (SELECT alert_id FROM alert_rule_state WHERE rule_id = ? AND user_id = ? AND status = 'triggered') AND resolved_at IS NULL")
      .bind(now.toISOString(), id, user.id),
    d1.prepare("DELETE FROM alert_rule_state WHERE rule_id = ? AND user_id = ?").bind(id, user.id),
    d1.prepare("DELETE FROM alert_rules WHERE id = ? AND user_id = ? RETURNING id").bind(id, user.id),
  ]);
  if (deleted.results.length === 0) throw notFound("Alert rule not found");
}

type HistoryRow = {
  id: number;
  rule_id: number | null;
  rule_name: string;
  metric: AlertMetricId;
  scope_kind: AlertView["scopeKind"];
  scope_id: string;
  scope_label: string;
  severity: AlertView["severity"];
  comparison: AlertView["comparison"];
  threshold: number;
  window_minutes: number;
  value: number;
  window_start: string;
  window_end: string;
  fired_at: string;
  resolved_at: string | null;
  resolved_value: number | null;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
};

/**
 * An alert as shown, with the voice assistant its scope reads now, as the evaluation resolves it
 * (assistantsOf over the account's agents and numbers, read from the directory): an agent's own, a
 * number's agent's; null for "all", a store, or a scope without one.
 */
const alertOf = (r: HistoryRow, scopes: AccountScopes): AlertView => ({
  id: r.id,
  ruleId: r.rule_id,
  ruleName: r.rule_name,
  metric: r.metric,
  scopeKind: r.scope_kind,
  scopeId: r.scope_id,
  scopeLabel: r.scope_label,
  severity: r.severity,
  comparison: r.comparison,
  threshold: r.threshold,
  windowMinutes: r.window_minutes,
  value: r.value,
  windowStart: r.window_start,
  windowEnd: r.window_end,
  firedAt: r.fired_at,
  resolvedAt: r.resolved_at,
  resolvedValue: r.resolved_value,
  acknowledgedAt: r.acknowledged_at,
  acknowledgedBy: r.acknowledged_by,
  scopeAssistantId: scopeAssistant(scopes, r.scope_kind, r.scope_id),
});

function scopeAssistant(scopes: AccountScopes, kind: string, id: string): string | null {
  if (kind !== "agent" && kind !== "number") return null;
  const [assistant] = assistantsOf(scopes, kind, id) ?? [];
  return assistant ?? null;
}

/** The account's agents and numbers, from the directory (one batch), to go beside a read of its shard. */
function accountScopes(directory: Database, userId: string): Promise<AccountScopes> {
  const d1 = d1Of(directory);
  return d1.batch<Record<string, unknown>>(scopesStatements(d1, userId)).then(([agents, numbers]) => readScopes(agents.results, numbers.results));
}

/** The account's alerts, newest first (the last 90 days: older ones are pruned nightly). */
export async function listHistory(dbs: AlertDbs, userId: string, limit: number): Promise<AlertView[]> {
  const [rows, scopes] = await Promise.all([
    d1Of(dbs.shard).prepare("SELECT h.* FROM alert_history h WHERE h.user_id = ? ORDER BY h.fired_at DESC, h.id DESC LIMIT ?").bind(userId, limit).all<HistoryRow>(),
    accountScopes(dbs.directory, userId),
  ]);
  return rows.results.map((r) => alertOf(r, scopes));
}

/** Acknowledges the account's alert; the first acknowledgement stands. 404 for another account's. */
export async function acknowledgeAlert(dbs: AlertDbs, user: CurrentUser, id: number, now: Date): Promise<AlertView> {
  const d1 = d1Of(dbs.shard);
  const [[, read], scopes] = await Promise.all([
    d1.batch<HistoryRow>([
      d1
        .prepare("UPDATE alert_history SET acknowledged_at = coalesce(acknowledged_at, ?), acknowledged_by = coalesce(acknowledged_by, ?) WHERE id = ? AND user_id = ?")
        .bind(now.toISOString(), user.email, id, user.id),
      d1.prepare("SELECT h.* FROM alert_history h WHERE h.id = ? AND h.user_id = ?").bind(id, user.id),
    ]),
    accountScopes(dbs.directory, user.id),
  ]);
  const row = read.results[0];
  if (!row) throw notFound("Alert not found");
  return alertOf(row, scopes);
}

/** The bell shows this many of the newest notifications. */
export const BELL_SIZE = 20;

export async function bell(shard: Database, userId: string): Promise<AlertBellResponse> {
  const d1 = d1Of(shard);
  const [list, unread] = await d1.batch<Record<string, unknown>>([
    d1
      .prepare("SELECT id, alert_id AS alertId, kind, title, severity, created_at AS createdAt, read_at AS readAt FROM alert_notifications WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?")
      .bind(userId, BELL_SIZE),
    d1.prepare("SELECT count(*) AS n FROM alert_notifications WHERE user_id = ? AND read_at IS NULL").bind(userId),
  ]);
  return { unread: Number(unread.results[0]?.n ?? 0), notifications: list.results as AlertBellResponse["notifications"] };
}

/** Marks the account's notifications read (these, or all) and answers how many stay unread. */
export async function readBell(shard: Database, userId: string, ids: number[] | undefined, now: Date): Promise<number> {
  const d1 = d1Of(shard);
  // The ids go as one JSON parameter: a parameter each would pass D1's 100 bound parameters.
  const only = ids ? " AND id IN (SELECT value FROM json_each(?))" : "";
  const [, unread] = await d1.batch<{ n: number }>([
    d1.prepare(`UPDATE alert_notifications SET read_at = ? WHERE user_id = ? AND read_at IS NULL${only}`).bind(now.toISOString(), userId, ...(ids ? [JSON.stringify(ids)] : [])),
    d1.prepare("SELECT count(*) AS n FROM alert_notifications WHERE user_id = ? AND read_at IS NULL").bind(userId),
  ]);
  return Number(unread.results[0]?.n ?? 0);
}

/** Deletes a shard's alerts older than 90 days and their bell rows. */
export async function pruneAlertHistory(shard: Database, now: Date): Promise<{ alerts: number }> {
  const d1 = d1Of(shard);
  const cutoff = new Date(now.getTime() - ALERT_HISTORY_DAYS * 86_400_000).toISOString();
  const [, alerts] = await d1.batch([
    d1.prepare("DELETE FROM alert_notifications WHERE alert_id IN (SELECT id FROM alert_history WHERE fired_at < ?)").bind(cutoff),
    d1.prepare("DELETE FROM alert_history WHERE fired_at < ?").bind(cutoff),
  ]);
  return { alerts: Number(alerts.meta?.changes ?? 0) };
}

/** Deletes the directory's mail caps' log of days before yesterday (the caps count today only). */
export async function pruneAlertMailLog(directory: Database, now: Date): Promise<{ mails: number }> {
  const res = await pruneMailLogStatement(d1Of(directory), now).run();
  return { mails: Number(res.meta?.changes ?? 0) };
}
