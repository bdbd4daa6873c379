// The alert metrics (decision 071, docs/alerts.md), each with its exact definition: the worker
// evaluates what is written here and the Alerts page shows these words, so the two cannot drift.
import { FAILURE_ENDED_REASON_PATTERNS, FORWARDED_ENDED_REASONS } from "./call-outcomes.ts";
import { STORES } from "./constants.ts";

export const ALERT_METRIC_IDS = [
  "call_count",
  "error_calls",
  "forwarded_share",
  "total_cost",
  "minutes_used",
  "silent_line",
  "aircall_unanswered_share",
  "appointment_no_show_share",
  "leads_drop",
] as const;
export type AlertMetricId = (typeof ALERT_METRIC_IDS)[number];

export const ALERT_SCOPE_KINDS = ["all", "agent", "number", "store"] as const;
export type AlertScopeKind = (typeof ALERT_SCOPE_KINDS)[number];

/**
 * Evaluation windows in minutes. 0: the metric's own period (the New York month, the New York day,
 * the silent line's N minutes), named by the metric's `period`.
 */
export const ALERT_WINDOWS = [15, 60, 1440, 0] as const;
export type AlertWindow = (typeof ALERT_WINDOWS)[number];
export const ALERT_WINDOW_LABELS: Record<AlertWindow, string> = { 15: "15 minutes", 60: "1 hour", 1440: "24 hours", 0: "the metric's own period" };

export const ALERT_COMPARISONS = ["gte", "lte"] as const;
export type AlertComparison = (typeof ALERT_COMPARISONS)[number];
export const ALERT_COMPARISON_SIGNS: Record<AlertComparison, string> = { gte: "≥", lte: "≤" };

export const ALERT_SEVERITIES = ["warning", "critical"] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** Which account flag a metric needs: store-network data is only for accounts with that flag (admins pass). */
export type AlertFlag = "shopwindowsInfo" | "callApp";

export type AlertMetric = {
  id: AlertMetricId;
  label: string;
  /** The exact definition, shown on screen. */
  definition: string;
  unit: "calls" | "percent" | "dollars" | "minutes";
  flag: AlertFlag | null;
  scopes: readonly AlertScopeKind[];
  windows: readonly AlertWindow[];
  comparisons: readonly AlertComparison[];
  threshold: { min: number; max: number };
  /** What window 0 means for this metric. */
  period?: string;
  /** Metrics read from the account's own calls: evaluated again right after each call webhook. */
  fromCalls: boolean;
};

const CALL_WINDOWS = [15, 60, 1440] as const;
const CALL_SCOPES = ["all", "agent", "number"] as const;
const BOTH = ALERT_COMPARISONS;

/** How a window is counted, said once for every call metric. */
export const WINDOW_DEFINITION =
  "A window of N minutes counts whole minutes: from the start of the minute N minutes before the current one through now. " +
  "A call belongs to the window its start time falls in. Scope: an agent is its voice assistant's calls; a number is the calls of the agent the number is assigned to.";

export const ALERT_METRICS: Record<AlertMetricId, AlertMetric> = {
  call_count: {
    id: "call_count",
    label: "Call count",
    definition: "Calls (inbound, outbound and web) that started in the window.",
    unit: "calls",
    flag: null,
    scopes: CALL_SCOPES,
    windows: CALL_WINDOWS,
    comparisons: BOTH,
    threshold: { min: 0, max: 100_000 },
    fromCalls: true,
  },
  error_calls: {
    id: "error_calls",
    label: "Calls ending in an error",
    definition: `Calls that started in the window and ended for a reason that means a failure: ${FAILURE_ENDED_REASON_PATTERNS.join(", ")} (% stands for any text).`,
    unit: "calls",
    flag: null,
    scopes: CALL_SCOPES,
    windows: CALL_WINDOWS,
    comparisons: ["gte"],
    threshold: { min: 1, max: 100_000 },
    fromCalls: true,
  },
  forwarded_share: {
    id: "forwarded_share",
    label: "Share of calls forwarded",
    definition: `Of the calls that started in the window and have ended, the percentage whose ended reason is ${FORWARDED_ENDED_REASONS.join(", ")}. No ended call: no value, the rule stays as it is.`,
    unit: "percent",
    flag: null,
    scopes: CALL_SCOPES,
    windows: CALL_WINDOWS,
    comparisons: BOTH,
    threshold: { min: 0, max: 100 },
    fromCalls: true,
  },
  total_cost: {
    id: "total_cost",
    label: "Total call cost",
    definition: "The voice platform's cost in dollars of the calls that started in the window (a call without a cost yet counts 0).",
    unit: "dollars",
    flag: null,
    scopes: CALL_SCOPES,
    windows: CALL_WINDOWS,
    comparisons: ["gte"],
    threshold: { min: 0, max: 1_000_000 },
    fromCalls: true,
  },
  minutes_used: {
    id: "minutes_used",
    label: "Minutes used against the plan's cap",
    definition: "Whole call minutes used this New York month as a percentage of the plan's monthly minutes (the figure of the usage bar). No plan: no value.",
    unit: "percent",
    flag: null,
    scopes: ["all"],
    windows: [0],
    comparisons: ["gte"],
    threshold: { min: 1, max: 200 },
    period: "this New York month",
    fromCalls: true,
  },
  silent_line: {
    id: "silent_line",
    label: "Silent line",
    definition:
      "An assigned number with no inbound call for at least the threshold's minutes, during an hour it usually has calls: inbound calls in that New York hour " +
      "on at least 3 of the same weekday's last 4 weeks. Outside such hours, or when the number has no agent, there is no value.",
    unit: "minutes",
    flag: null,
    scopes: ["number"],
    windows: [0],
    comparisons: ["gte"],
    threshold: { min: 15, max: 1440 },
    period: "minutes since the number's last inbound call",
    fromCalls: false,
  },
  aircall_unanswered_share: {
    id: "aircall_unanswered_share",
    label: "Store: Aircall calls not answered",
    definition: "Of the inbound Aircall calls on the store's line (every line for all stores) today in New York, the percentage nobody answered. No inbound call: no value.",
    unit: "percent",
    flag: "callApp",
    scopes: ["all", "store"],
    windows: [0],
    comparisons: ["gte"],
    threshold: { min: 0, max: 100 },
    period: "today (New York)",
    fromCalls: false,
  },
  appointment_no_show_share: {
    id: "appointment_no_show_share",
    label: "Store: appointment no-shows",
    definition: "Of the appointments that began yesterday in New York at the store (every store for all), not cancelled, the percentage marked No Show. None: no value.",
    unit: "percent",
    flag: "shopwindowsInfo",
    scopes: ["all", "store"],
    windows: [0],
    comparisons: ["gte"],
    threshold: { min: 0, max: 100 },
    period: "yesterday (New York)",
    fromCalls: false,
  },
  leads_drop: {
    id: "leads_drop",
    label: "Store: leads drop",
    definition:
      "How far the store's leads submitted yesterday in New York fell against the same weekday a week earlier, in percent (100 × (before − yesterday) / before; a rise is negative). No lead a week earlier: no value.",
    unit: "percent",
    flag: "shopwindowsInfo",
    scopes: ["all", "store"],
    windows: [0],
    comparisons: ["gte"],
    threshold: { min: 1, max: 100 },
    period: "yesterday against a week before",
    fromCalls: false,
  },
};

