// One evaluation of the alert rules (decision 071): every account's (the 1-minute cron) or one
// account's call rules (right after a call webhook). Round trips: one for the rules, one per chunk
// of accounts for their data, one per chunk for the state changes; the store metrics once per run
// whoever asks; the plan's minutes per account that has such a rule. Calls add rows to a statement,
// never statements.
//
// A rule fires once per breach and resolves once. Each change of state is one conditional UPDATE of
// alert_rule_state that names this run, and the history and bell rows are written in the same batch
// only where that UPDATE took (they select on the run's id): a second, overlapping run reads the
// same state but its UPDATE matches no row, so it writes nothing and sends nothing. The cooldown is
// in the UPDATE's own condition, so it holds whatever state a run read.
import { ALERT_METRICS, breaches, formatAlertValue, windowLabel, type AlertComparison, type AlertMetricId } from "@shared/alerts";
import { ALERT_TEXT } from "@shared/messages";
import type { Database } from "../../db/client";
import { d1Of } from "../../db/client";
import { log } from "../../lib/log";
import type { MailPort } from "../../providers";
import {
  assistantsOf,
  callMetricValue,
  minutesUsedValue,
  minuteRowsStatement,
  readScopes,
  scopeLabel,
  scopesStatements,
  silentLineStatements,
  silentLineValue,
  storeMetricValue,
  windowStart,
  MINUTE_MS,
  type AccountScopes,
  type MinuteRow,
} from "./values";

/** A rule with its state and its account, as a run reads them. */
export type RuleRow = {
  id: number;
  user_id: string;
  name: string;
  metric: AlertMetricId;
  scope_kind: string;
  scope_id: string;
  comparison: AlertComparison;
  threshold: number;
  window_minutes: number;
  cooldown_minutes: number;
  severity: "warning" | "critical";
  email_account: number;
  extra_emails: string;
  webhook: number;
  bell: number;
  status: "ok" | "triggered";
  since: string;
  last_fired_at: string | null;
  alert_id: number | null;
  email: string;
  shopwindows_info: number;
  call_app: number;
  is_admin: number;
};

/** The alert event a channel tells of: `alert.triggered` or `alert.resolved`. */
export type AlertEvent = {
  type: "alert.triggered" | "alert.resolved";
  userId: string;
  alert: {
    id: number;
    ruleId: number;
    ruleName: string;
    metric: AlertMetricId;
    scope: { kind: string; id: string; label: string };
    severity: string;
    comparison: AlertComparison;
    threshold: number;
    windowMinutes: number;
    value: number;
    windowStart: string;
    windowEnd: string;
    at: string;
  };
};

/** The webhook channel: hands the event to the account's webhook deliveries (see ./channels.ts). */
export type WebhookChannel = (event: AlertEvent) => Promise<void>;

export type AlertDeps = { db: Database; mail: MailPort; webhook: WebhookChannel; publicUrl?: string };

export type AlertRun = { runId: string; rules: number; accounts: number; fired: number; resolved: number; mailsFailed: number; webhooksFailed: number };

/** Accounts whose data one batch reads. */
export const ACCOUNTS_PER_BATCH = 25;

/** Whether the account may use the metric now (a flag taken away stops its rules without deleting them). */
export const mayUse = (metric: AlertMetricId, account: { shopwindows_info: number; call_app: number; is_admin: number }) => {
  const flag = ALERT_METRICS[metric].flag;
  if (!flag || account.is_admin) return true;
  return flag === "callApp" ? Boolean(account.call_app) : Boolean(account.shopwindows_info);
};

/** What a rule's state should do now: fire, resolve or nothing (a value of null changes nothing). */
export function transition(rule: Pick<RuleRow, "status" | "last_fired_at" | "cooldown_minutes" | "comparison" | "threshold">, value: number | null, now: Date): "fire" | "resolve" | null {
  if (value === null) return null;
  const breaching = breaches(rule.comparison, value, rule.threshold);
  if (rule.status === "ok" && breaching) {
    const cooled = !rule.last_fired_at || now.getTime() - Date.parse(rule.last_fired_at) >= rule.cooldown_minutes * MINUTE_MS;
    return cooled ? "fire" : null;
  }
  if (rule.status === "triggered" && !breaching) return "resolve";
  return null;
}

