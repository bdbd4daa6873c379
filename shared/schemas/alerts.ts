// Alert contracts (decision 071): rules, the Test replay, the history and the bell. A rule's body is
// checked against its metric here (scope, window, comparison, threshold in range), each issue naming
// its field; the server then checks what needs the account (flags, the scope's owner, the 50 rules).
import { z } from "zod";
import {
  ALERT_COMPARISONS,
  ALERT_COOLDOWN,
  ALERT_METRIC_IDS,
  ALERT_METRICS,
  ALERT_RECIPIENT_STATES,
  ALERT_SCOPE_KINDS,
  ALERT_SEVERITIES,
  ALERT_WINDOWS,
  MAX_ALERT_EXTRA_EMAILS,
} from "../alerts";

const ruleFields = z.strictObject({
  name: z.string().trim().min(1, "name is required").max(100, "name must be at most 100 characters"),
  metric: z.enum(ALERT_METRIC_IDS, { error: `metric must be one of ${ALERT_METRIC_IDS.join(", ")}` }),
  scopeKind: z.enum(ALERT_SCOPE_KINDS, { error: `scopeKind must be one of ${ALERT_SCOPE_KINDS.join(", ")}` }),
  /** '' for all; the agent's or the number's id; the store's name. */
  scopeId: z.string().trim().max(100, "scopeId is too long").default(""),
  comparison: z.enum(ALERT_COMPARISONS, { error: "comparison must be gte or lte" }),
  threshold: z.number({ error: "threshold must be a number" }).finite("threshold must be a number"),
  windowMinutes: z.union(
    ALERT_WINDOWS.map((w) => z.literal(w)),
    { error: `windowMinutes must be one of ${ALERT_WINDOWS.join(", ")}` },
  ),
  cooldownMinutes: z
    .number({ error: "cooldownMinutes must be a number" })
    .int("cooldownMinutes must be whole minutes")
    .min(ALERT_COOLDOWN.min, `cooldownMinutes must be at least ${ALERT_COOLDOWN.min}`)
    .max(ALERT_COOLDOWN.max, `cooldownMinutes must be at most ${ALERT_COOLDOWN.max}`),
  severity: z.enum(ALERT_SEVERITIES, { error: "severity must be warning or critical" }),
  emailAccount: z.boolean().default(true),
  extraEmails: z
    .array(z.email("extraEmails must hold email addresses").max(254), { error: "extraEmails must be a list of addresses" })
    .max(MAX_ALERT_EXTRA_EMAILS, `extraEmails holds at most ${MAX_ALERT_EXTRA_EMAILS} addresses`)
    .default([]),
  webhook: z.boolean().default(false),
  bell: z.boolean().default(true),
});

/** A rule as the form sends it: its fields checked against the metric's own bounds. */
export const alertRuleBody = ruleFields.superRefine((rule, ctx) => {
  const metric = ALERT_METRICS[rule.metric];
  if (!metric.scopes.includes(rule.scopeKind)) {
    ctx.addIssue({ code: "custom", path: ["scopeKind"], message: `scopeKind must be one of ${metric.scopes.join(", ")} for ${metric.id}` });
  } else if (rule.scopeKind === "all" && rule.scopeId !== "") {
    ctx.addIssue({ code: "custom", path: ["scopeId"], message: "scopeId must be empty for all" });
  } else if (rule.scopeKind !== "all" && rule.scopeId === "") {
    ctx.addIssue({ code: "custom", path: ["scopeId"], message: `scopeId is required for ${rule.scopeKind}` });
  }
  if (!metric.windows.includes(rule.windowMinutes)) {
    ctx.addIssue({ code: "custom", path: ["windowMinutes"], message: `windowMinutes must be one of ${metric.windows.join(", ")} for ${metric.id}` });
  }
  if (!metric.comparisons.includes(rule.comparison)) {
    ctx.addIssue({ code: "custom", path: ["comparison"], message: `comparison must be ${metric.comparisons.join(" or ")} for ${metric.id}` });
  }
  if (rule.threshold < metric.threshold.min || rule.threshold > metric.threshold.max) {
    ctx.addIssue({ code: "custom", path: ["threshold"], message: `threshold must be between ${metric.threshold.min} and ${metric.threshold.max} for ${metric.id}` });
  }
});
export type AlertRuleBody = z.infer<typeof alertRuleBody>;
export type AlertRuleInput = z.input<typeof alertRuleBody>;

export const alertRuleIdParam = z.object({ id: z.coerce.number().int("id must be a whole number").positive("id must be positive") });
export const alertIdParam = alertRuleIdParam;

