// Plan policy (docs/product/constants.md#business-constants): which plan an account is on and what it allows. Billing grows here.
import { desc, eq } from "drizzle-orm";
import { ALERT_PLAN_LIMITS, type AlertPlanLimits } from "@shared/alerts";
import { NO_PLAN_AGENT_LIMIT, PLAN_AGENT_LIMITS, PLAN_MINUTE_LIMITS } from "@shared/constants";
import type { AccountPlan, PlanKey, PlanState } from "@shared/schemas/agents";
import { PLAN_TEXT } from "@shared/messages";
import { ApiError } from "../lib/errors";
import { monthlyCalls } from "./counts/month";
import type { Database } from "../db/client";
import { subscriptions } from "../db/schema";

/** Plan key from a product or plan name ('Pro', 'Basic Monthly', 'pro'…); null when it names no known plan. */
export function planKey(name: string | null | undefined): PlanKey | null {
  if (!name) return null;
  if (/\bpro\b/i.test(name)) return "pro";
  if (/\bbasic\b/i.test(name)) return "basic";
  return null;
}

/** Statuses under which a subscription's plan applies (a failed renewal, past_due, does not). */
export const PAID_STATUSES = ["active", "trialing"];

/**
 * The account's plan and what it allows, the one reading every limit, notice and message uses
 * (decision 022). The plan comes from the account's subscriptions, the only records the billing
 * events write (customer records can be edited by admins): the newest one active, or trialing before
 * its trial's end (even before the provider's update arrives). Without such a plan the paid
 * resources are closed, at most NO_PLAN_AGENT_LIMIT agents are kept as drafts, alert mail goes to
 * the account's own address only (ALERT_PLAN_LIMITS), and `state` says why there is no plan, from
 * the newest subscription.
 */
export async function accountPlan(db: Database, userId: string, now = new Date()): Promise<AccountPlan> {
  const rows = await db
    .select(PLAN_COLUMNS)
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.updatedAt));
  return planOf(rows, now);
}

/** The subscription columns a plan is read from (accountPlan, and the API key lookup's batch). */
export const PLAN_COLUMNS = { id: subscriptions.id, productName: subscriptions.productName, status: subscriptions.status, trialEnd: subscriptions.trialEnd };

/** The same rows as raw SQL, for a caller's D1 batch (the alert run's chunk, the Alerts page). */
export const subscriptionsStatement = (d1: D1Database, userId: string) =>
  d1.prepare("SELECT id, product_name AS productName, status, trial_end AS trialEnd FROM subscriptions WHERE user_id = ? ORDER BY updated_at DESC").bind(userId);

/** The plan an account's subscriptions give, newest first (accountPlan's rule, for rows read elsewhere). */
export function planOf(rows: { id: string; productName: string | null; status: string; trialEnd: string | null }[], now = new Date()): AccountPlan {
  for (const row of rows) {
    if (!PAID_STATUSES.includes(row.status)) continue;
    if (row.status === "trialing" && row.trialEnd && row.trialEnd < now.toISOString()) continue;
    const plan = planKey(row.productName);
    if (plan) {
      return { plan, state: "subscribed", status: row.status, subscriptionId: row.id, agentLimit: PLAN_AGENT_LIMITS[plan], minuteLimit: PLAN_MINUTE_LIMITS[plan], alerts: ALERT_PLAN_LIMITS[plan] };
    }
  }
  return { plan: null, state: noPlanState(rows[0]?.status), status: rows[0]?.status ?? null, subscriptionId: null, agentLimit: NO_PLAN_AGENT_LIMIT, minuteLimit: null, alerts: ALERT_PLAN_LIMITS.none };
}

/**
 * API access (docs/product/api-access.md): the Pro plan, paid (not on trial), or an admin. Basic,
 * trial and plan-less accounts are refused with the plan refusal's 402.
 */
export const hasApiAccess = (plan: AccountPlan, isAdmin: boolean) => isAdmin || (plan.plan === "pro" && plan.status === "active");

/** What alerts the account may have: its plan's (accountPlan's `alerts`); an admin runs the platform and has the most. */
export const alertLimits = (plan: AccountPlan, isAdmin: boolean): AlertPlanLimits => (isAdmin ? ALERT_PLAN_LIMITS.pro : plan.alerts);

/** The 402 of an account without API access: the same code and upgrade link as every plan refusal. */
export const apiAccessRequired = () => new ApiError(402, PLAN_TEXT.apiAccessRequired, "subscription_required", undefined, { upgradeUrl: "/buy" });

/** Why an account has no plan, from its newest subscription's status (none: it never had one that started). */
function noPlanState(status: string | undefined): PlanState {
  if (status === "trialing") return "trial_ended";
  if (status === "past_due") return "past_due";
  if (status === "canceled" || status === "unpaid") return "ended";
  return "none";
}

const subscriptionRequired = () =>
  new ApiError(402, PLAN_TEXT.subscriptionRequired, "subscription_required", undefined, { upgradeUrl: "/buy" });

/**
 * Seconds of calls this New York month (roll-ups for the days they cover, live rows for the rest), read
 * from the account's shard; `database` names it, so the isolate's remembered coverage is that shard's.
 */
export async function monthSecondsFor(shard: Database, userId: string, now = new Date(), database?: string): Promise<number> {
  return (await monthlyCalls(shard, userId, now, database)).duration_seconds;
}

/**
 * Paid resources need an active or trialing subscription (the directory `db` holds it); with
 * `minutes` (the account's shard and its name), the plan's monthly call minutes must not be used up.
 * Admins pass (they run the platform, not a plan).
 */
export async function requirePaidPlan(
  db: Database,
  userId: string,
  opts: { minutes?: { shard: Database; name: string }; isAdmin?: boolean; now?: Date } = {},
) {
  if (opts.isAdmin) return null;
  const now = opts.now ?? new Date();
  // The plan (directory) and, when asked, the month's seconds (shard) read together; the plan's answer comes first.
  const [paid, seconds] = await Promise.all([
    accountPlan(db, userId, now),
    opts.minutes ? monthSecondsFor(opts.minutes.shard, userId, now, opts.minutes.name) : 0,
  ]);
  if (!paid.plan) throw subscriptionRequired();
  if (opts.minutes) {
    const limit = paid.minuteLimit;
    const used = Math.floor(seconds / 60);
    if (used >= limit) {
      throw new ApiError(403, PLAN_TEXT.minutesLimitReached(limit), "minutes_limit_reached", undefined, {
        maxAllowed: limit,
        currentCount: used,
        upgradeUrl: "/buy",
      });
    }
  }
  return paid;
}

/** Premium-rate ranges of the North American plan: the 900 area code and 976 as area code or exchange. */
export const PREMIUM_AREA_CODES = ["900", "976"];
export const PREMIUM_EXCHANGES = ["976"];

/** Test calls go only to North American (+1) numbers outside premium-rate ranges. */
export function assertTestCallDestination(e164: string) {
  const m = /^\+1([2-9]\d{2})(\d{3})\d{4}$/.exec(e164);
  if (!m || PREMIUM_AREA_CODES.includes(m[1]) || PREMIUM_EXCHANGES.includes(m[2])) {
    throw new ApiError(400, PLAN_TEXT.testCallRegion, "validation_error", "phoneNumber");
  }
}