const RULES_SQL =
  "SELECT r.id, r.user_id, r.name, r.metric, r.scope_kind, r.scope_id, r.comparison, r.threshold, r.window_minutes, r.cooldown_minutes, r.severity, " +
  "r.email_account, r.extra_emails, r.webhook, r.bell, s.status, s.since, s.last_fired_at, s.alert_id, p.email, p.shopwindows_info, p.call_app, p.is_admin " +
  "FROM alert_rules r JOIN alert_rule_state s ON s.rule_id = r.id JOIN profiles p ON p.id = r.user_id";

/** The rules a run evaluates: every account's, or one account's call rules. */
async function readRules(d1: D1Database, only?: { userId: string }): Promise<RuleRow[]> {
  const statement = only ? d1.prepare(`${RULES_SQL} WHERE r.user_id = ? ORDER BY r.id`).bind(only.userId) : d1.prepare(`${RULES_SQL} ORDER BY r.user_id, r.id`);
  const rows = (await statement.all<RuleRow>()).results;
  return only ? rows.filter((r) => ALERT_METRICS[r.metric].fromCalls) : rows;
}

type Evaluated = { rule: RuleRow; value: number | null; windowStart: string; label: string };

/** Values of the rules of a chunk of accounts: one batch for their calls, agents and silent lines. */
async function evaluateChunk(db: Database, accounts: [string, RuleRow[]][], now: Date, storeValues: Map<string, number | null>): Promise<Evaluated[]> {
  const d1 = d1Of(db);
  const statements: D1PreparedStatement[] = [];
  const slots: { userId: string; scopes: number; minutes?: number; silent: Map<number, number> }[] = [];
  for (const [userId, rules] of accounts) {
    const slot = { userId, scopes: statements.length, minutes: undefined as number | undefined, silent: new Map<number, number>() };
    statements.push(...scopesStatements(d1, userId));
    const longest = Math.max(0, ...rules.filter((r) => r.window_minutes > 0).map((r) => r.window_minutes));
    if (longest > 0) {
      slot.minutes = statements.length;
      statements.push(minuteRowsStatement(d1, userId, windowStart(now, longest), now));
    }
    for (const rule of rules.filter((r) => r.metric === "silent_line")) {
      slot.silent.set(rule.id, statements.length);
      statements.push(...silentLineStatements(d1, userId, rule.scope_id, now));
    }
    slots.push(slot);
  }
  const results = (await d1.batch<Record<string, unknown>>(statements)).map((r) => r.results ?? []);
  const out: Evaluated[] = [];
  for (const [i, [userId, rules]] of accounts.entries()) {
    const slot = slots[i];
    const scopes: AccountScopes = readScopes(results[slot.scopes], results[slot.scopes + 1]);
    const rows = (slot.minutes === undefined ? [] : results[slot.minutes]) as MinuteRow[];
    for (const rule of rules) {
      const label = scopeLabel(scopes, rule.scope_kind, rule.scope_id);
      const since = windowStart(now, rule.window_minutes);
      let value: number | null = null;
      if (!mayUse(rule.metric, rule)) value = null;
      else if (rule.metric === "silent_line") {
        const at = slot.silent.get(rule.id)!;
        value = silentLineValue(results[at] as { had: number }[], results[at + 1][0] as { last: string | null; assistant: string | null }, now);
      } else if (rule.metric === "minutes_used") value = await minutesUsedValue(db, userId, now);
      else if (ALERT_METRICS[rule.metric].flag) value = storeValues.get(`${rule.metric}|${rule.scope_id}`) ?? null;
      else {
        const assistants = assistantsOf(scopes, rule.scope_kind, rule.scope_id);
        value = assistants?.size === 0 ? null : callMetricValue(rule.metric, rows, since, now, assistants);
      }
      out.push({ rule, value, windowStart: since.toISOString(), label });
    }
  }
  return out;
}

const titleOf = (e: Evaluated, kind: "triggered" | "resolved") =>
  kind === "triggered"
    ? ALERT_TEXT.triggeredTitle(e.rule.name, formatAlertValue(e.rule.metric, e.value ?? 0))
    : ALERT_TEXT.resolvedTitle(e.rule.name, formatAlertValue(e.rule.metric, e.value ?? 0));