export const alertRuleView = z.object({
  id: z.number(),
  name: z.string(),
  metric: z.enum(ALERT_METRIC_IDS),
  scopeKind: z.enum(ALERT_SCOPE_KINDS),
  scopeId: z.string(),
  /** The agent's, number's or store's name as shown. */
  scopeLabel: z.string(),
  comparison: z.enum(ALERT_COMPARISONS),
  threshold: z.number(),
  windowMinutes: z.number(),
  cooldownMinutes: z.number(),
  severity: z.enum(ALERT_SEVERITIES),
  emailAccount: z.boolean(),
  extraEmails: z.array(z.string()),
  webhook: z.boolean(),
  bell: z.boolean(),
  status: z.enum(["ok", "triggered"]),
  since: z.string(),
  lastValue: z.number().nullable(),
  evaluatedAt: z.string().nullable(),
});
export type AlertRuleView = z.infer<typeof alertRuleView>;

/** A scope the account may pick: its agents, its numbers and (with the flag) the stores. */
export const alertScopeOption = z.object({ kind: z.enum(ALERT_SCOPE_KINDS), id: z.string(), label: z.string() });
export type AlertScopeOption = z.infer<typeof alertScopeOption>;

/** An extra address of the account's rules and its state: mailed only when confirmed (decision 073). */
export const alertRecipientView = z.object({ email: z.string(), status: z.enum(ALERT_RECIPIENT_STATES) });
export type AlertRecipientView = z.infer<typeof alertRecipientView>;

export const alertRulesResponse = z.object({
  rules: z.array(alertRuleView),
  /** The rules the account's plan allows. */
  limit: z.number(),
  /** What the account's plan allows: rules, and extra addresses per rule (0: the account's own address only). */
  plan: z.object({ rules: z.number(), extraEmails: z.number() }),
  /** Every extra address the account's rules name, with its state. */
  recipients: z.array(alertRecipientView),
  /** The metrics this account may use. */
  metrics: z.array(z.enum(ALERT_METRIC_IDS)),
  scopes: z.array(alertScopeOption),
});
export type AlertRulesResponse = z.infer<typeof alertRulesResponse>;
export const alertRuleResponse = z.object({ rule: alertRuleView });
export const alertRuleDeletedResponse = z.object({ deleted: z.literal(true) });

/** "Test": what the rule would have said over the last 7 days, before it is saved. */
export const alertTestResponse = z.object({
  /** Whether the metric could be replayed over the days, or only its value now is known. */
  replayed: z.boolean(),
  /** The replay's step: each minute (call metrics), each New York day (store metrics), or none (the value now). */
  grain: z.enum(["minute", "day", "now"]),
  fired: z.number(),
  firings: z.array(z.object({ at: z.string(), value: z.number(), resolvedAt: z.string().nullable() })),
  current: z.number().nullable(),
  from: z.string(),
  to: z.string(),
});
export type AlertTestResponse = z.infer<typeof alertTestResponse>;

export const alertView = z.object({
  id: z.number(),
  ruleId: z.number().nullable(),
  ruleName: z.string(),
  metric: z.enum(ALERT_METRIC_IDS),
  scopeKind: z.enum(ALERT_SCOPE_KINDS),
  scopeId: z.string(),
  scopeLabel: z.string(),
  severity: z.enum(ALERT_SEVERITIES),
  comparison: z.enum(ALERT_COMPARISONS),
  threshold: z.number(),
  windowMinutes: z.number(),
  value: z.number(),
  windowStart: z.string(),
  windowEnd: z.string(),
  firedAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolvedValue: z.number().nullable(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  /** The voice assistant the scope reads now (an agent's, a number's agent's); null for "all", a store, or a scope without one. */
  scopeAssistantId: z.string().nullable(),
});
export type AlertView = z.infer<typeof alertView>;

export const alertHistoryQuery = z.object({
  limit: z.coerce.number().int("limit must be a whole number").min(1, "limit must be at least 1").max(200, "limit must be at most 200").default(50),
});
export const alertHistoryResponse = z.object({ alerts: z.array(alertView) });
export type AlertHistoryResponse = z.infer<typeof alertHistoryResponse>;
export const alertAcknowledgedResponse = z.object({ alert: alertView });

export const alertNotificationView = z.object({
  id: z.number(),
  alertId: z.number(),
  kind: z.enum(["triggered", "resolved"]),
  title: z.string(),
  severity: z.enum(ALERT_SEVERITIES),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type AlertNotificationView = z.infer<typeof alertNotificationView>;
export const alertBellResponse = z.object({ unread: z.number(), notifications: z.array(alertNotificationView) });
export type AlertBellResponse = z.infer<typeof alertBellResponse>;
/** Marks these notifications read, or every one when `ids` is absent. */
export const alertBellReadBody = z.strictObject({
  ids: z.array(z.number().int().positive(), { error: "ids must be a list of ids" }).max(200, "ids holds at most 200").optional(),
});
export const alertBellReadResponse = z.object({ unread: z.number() });

/** The form's "Resend confirmation" for one extra address. */
export const alertRecipientResendBody = z.strictObject({ email: z.email("email must be an email address").max(254, "email is too long") });
export const alertRecipientResendResponse = z.object({ recipient: alertRecipientView });
