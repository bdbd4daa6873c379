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
import { readScopes, scopeLabel, scopesStatements, type AccountScopes } from "./values";

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

/** The account's rules with their state, its extra addresses' states, what its plan allows, the metrics and scopes: one round trip. */
export async function listRules(db: Database, user: CurrentUser, now = new Date()): Promise<AlertRulesResponse> {
  const d1 = d1Of(db);
  const [rules, agents, numbers, recipients, plan] = await d1.batch<Record<string, unknown>>([
    d1.prepare(`${RULE_SELECT} WHERE r.user_id = ? ORDER BY r.id`).bind(user.id),
    ...scopesStatements(d1, user.id),
    recipientsStatement(d1, user.id),
    subscriptionsStatement(d1, user.id),
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
 * addresses its plan allows. Answers the scopes and what the plan allows.
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

/**
 * A new rule and its state (ok since now), with a pending row for each new extra address, in one
 * batch; 409 at the plan's limit. New addresses are then mailed their confirmation.
 */
export async function createRule(db: Database, user: CurrentUser, body: AlertRuleBody, now: Date, confirm: ConfirmDeps): Promise<AlertRuleView> {
  const { scopes, limits } = await checkForAccount(db, user, body, now);
  const d1 = d1Of(db);
  const at = now.toISOString();
  const extras = normalizedEmails(body.extraEmails);
  const [inserted, , created] = await d1.batch<Record<string, unknown>>([
    d1
      .prepare(
        "INSERT INTO alert_rules (user_id, name, metric, scope_kind, scope_id, comparison, threshold, window_minutes, cooldown_minutes, severity, email_account, extra_emails, webhook, bell, created_at, updated_at) " +
          "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM alert_rules WHERE user_id = ?) < ? RETURNING id",
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
    // The addresses' rows (a row left by a refused save is harmless: nothing mails it until a rule names it).
    ...addRecipientStatements(d1, user.id, extras, now),
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
export async function updateRule(db: Database, user: CurrentUser, id: number, body: AlertRuleBody, now: Date, confirm: ConfirmDeps): Promise<AlertRuleView> {
  const { scopes } = await checkForAccount(db, user, body, now);
  const d1 = d1Of(db);
  const at = now.toISOString();
  const extras = normalizedEmails(body.extraEmails);
  const [updated, changed] = await d1.batch<Record<string, unknown>>([
    d1
      .prepare(
        "UPDATE alert_rules SET name = ?, metric = ?, scope_kind = ?, scope_id = ?, comparison = ?, threshold = ?, window_minutes = ?, cooldown_minutes = ?, severity = ?, " +
          "email_account = ?, extra_emails = ?, webhook = ?, bell = ?, updated_at = ? WHERE id = ? AND user_id = ? RETURNING id",
      )
      .bind(...ruleValues(body), at, id, user.id),
    d1.prepare(`${RULE_SELECT} WHERE r.id = ? AND r.user_id = ?`).bind(id, user.id),
    ...addRecipientStatements(d1, user.id, extras, now),
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
export async function resendConfirmation(db: Database, user: CurrentUser, email: string, now: Date, confirm: ConfirmDeps): Promise<AlertRecipientView> {
  const address = email.trim().toLowerCase();
  const d1 = d1Of(db);
  const ask = await confirmationAsk(address);
  // The address as it stood, then the claim and the new token: one batch.
  const [found, claimed] = await d1.batch<Record<string, unknown>>([
    d1
      .prepare(
        "SELECT m.email, m.status FROM alert_mail_recipients m WHERE m.user_id = ?1 AND m.email = ?2 " +
          "AND EXISTS (SELECT 1 FROM alert_rules r, json_each(r.extra_emails) e WHERE r.user_id = ?1 AND e.value = ?2)",
      )
      .bind(user.id, address),
    ...confirmationStatements(d1, user.id, ask, now, true),
  ]);
  const row = found.results[0] as AlertRecipientView | undefined;
  if (!row) throw new ApiError(404, ALERT_MAIL_TEXT.notARecipient, "not_found", "email");
  if (row.status === "confirmed") throw new ApiError(409, ALERT_MAIL_TEXT.alreadyConfirmed, "conflict", "email");
  if (row.status === "unsubscribed") throw new ApiError(409, ALERT_MAIL_TEXT.recipientUnsubscribed, "conflict", "email");
  if (claimed.results.length === 0) throw new ApiError(429, ALERT_MAIL_TEXT.confirmationsCapped, "rate_limited", "email");
  await sendConfirmation(confirm, ask);
  return { email: address, status: row.status };
}

/** Deletes the rule and its state; its history stays (an open alert is closed now). */
export async function deleteRule(db: Database, user: CurrentUser, id: number, now: Date): Promise<void> {
  const d1 = d1Of(db);
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
  scope_assistant_id: string | null;
};

const alertOf = (r: HistoryRow): AlertView => ({
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
  scopeAssistantId: r.scope_assistant_id,
});

/**
 * An alert row with the voice assistant its scope reads now, as the evaluation resolves it
 * (assistantsOf): an agent's own, a number's agent's; null for "all", a store, or a scope without one.
 */
const HISTORY_SELECT =
  "SELECT h.*, CASE h.scope_kind " +
  "WHEN 'agent' THEN (SELECT a.vapi_assistant_id FROM agents a WHERE a.id = CAST(h.scope_id AS INTEGER) AND a.user_id = h.user_id) " +
  "WHEN 'number' THEN (SELECT a.vapi_assistant_id FROM phone_numbers p JOIN agents a ON a.id = p.agent_id WHERE p.id = CAST(h.scope_id AS INTEGER) AND p.user_id = h.user_id) " +
  "END AS scope_assistant_id FROM alert_history h";

/** The account's alerts, newest first (the last 90 days: older ones are pruned nightly). */
export async function listHistory(db: Database, userId: string, limit: number): Promise<AlertView[]> {
  const rows = await d1Of(db).prepare(`${HISTORY_SELECT} WHERE h.user_id = ? ORDER BY h.fired_at DESC, h.id DESC LIMIT ?`).bind(userId, limit).all<HistoryRow>();
  return rows.results.map(alertOf);
}

/** Acknowledges the account's alert; the first acknowledgement stands. 404 for another account's. */
export async function acknowledgeAlert(db: Database, user: CurrentUser, id: number, now: Date): Promise<AlertView> {
  const d1 = d1Of(db);
  const [, read] = await d1.batch<HistoryRow>([
    d1
      .prepare("UPDATE alert_history SET acknowledged_at = coalesce(acknowledged_at, ?), acknowledged_by = coalesce(acknowledged_by, ?) WHERE id = ? AND user_id = ?")
      .bind(now.toISOString(), user.email, id, user.id),
    d1.prepare(`${HISTORY_SELECT} WHERE h.id = ? AND h.user_id = ?`).bind(id, user.id),
  ]);
  const row = read.results[0];
  if (!row) throw notFound("Alert not found");
  return alertOf(row);
}

/** The bell shows this many of the newest notifications. */
export const BELL_SIZE = 20;

export async function bell(db: Database, userId: string): Promise<AlertBellResponse> {
  const d1 = d1Of(db);
  const [list, unread] = await d1.batch<Record<string, unknown>>([
    d1
      .prepare("SELECT id, alert_id AS alertId, kind, title, severity, created_at AS createdAt, read_at AS readAt FROM alert_notifications WHERE user_id = ? ORDER BY id DESC LIMIT ?")
      .bind(userId, BELL_SIZE),
    d1.prepare("SELECT count(*) AS n FROM alert_notifications WHERE user_id = ? AND read_at IS NULL").bind(userId),
  ]);
  return { unread: Number(unread.results[0]?.n ?? 0), notifications: list.results as AlertBellResponse["notifications"] };
}

/** Marks the account's notifications read (these, or all) and answers how many stay unread. */
export async function readBell(db: Database, userId: string, ids: number[] | undefined, now: Date): Promise<number> {
  const d1 = d1Of(db);
  // The ids go as one JSON parameter: a parameter each would pass D1's 100 bound parameters.
  const only = ids ? " AND id IN (SELECT value FROM json_each(?))" : "";
  const [, unread] = await d1.batch<{ n: number }>([
    d1.prepare(`UPDATE alert_notifications SET read_at = ? WHERE user_id = ? AND read_at IS NULL${only}`).bind(now.toISOString(), userId, ...(ids ? [JSON.stringify(ids)] : [])),
    d1.prepare("SELECT count(*) AS n FROM alert_notifications WHERE user_id = ? AND read_at IS NULL").bind(userId),
  ]);
  return Number(unread.results[0]?.n ?? 0);
}

/** Deletes alerts older than 90 days and their bell rows, and the mail caps' log of days before yesterday. */
export async function pruneAlertHistory(db: Database, now: Date): Promise<{ alerts: number }> {
  const d1 = d1Of(db);
  const cutoff = new Date(now.getTime() - ALERT_HISTORY_DAYS * 86_400_000).toISOString();
  const [, alerts] = await d1.batch([
    d1.prepare("DELETE FROM alert_notifications WHERE alert_id IN (SELECT id FROM alert_history WHERE fired_at < ?)").bind(cutoff),
    d1.prepare("DELETE FROM alert_history WHERE fired_at < ?").bind(cutoff),
    pruneMailLogStatement(d1, now),
  ]);
  return { alerts: Number(alerts.meta?.changes ?? 0) };
}