/** A store scope names one of the nine stores. */
export const STORE_SCOPE_IDS = STORES;

/** At most this many rules per account. */
export const MAX_ALERT_RULES = 50;
/** History is kept this many days. */
export const ALERT_HISTORY_DAYS = 90;
/** Extra addresses a rule may mail besides the account's. */
export const MAX_ALERT_EXTRA_EMAILS = 5;
/**
 * Cooldown bounds in minutes: at least 5 (a rule that flaps fires at most every 5 minutes; older rows
 * below it are evaluated at the floor), a week at most.
 */
export const ALERT_COOLDOWN = { min: 5, max: 10_080 } as const;

/**
 * What each plan may do with alerts, read through accountPlan (worker/services/plans.ts): how many
 * rules, and how many extra addresses a rule may mail besides the account's own. Every plan, and no
 * plan, mails the account's own address; without a plan nobody else.
 */
export const ALERT_PLAN_LIMITS = {
  none: { rules: 10, extraEmails: 0 },
  basic: { rules: 25, extraEmails: 2 },
  pro: { rules: MAX_ALERT_RULES, extraEmails: MAX_ALERT_EXTRA_EMAILS },
} as const;
export type AlertPlanLimits = { rules: number; extraEmails: number };

/**
 * Alert mail a day (UTC), counted when a mail is claimed: per account (every recipient) and per
 * recipient address (every account). Past either the firing is still recorded and rings the bell;
 * the owner's own address is told once that day that mail is paused.
 */
export const ALERT_MAIL_CAPS = { perAccountPerDay: 100, perRecipientPerDay: 20 } as const;

/** Confirmation mails a day (UTC): per account and per address, so asking for them cannot become the relay. */
export const ALERT_CONFIRM_CAPS = { perAccountPerDay: 10, perAddressPerDay: 3 } as const;

/** A confirmation link works this many days after it was mailed. */
export const ALERT_CONFIRM_DAYS = 7;

/** An extra address's state for an account: mailed only when confirmed. */
export const ALERT_RECIPIENT_STATES = ["pending", "confirmed", "unsubscribed"] as const;
export type AlertRecipientState = (typeof ALERT_RECIPIENT_STATES)[number];

/** Where a confirmation mail's link points (`?token=` follows). GET shows a button; POST confirms. */
export const ALERT_CONFIRM_PATH = "/api/alerts/recipients/confirm";
/** Where an alert mail's unsubscribe link points (`?token=` follows). GET shows a button; POST (or RFC 8058 one-click) unsubscribes. */
export const ALERT_UNSUBSCRIBE_PATH = "/api/alerts/recipients/unsubscribe";
/** The Test button replays the rule over this many days. */
export const ALERT_TEST_DAYS = 7;

/** Whether the value breaches the threshold. */
export const breaches = (comparison: AlertComparison, value: number | null, threshold: number) =>
  value !== null && (comparison === "gte" ? value >= threshold : value <= threshold);

/** "5 calls", "12.5 %", "$3.20", "45 min". */
export function formatAlertValue(metric: AlertMetricId, value: number): string {
  const unit = ALERT_METRICS[metric].unit;
  const rounded = Math.round(value * 100) / 100;
  if (unit === "percent") return `${rounded} %`;
  if (unit === "dollars") return `$${rounded.toFixed(2)}`;
  if (unit === "minutes") return `${Math.round(value)} min`;
  return `${rounded} ${rounded === 1 ? "call" : "calls"}`;
}

export const windowLabel = (metric: AlertMetricId, window: number) =>
  window === 0 ? (ALERT_METRICS[metric].period ?? "") : ALERT_WINDOW_LABELS[window as AlertWindow];