/** The statements of one rule's change of state, each conditional on the first having taken for this run. */
function changeStatements(d1: D1Database, e: Evaluated, kind: "fire" | "resolve", runId: string, now: Date): D1PreparedStatement[] {
  const at = now.toISOString();
  const r = e.rule;
  if (kind === "fire") {
    const cooledBefore = new Date(now.getTime() - r.cooldown_minutes * MINUTE_MS).toISOString();
    const took = "EXISTS (SELECT 1 FROM alert_rule_state WHERE rule_id = ? AND run_id = ? AND status = 'triggered' AND since = ?)";
    return [
      d1
        .prepare(
          "UPDATE alert_rule_state SET status = 'triggered', since = ?, last_fired_at = ?, run_id = ?, last_value = ?, evaluated_at = ? " +
            "WHERE rule_id = ? AND status = 'ok' AND (last_fired_at IS NULL OR last_fired_at <= ?)",
        )
        .bind(at, at, runId, e.value, at, r.id, cooledBefore),
      d1
        .prepare(
          "INSERT INTO alert_history (user_id, rule_id, rule_name, metric, scope_kind, scope_id, scope_label, severity, comparison, threshold, window_minutes, value, window_start, window_end, fired_at, run_id) " +
            `SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${took} RETURNING id`,
        )
        .bind(r.user_id, r.id, r.name, r.metric, r.scope_kind, r.scope_id, e.label, r.severity, r.comparison, r.threshold, r.window_minutes, e.value, e.windowStart, at, at, runId, r.id, runId, at),
      d1
        .prepare("UPDATE alert_rule_state SET alert_id = (SELECT max(id) FROM alert_history WHERE rule_id = ? AND run_id = ?) WHERE rule_id = ? AND run_id = ? AND since = ?")
        .bind(r.id, runId, r.id, runId, at),
      d1
        .prepare(
          "INSERT INTO alert_notifications (user_id, alert_id, kind, title, severity, created_at) " +
            "SELECT user_id, id, 'triggered', ?, severity, fired_at FROM alert_history WHERE rule_id = ? AND run_id = ? AND ? = 1",
        )
        .bind(titleOf(e, "triggered"), r.id, runId, r.bell),
    ];
  }
  const took = "EXISTS (SELECT 1 FROM alert_rule_state WHERE rule_id = ? AND run_id = ? AND status = 'ok' AND since = ?)";
  return [
    d1
      .prepare("UPDATE alert_rule_state SET status = 'ok', since = ?, run_id = ?, last_value = ?, evaluated_at = ? WHERE rule_id = ? AND status = 'triggered' AND alert_id IS ?")
      .bind(at, runId, e.value, at, r.id, r.alert_id),
    d1
      .prepare(`UPDATE alert_history SET resolved_at = ?, resolved_value = ? WHERE id = ? AND resolved_at IS NULL AND ${took} RETURNING id`)
      .bind(at, e.value, r.alert_id, r.id, runId, at),
    d1
      .prepare(
        "INSERT INTO alert_notifications (user_id, alert_id, kind, title, severity, created_at) " +
          `SELECT user_id, id, 'resolved', ?, severity, ? FROM alert_history WHERE id = ? AND resolved_at = ? AND ${took} AND ? = 1`,
      )
      .bind(titleOf(e, "resolved"), at, r.alert_id, at, r.id, runId, at, r.bell),
  ];
}

function eventOf(e: Evaluated, kind: "triggered" | "resolved", alertId: number, now: Date): AlertEvent {
  const r = e.rule;
  return {
    type: kind === "triggered" ? "alert.triggered" : "alert.resolved",
    userId: r.user_id,
    alert: {
      id: alertId,
      ruleId: r.id,
      ruleName: r.name,
      metric: r.metric,
      scope: { kind: r.scope_kind, id: r.scope_id, label: e.label },
      severity: r.severity,
      comparison: r.comparison,
      threshold: r.threshold,
      windowMinutes: r.window_minutes,
      value: e.value ?? 0,
      windowStart: e.windowStart,
      windowEnd: now.toISOString(),
      at: now.toISOString(),
    },
  };
}

