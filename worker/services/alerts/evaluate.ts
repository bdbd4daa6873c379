// One evaluation of the alert rules (decision 071) of one shard (decision 078): every account's on it
// (the 1-minute cron runs one per shard, in parallel) or one account's call rules (right after a
// call webhook). The rules, their states, the history and the bell are the shard's; the accounts'
// profiles, agents, numbers, plans and extra addresses, the mail caps' log and the store network are
// the directory's. Round trips: one for the rules (with the call roll-ups' coverage of the month);
// per chunk of accounts one to the directory (profiles, agents, numbers, plans, extra addresses) and
// then one to the shard for their data (calls, silent lines and, for accounts with a minutes-used
// rule, the month's seconds), whatever the number of rules; per chunk with changes one to the shard
// for the state changes and one to the directory for their mail claims; the store metrics once per
// run whoever asks.
//
// A rule fires once per breach and resolves once. Each change of state is one conditional UPDATE of
// alert_rule_state that names this run, and the history and bell rows are written in the same batch
// only where that UPDATE took (they select on the run's id): a second, overlapping run reads the
// same state but its UPDATE matches no row, so it writes nothing and sends nothing. The cooldown is
// in the UPDATE's own condition (never under ALERT_COOLDOWN.min), so it holds whatever state a run read.
//
// Mail (decision 073): the account's own address, and the extra addresses its plan allows that have
// confirmed. Each mail of a change that took is then claimed in the directory by an INSERT into
// alert_mail_log that counts the day's caps (per account, per recipient) in its own condition and is
// unique per alert, kind and address; past a cap the claim does not take, the firing is still
// recorded and rings the bell, and the owner's address is told once that day. A run that dies between
// the two batches sends no mail for that change (at most once, as a crash after a claim always did).
import {
  ALERT_COOLDOWN,
  ALERT_MAIL_CAPS,
  ALERT_METRICS,
  ALERT_UNSUBSCRIBE_PATH,
  breaches,
  formatAlertValue,
  windowLabel,
  type AlertComparison,
  type AlertMetricId,
  type AlertPlanLimits,
} from "@shared/alerts";
import { ALERT_MAIL_TEXT, ALERT_TEXT } from "@shared/messages";
import type { AccountPlan } from "@shared/schemas/agents";
import type { Database } from "../../db/client";
import { d1Of } from "../../db/client";
import { SHARD_ROW_ID, type Shard } from "../../db/shards";
import { log } from "../../lib/log";
import type { MailPort } from "../../providers";
import { coveragePlan, type Coverage } from "../counts/engine";
import { DbMeter } from "../counts/meter";
import { monthlyCallsPlan, nyMonthDays } from "../counts/month";
import { alertLimits, monthSecondsFor, planOf, subscriptionsStatement } from "../plans";
import { mailDay, recipientsStatement, type RecipientRow } from "./recipients";
import {
  assistantsOf,
  callMetricValue,
  minutesUsedOf,
  minuteRowsStatement,
  numberAssistant,
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

/** A rule with its state (the shard's) and its account (the directory's profile), as a run reads them. */
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

/** The webhook channel: hands the event to the account's webhook deliveries on its shard (see ./channels.ts). */
export type WebhookChannel = (event: AlertEvent, shard: Shard) => Promise<void>;

/** The store metrics' values of one minute by `metric|store`, read once and shared by the runs of every shard. */
export type StoreValues = Map<string, Promise<number | null>>;

/**
 * `db`: the directory; `shard`: the shard whose rules are evaluated; `storeValues`: the store
 * metrics already asked for by this minute's runs on other shards (absent: this run's own).
 */
export type AlertDeps = { db: Database; shard: Shard; mail: MailPort; webhook: WebhookChannel; publicUrl?: string; storeValues?: StoreValues };

export type AlertRun = { runId: string; rules: number; accounts: number; fired: number; resolved: number; mailsFailed: number; webhooksFailed: number };

/** Accounts whose data one batch reads. */
export const ACCOUNTS_PER_BATCH = 25;

/** Whether the account may use the metric now (a flag taken away stops its rules without deleting them). */
export const mayUse = (metric: AlertMetricId, account: { shopwindows_info: number; call_app: number; is_admin: number }) => {
  const flag = ALERT_METRICS[metric].flag;
  if (!flag || account.is_admin) return true;
  return flag === "callApp" ? Boolean(account.call_app) : Boolean(account.shopwindows_info);
};

/** A rule's cooldown as evaluated: never under the floor, whatever an older row holds. */
export const cooldownOf = (rule: Pick<RuleRow, "cooldown_minutes">) => Math.max(rule.cooldown_minutes, ALERT_COOLDOWN.min);

/** What a rule's state should do now: fire, resolve or nothing (a value of null changes nothing). */
export function transition(rule: Pick<RuleRow, "status" | "last_fired_at" | "cooldown_minutes" | "comparison" | "threshold">, value: number | null, now: Date): "fire" | "resolve" | null {
  if (value === null) return null;
  const breaching = breaches(rule.comparison, value, rule.threshold);
  if (rule.status === "ok" && breaching) {
    const cooled = !rule.last_fired_at || now.getTime() - Date.parse(rule.last_fired_at) >= cooldownOf(rule) * MINUTE_MS;
    return cooled ? "fire" : null;
  }
  if (rule.status === "triggered" && !breaching) return "resolve";
  return null;
}

const RULES_SQL =
  "SELECT r.id, r.user_id, r.name, r.metric, r.scope_kind, r.scope_id, r.comparison, r.threshold, r.window_minutes, r.cooldown_minutes, r.severity, " +
  "r.email_account, r.extra_emails, r.webhook, r.bell, coalesce(s.status, 'ok') AS status, coalesce(s.since, r.created_at) AS since, s.last_fired_at, s.alert_id " +
  "FROM alert_rules r LEFT JOIN alert_rule_state s ON s.rule_id = r.id";

/** A rule with its state, as the shard holds it (its account's profile is the directory's). */
type ShardRuleRow = Omit<RuleRow, "email" | "shopwindows_info" | "call_app" | "is_admin">;

/** The profile fields a run needs of an account. */
type ProfileRow = Pick<RuleRow, "email" | "shopwindows_info" | "call_app" | "is_admin"> & { id: string; shard: string | null };

/** The call roll-ups' coverage of this New York month, as the run read it (minutes used counts the month over it). */
type MonthCoverage = { range: { startDate: string; endDate: string }; coverage: Coverage };

/**
 * The rules a run evaluates (every account's on the shard, or one account's call rules), and the
 * month's coverage, in one round trip. A rule without a state row yet (one copied by a move before
 * its state, decision 080) reads as ok since its creation; its first firing writes the row.
 */
async function readRules(shard: Database, now: Date, only?: { userId: string }): Promise<{ rules: ShardRuleRow[]; month: MonthCoverage }> {
  const d1 = d1Of(shard);
  const statement = only ? d1.prepare(`${RULES_SQL} WHERE r.user_id = ? ORDER BY r.created_at, r.id`).bind(only.userId) : d1.prepare(`${RULES_SQL} ORDER BY r.user_id, r.created_at, r.id`);
  const range = nyMonthDays(now);
  const cover = coveragePlan(new DbMeter(shard.$client), ["call_logs"] as const, range);
  const [rules, ...coverage] = (await d1.batch<Record<string, unknown>>([statement, ...cover.statements])).map((r) => r.results ?? []);
  const rows = rules as ShardRuleRow[];
  return { rules: only ? rows.filter((r) => ALERT_METRICS[r.metric].fromCalls) : rows, month: { range, coverage: cover.read(coverage).call_logs } };
}

type Evaluated = { rule: RuleRow; value: number | null; windowStart: string; label: string };

/** What a chunk read of each account besides its rules' values: what its plan allows of alerts, its extra addresses. */
export type AccountMail = { limits: AlertPlanLimits; recipients: Map<string, RecipientRow> };

/**
 * Values of the rules of a chunk of accounts: one batch to the directory for their profiles, agents,
 * numbers, plans and extra addresses, then one to the shard for their calls, silent lines and
 * (accounts with a minutes-used rule) month, whatever the number of rules. A rule whose account has
 * no profile in the directory (deleted meanwhile) is left out. The month is counted over the
 * coverage read with the rules; the batch reads the coverage again, and should it have moved in
 * between (a roll-up ran), those accounts' months are read again alone. A rule of an account the
 * directory places on another shard (a move's copy, decision 080) is left out too.
 */
async function evaluateChunk(
  deps: Pick<AlertDeps, "db" | "shard">,
  chunk: [string, ShardRuleRow[]][],
  now: Date,
  storeValues: StoreValues,
  month: MonthCoverage,
): Promise<{ evaluated: Evaluated[]; mail: Map<string, AccountMail> }> {
  const dir = d1Of(deps.db);
  const shardDb = deps.shard.db;
  const d1 = d1Of(shardDb);

  // The directory's part: the profiles, then per account its agents, numbers, plan and extra addresses.
  const directoryStatements: D1PreparedStatement[] = [
    dir.prepare("SELECT id, email, shopwindows_info, call_app, is_admin, shard FROM profiles WHERE id IN (SELECT value FROM json_each(?))").bind(JSON.stringify(chunk.map(([id]) => id))),
  ];
  for (const [userId] of chunk) directoryStatements.push(...scopesStatements(dir, userId), subscriptionsStatement(dir, userId), recipientsStatement(dir, userId));
  const read = (await dir.batch<Record<string, unknown>>(directoryStatements)).map((r) => r.results ?? []);
  const profiles = new Map((read[0] as ProfileRow[]).map((p) => [p.id, p]));
  const accounts: { userId: string; rules: RuleRow[]; scopes: AccountScopes; plan: AccountPlan; mail: AccountMail }[] = [];
  for (const [i, [userId, rules]] of chunk.entries()) {
    const profile = profiles.get(userId);
    // Only the accounts the directory places on this shard: a moving account's rules are on both
    // shards until the move deletes the old ones (decision 080), and are evaluated once, where it is.
    if (!profile || profile.shard !== deps.shard.name) continue;
    const at = 1 + i * 4;
    const plan: AccountPlan = planOf(read[at + 2] as Parameters<typeof planOf>[0], now);
    const full = rules.map((r): RuleRow => ({ ...r, email: profile.email, shopwindows_info: profile.shopwindows_info, call_app: profile.call_app, is_admin: profile.is_admin }));
    accounts.push({
      userId,
      rules: full,
      scopes: readScopes(read[at], read[at + 1]),
      plan,
      mail: { limits: alertLimits(plan, Boolean(profile.is_admin)), recipients: new Map((read[at + 3] as RecipientRow[]).map((r) => [r.email, r])) },
    });
  }

  // The store network's figures (the directory's), once each whoever asks for them, on any shard.
  const stores = new Map<string, number | null>();
  for (const rule of accounts.flatMap((a) => a.rules)) {
    const key = `${rule.metric}|${rule.scope_id}`;
    if (!ALERT_METRICS[rule.metric].flag || stores.has(key) || !mayUse(rule.metric, rule)) continue;
    if (!storeValues.has(key)) storeValues.set(key, storeMetricValue(deps.db, rule.metric, rule.scope_id, now));
    stores.set(key, await storeValues.get(key)!);
  }

  // The shard's part: the accounts' calls.
  const meter = new DbMeter(shardDb.$client);
  const statements: D1PreparedStatement[] = [];
  const monthly = accounts.some((a) => a.rules.some((r) => r.metric === "minutes_used"));
  const check = monthly ? coveragePlan(meter, ["call_logs"] as const, month.range) : null;
  if (check) statements.push(...check.statements);
  type Slot = { minutes?: number; silent: Map<number, number>; month?: { at: number; plan: ReturnType<typeof monthlyCallsPlan> } };
  const slots: Slot[] = [];
  for (const { userId, rules, scopes } of accounts) {
    const slot: Slot = { silent: new Map<number, number>() };
    const longest = Math.max(0, ...rules.filter((r) => r.window_minutes > 0).map((r) => r.window_minutes));
    if (longest > 0) {
      slot.minutes = statements.length;
      statements.push(minuteRowsStatement(d1, userId, windowStart(now, longest), now));
    }
    for (const rule of rules.filter((r) => r.metric === "silent_line")) {
      slot.silent.set(rule.id, statements.length);
      statements.push(...silentLineStatements(d1, numberAssistant(scopes, rule.scope_id), now));
    }
    if (rules.some((r) => r.metric === "minutes_used")) {
      const plan = monthlyCallsPlan(meter, userId, month.coverage);
      slot.month = { at: statements.length, plan };
      statements.push(...plan.statements);
    }
    slots.push(slot);
  }
  const results = statements.length === 0 ? [] : (await d1.batch<Record<string, unknown>>(statements)).map((r) => r.results ?? []);
  // The coverage this batch saw: when it is not the one the months were counted over, count them again.
  const held = !check || JSON.stringify(check.read(results.slice(0, check.statements.length)).call_logs) === JSON.stringify(month.coverage);
  const out: Evaluated[] = [];
  const mail = new Map<string, AccountMail>();
  for (const [i, { userId, rules, scopes, plan, mail: accountMail }] of accounts.entries()) {
    const slot = slots[i];
    mail.set(userId, accountMail);
    const rows = (slot.minutes === undefined ? [] : results[slot.minutes]) as MinuteRow[];
    let seconds: number | null = null;
    if (slot.month) {
      seconds = held
        ? slot.month.plan.read(results.slice(slot.month.at, slot.month.at + slot.month.plan.statements.length)).duration_seconds
        : await monthSecondsFor(shardDb, userId, now);
    }
    for (const rule of rules) {
      const label = scopeLabel(scopes, rule.scope_kind, rule.scope_id);
      const since = windowStart(now, rule.window_minutes);
      let value: number | null = null;
      if (!mayUse(rule.metric, rule)) value = null;
      else if (rule.metric === "silent_line") {
        const at = slot.silent.get(rule.id)!;
        value = silentLineValue(results[at] as { had: number }[], results[at + 1][0] as { last: string | null; assistant: string | null }, now);
      } else if (rule.metric === "minutes_used") value = minutesUsedOf(plan, seconds ?? 0);
      else if (ALERT_METRICS[rule.metric].flag) value = stores.get(`${rule.metric}|${rule.scope_id}`) ?? null;
      else {
        const assistants = assistantsOf(scopes, rule.scope_kind, rule.scope_id);
        value = assistants?.size === 0 ? null : callMetricValue(rule.metric, rows, since, now, assistants);
      }
      out.push({ rule, value, windowStart: since.toISOString(), label });
    }
  }
  return { evaluated: out, mail };
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
    const cooledBefore = new Date(now.getTime() - cooldownOf(r) * MINUTE_MS).toISOString();
    const took = "EXISTS (SELECT 1 FROM alert_rule_state WHERE rule_id = ? AND run_id = ? AND status = 'triggered' AND since = ?)";
    return [
      // The rule's state row, where it has none yet (read as ok): the UPDATE below then moves it.
      d1.prepare("INSERT INTO alert_rule_state (rule_id, user_id, status, since) VALUES (?, ?, 'ok', ?) ON CONFLICT (rule_id) DO NOTHING").bind(r.id, r.user_id, r.since),
      d1
        .prepare(
          "UPDATE alert_rule_state SET status = 'triggered', since = ?, last_fired_at = ?, run_id = ?, last_value = ?, evaluated_at = ? " +
            "WHERE rule_id = ? AND status = 'ok' AND (last_fired_at IS NULL OR last_fired_at <= ?)",
        )
        .bind(at, at, runId, e.value, at, r.id, cooledBefore),
      d1
        .prepare(
          "INSERT INTO alert_history (id, user_id, rule_id, rule_name, metric, scope_kind, scope_id, scope_label, severity, comparison, threshold, window_minutes, value, window_start, window_end, fired_at, run_id) " +
            `SELECT ${SHARD_ROW_ID}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${took} RETURNING id`,
        )
        .bind(r.user_id, r.id, r.name, r.metric, r.scope_kind, r.scope_id, e.label, r.severity, r.comparison, r.threshold, r.window_minutes, e.value, e.windowStart, at, at, runId, r.id, runId, at),
      d1
        .prepare("UPDATE alert_rule_state SET alert_id = (SELECT max(id) FROM alert_history WHERE rule_id = ? AND run_id = ?) WHERE rule_id = ? AND run_id = ? AND since = ?")
        .bind(r.id, runId, r.id, runId, at),
      d1
        .prepare(
          "INSERT INTO alert_notifications (id, user_id, alert_id, kind, title, severity, created_at) " +
            `SELECT ${SHARD_ROW_ID}, user_id, id, 'triggered', ?, severity, fired_at FROM alert_history WHERE rule_id = ? AND run_id = ? AND ? = 1`,
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
        "INSERT INTO alert_notifications (id, user_id, alert_id, kind, title, severity, created_at) " +
          `SELECT ${SHARD_ROW_ID}, user_id, id, 'resolved', ?, severity, ? FROM alert_history WHERE id = ? AND resolved_at = ? AND ${took} AND ? = 1`,
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

/** One address an alert mails: the account's own, or an extra one that confirmed (with its unsubscribe id). */
type Recipient = { email: string; unsubscribeId: string | null };

/**
 * Whom a rule's alert mails: the account's own address when chosen, and the extra addresses the
 * plan allows (the first ones, in the rule's order) that have confirmed and not unsubscribed. Extra
 * addresses need the public address for their unsubscribe link: without it they get nothing.
 */
export function recipientsOf(rule: RuleRow, account: AccountMail, origin: string | undefined): Recipient[] {
  const own = rule.email.toLowerCase();
  const out: Recipient[] = rule.email_account ? [{ email: own, unsubscribeId: null }] : [];
  if (!origin) return out;
  const extras = [...new Set((JSON.parse(rule.extra_emails) as string[]).map((e) => e.toLowerCase()))].filter((e) => e !== own).slice(0, account.limits.extraEmails);
  for (const email of extras) {
    const row = account.recipients.get(email);
    if (row?.status === "confirmed") out.push({ email, unsubscribeId: row.unsubscribe_id });
  }
  return out;
}

/**
 * The claims of the mails of a change that took, for the directory's batch: per recipient, an INSERT
 * into the day's log that takes only where the address is (still) confirmed and the day's caps (the
 * account's, the address's) are not reached, counted in its own condition, once per alert, kind and
 * address (`ref`, unique with the address); and the owner's "mail paused" notice, claimed once a
 * day, where a claim did not take because of a cap.
 */
function mailClaimStatements(d1: D1Database, rule: RuleRow, ref: string, now: Date, recipients: Recipient[]): D1PreparedStatement[] {
  const day = mailDay(now);
  const capped = "((SELECT count(*) FROM alert_mail_log WHERE user_id = ?1 AND day = ?2 AND kind = 'alert') >= ?4 OR (SELECT count(*) FROM alert_mail_log WHERE email = ?3 AND day = ?2 AND kind = 'alert') >= ?5)";
  return recipients.flatMap((to) => {
    const confirmed = to.unsubscribeId ? " AND EXISTS (SELECT 1 FROM alert_mail_recipients WHERE user_id = ?1 AND email = ?3 AND status = 'confirmed')" : "";
    const bind = [rule.user_id, day, to.email, ALERT_MAIL_CAPS.perAccountPerDay, ALERT_MAIL_CAPS.perRecipientPerDay, ref, rule.email.toLowerCase()];
    return [
      d1
        .prepare(`INSERT INTO alert_mail_log (user_id, email, day, kind, ref) SELECT ?1, ?3, ?2, 'alert', ?6 WHERE 1${confirmed} AND NOT ${capped} ON CONFLICT DO NOTHING RETURNING id`)
        .bind(...bind.slice(0, 6)),
      d1
        .prepare(
          `INSERT INTO alert_mail_log (user_id, email, day, kind, ref) SELECT ?1, ?7, ?2, 'paused', ?2 || ':' || ?1 WHERE ${capped} ` +
            "AND NOT EXISTS (SELECT 1 FROM alert_mail_log WHERE kind = 'alert' AND ref = ?6 AND email = ?3) ON CONFLICT DO NOTHING RETURNING id",
        )
        .bind(...bind),
    ];
  });
}

/**
 * The mail of one alert event to the recipients whose claim took. The subject names the metric and
 * the severity only; the rule's name is in the body, said to be the account's. An extra address's
 * mail carries its one-click unsubscribe (RFC 8058 headers and a link).
 */
async function mailEvent(deps: AlertDeps, e: Evaluated, event: AlertEvent, to: Recipient[]): Promise<number> {
  const r = e.rule;
  const origin = deps.publicUrl?.replace(/\/+$/, "");
  const kind = event.type === "alert.triggered" ? "triggered" : "resolved";
  const metric = ALERT_METRICS[r.metric].label;
  const text = ALERT_MAIL_TEXT.mailText({
    kind,
    ruleName: r.name,
    metric,
    scope: e.label,
    value: formatAlertValue(r.metric, event.alert.value),
    threshold: `${r.comparison === "gte" ? "≥" : "≤"} ${formatAlertValue(r.metric, r.threshold)}`,
    window: windowLabel(r.metric, r.window_minutes),
    severity: r.severity,
    at: event.alert.at,
  });
  let failed = 0;
  for (const recipient of to) {
    const unsubscribeUrl = recipient.unsubscribeId && origin ? `${origin}${ALERT_UNSUBSCRIBE_PATH}?token=${recipient.unsubscribeId}` : null;
    try {
      await deps.mail.send({
        to: recipient.email,
        subject: ALERT_MAIL_TEXT.mailSubject(kind, r.severity, metric),
        text: unsubscribeUrl ? `${text}\n\n${ALERT_MAIL_TEXT.mailExtraFooter(r.email, unsubscribeUrl)}` : origin ? `${text}\n\n${origin}/alerts` : text,
        link: unsubscribeUrl ? undefined : origin ? `${origin}/alerts` : undefined,
        headers: unsubscribeUrl ? { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : undefined,
        kind: "alert",
        idempotencyKey: `alert/${deps.shard.name}/${event.alert.id}/${kind}/${recipient.email}`,
      });
    } catch (err) {
      failed += 1;
      log(null, "error", "alert mail failed", { alertId: event.alert.id, kind, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return failed;
}

/** The owner's one notice of the day that the caps paused alert mail. */
async function mailPaused(deps: AlertDeps, rule: RuleRow, now: Date): Promise<number> {
  try {
    await deps.mail.send({
      to: rule.email,
      subject: ALERT_MAIL_TEXT.pausedSubject,
      text: ALERT_MAIL_TEXT.pausedMailText(ALERT_MAIL_CAPS.perAccountPerDay, ALERT_MAIL_CAPS.perRecipientPerDay),
      kind: "alert_paused",
      idempotencyKey: `alert-paused/${rule.user_id}/${mailDay(now)}`,
    });
    return 0;
  } catch (err) {
    log(null, "error", "alert paused mail failed", { error: err instanceof Error ? err.message : String(err) });
    return 1;
  }
}

/**
 * Evaluates the shard's rules and moves their states, then tells the channels of each change this
 * run made. `only`: one account's call rules (after a call webhook). Store metrics are read once per run.
 */
export async function evaluateAlerts(deps: AlertDeps, now: Date, only?: { userId: string }, runId: string = crypto.randomUUID()): Promise<AlertRun> {
  const d1 = d1Of(deps.shard.db);
  const dir = d1Of(deps.db);
  const { rules, month } = await readRules(deps.shard.db, now, only);
  const byAccount = new Map<string, ShardRuleRow[]>();
  for (const rule of rules) byAccount.set(rule.user_id, [...(byAccount.get(rule.user_id) ?? []), rule]);
  const run: AlertRun = { runId, rules: rules.length, accounts: byAccount.size, fired: 0, resolved: 0, mailsFailed: 0, webhooksFailed: 0 };
  const origin = deps.publicUrl?.replace(/\/+$/, "");
  const storeValues: StoreValues = deps.storeValues ?? new Map();

  const accounts = [...byAccount];
  for (let i = 0; i < accounts.length; i += ACCOUNTS_PER_BATCH) {
    const { evaluated, mail } = await evaluateChunk(deps, accounts.slice(i, i + ACCOUNTS_PER_BATCH), now, storeValues, month);
    const changes = evaluated.flatMap((e) => {
      const kind = transition(e.rule, e.value, now);
      if (!kind) return [];
      const to = recipientsOf(e.rule, mail.get(e.rule.user_id)!, origin);
      return [{ e, kind, to, statements: changeStatements(d1, e, kind, runId, now) }];
    });
    if (changes.length === 0) continue;
    const results = await d1.batch<{ id: number }>(changes.flatMap((c) => c.statements));
    const taken: { change: (typeof changes)[number]; alertId: number; ref: string }[] = [];
    let at = 0;
    for (const change of changes) {
      // The history statement returns the alert only where this run's UPDATE took: the third of a firing, the second of a resolution.
      const alert = (results[at + (change.kind === "fire" ? 2 : 1)].results ?? [])[0];
      at += change.statements.length;
      // Alert ids are a shard's own: the directory's log names the shard too.
      if (alert) taken.push({ change, alertId: alert.id, ref: `${deps.shard.name}:${alert.id}:${change.kind === "fire" ? "triggered" : "resolved"}` });
    }
    // The mails of the changes that took, claimed in the directory: two statements per recipient.
    const claimStatements = taken.map((t) => mailClaimStatements(dir, t.change.e.rule, t.ref, now, t.change.to));
    const claims = claimStatements.some((c) => c.length > 0) ? (await dir.batch<{ id: number }>(claimStatements.flat())).map((r) => r.results ?? []) : [];
    let claimAt = 0;
    for (const [k, { change, alertId }] of taken.entries()) {
      const mine = claims.slice(claimAt, claimAt + claimStatements[k].length);
      claimAt += claimStatements[k].length;
      const sendTo = change.to.filter((_, j) => mine[2 * j].length > 0);
      const paused = change.to.some((_, j) => mine[2 * j + 1].length > 0);
      const kind = change.kind === "fire" ? "triggered" : "resolved";
      if (kind === "triggered") run.fired += 1;
      else run.resolved += 1;
      const event = eventOf(change.e, kind, alertId, now);
      run.mailsFailed += await mailEvent(deps, change.e, event, sendTo);
      if (paused) run.mailsFailed += await mailPaused(deps, change.e.rule, now);
      if (change.e.rule.webhook) {
        try {
          await deps.webhook(event, deps.shard);
        } catch (err) {
          run.webhooksFailed += 1;
          log(null, "error", "alert webhook failed", { alertId: event.alert.id, error: err instanceof Error ? err.message : String(err) });
        }
      }
    }
  }
  return run;
}