/** The mails of one alert event: the account's address (when chosen) and the extra ones. */
async function mailEvent(deps: AlertDeps, e: Evaluated, event: AlertEvent): Promise<number> {
  const r = e.rule;
  const to = [...(r.email_account ? [r.email] : []), ...(JSON.parse(r.extra_emails) as string[])];
  const origin = deps.publicUrl?.replace(/\/+$/, "");
  const kind = event.type === "alert.triggered" ? "triggered" : "resolved";
  const text = ALERT_TEXT.mailText({
    kind,
    ruleName: r.name,
    metric: ALERT_METRICS[r.metric].label,
    scope: e.label,
    value: formatAlertValue(r.metric, event.alert.value),
    threshold: `${r.comparison === "gte" ? "≥" : "≤"} ${formatAlertValue(r.metric, r.threshold)}`,
    window: windowLabel(r.metric, r.window_minutes),
    severity: r.severity,
    at: event.alert.at,
  });
  let failed = 0;
  for (const address of [...new Set(to.map((a) => a.toLowerCase()))]) {
    try {
      await deps.mail.send({
        to: address,
        subject: ALERT_TEXT.mailSubject(kind, r.severity, r.name),
        text: origin ? `${text}\n\n${origin}/alerts` : text,
        link: origin ? `${origin}/alerts` : undefined,
        kind: "alert",
        idempotencyKey: `alert/${event.alert.id}/${kind}/${address}`,
      });
    } catch (err) {
      failed += 1;
      log(null, "error", "alert mail failed", { alertId: event.alert.id, kind, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return failed;
}

/**
 * Evaluates the rules and moves their states, then tells the channels of each change this run made.
 * `only`: one account's call rules (after a call webhook). Store metrics are read once per run.
 */
export async function evaluateAlerts(deps: AlertDeps, now: Date, only?: { userId: string }, runId: string = crypto.randomUUID()): Promise<AlertRun> {
  const d1 = d1Of(deps.db);
  const rules = await readRules(d1, only);
  const byAccount = new Map<string, RuleRow[]>();
  for (const rule of rules) byAccount.set(rule.user_id, [...(byAccount.get(rule.user_id) ?? []), rule]);
  const run: AlertRun = { runId, rules: rules.length, accounts: byAccount.size, fired: 0, resolved: 0, mailsFailed: 0, webhooksFailed: 0 };

  // The store network's figures, once each whoever asks for them.
  const storeValues = new Map<string, number | null>();
  for (const rule of rules) {
    const key = `${rule.metric}|${rule.scope_id}`;
    if (!ALERT_METRICS[rule.metric].flag || storeValues.has(key) || !mayUse(rule.metric, rule)) continue;
    storeValues.set(key, await storeMetricValue(deps.db, rule.metric, rule.scope_id, now));
  }

  const accounts = [...byAccount];
  for (let i = 0; i < accounts.length; i += ACCOUNTS_PER_BATCH) {
    const evaluated = await evaluateChunk(deps.db, accounts.slice(i, i + ACCOUNTS_PER_BATCH), now, storeValues);
    const changes = evaluated.flatMap((e) => {
      const kind = transition(e.rule, e.value, now);
      return kind ? [{ e, kind, statements: changeStatements(d1, e, kind, runId, now) }] : [];
    });
    if (changes.length === 0) continue;
    const results = await d1.batch<{ id: number }>(changes.flatMap((c) => c.statements));
    let at = 0;
    for (const change of changes) {
      // The history statement (the second of each change) returns the alert only where this run's UPDATE took.
      const taken = results[at + 1].results ?? [];
      at += change.statements.length;
      if (taken.length === 0) continue;
      const kind = change.kind === "fire" ? "triggered" : "resolved";
      if (kind === "triggered") run.fired += 1;
      else run.resolved += 1;
      const event = eventOf(change.e, kind, taken[0].id, now);
      run.mailsFailed += await mailEvent(deps, change.e, event);
      if (change.e.rule.webhook) {
        try {
          await deps.webhook(event);
        } catch (err) {
          run.webhooksFailed += 1;
          log(null, "error", "alert webhook failed", { alertId: event.alert.id, error: err instanceof Error ? err.message : String(err) });
        }
      }
    }
  }
  return run;
}
