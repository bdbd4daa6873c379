// Plan policy (spec 2 §9): which plan an account is on and what it allows. Billing grows here.
import { and, desc, eq, inArray } from "drizzle-orm";
import { PLAN_AGENT_LIMITS, PLAN_MINUTE_LIMITS } from "@shared/constants";
import { PLAN_TEXT } from "@shared/messages";
import { ApiError } from "../lib/errors";
import { monthlyCalls } from "./counts/month";
import type { Database } from "../db/client";
import { customers, subscriptions } from "../db/schema";

/** Subscription statuses under which the plan's features apply (a failed renewal keeps them for now). */
export const SUBSCRIBED_STATUSES = ["active", "trialing", "past_due"];

/** Plan key from a product or plan name ('Pro', 'Basic Monthly', 'pro'…); null when it names no known plan. */
export function planKey(name: string | null | undefined): keyof typeof PLAN_AGENT_LIMITS | null {
  if (!name) return null;
  if (/\bpro\b/i.test(name)) return "pro";
  if (/\bbasic\b/i.test(name)) return "basic";
  return null;
}

/** Agents the account's plan allows, from its current subscription (or customer record); null when no plan is known. */
export async function agentLimitFor(db: Database, userId: string): Promise<number | null> {
  // Both records read together; the customer record counts only where no subscription is current.
  const [sub, customer] = await Promise.all([
    db
      .select({ productName: subscriptions.productName })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, SUBSCRIBED_STATUSES)))
      .orderBy(desc(subscriptions.updatedAt))
      .get(),
    db
      .select({ currentPlan: customers.currentPlan, status: customers.subscriptionStatus })
      .from(customers)
      .where(eq(customers.userId, userId))
      .get(),
  ]);
  let plan = planKey(sub?.productName);
  if (!plan && !sub) {
    if (customer && (!customer.status || SUBSCRIBED_STATUSES.includes(customer.status))) plan = planKey(customer.currentPlan);
  }
  return plan ? PLAN_AGENT_LIMITS[plan] : null;
}

// ---------------------------------------------------------------- paid resources (decision 022)

/** Statuses under which paid resources (activating an agent, buying a number, a test call) are open. */
export const PAID_STATUSES = ["active", "trialing"];

export type PaidPlan = { plan: keyof typeof PLAN_AGENT_LIMITS; status: string; subscriptionId: string };

/**
 * The account's current paid plan from its subscription, the only record the billing webhooks write
 * (customer records can be edited by admins). A trial past its end no longer counts, even before
 * the provider's update arrives.
 */
export async function paidPlanFor(db: Database, userId: string, now = new Date()): Promise<PaidPlan | null> {
  const rows = await db
    .select({ id: subscriptions.id, productName: subscriptions.productName, status: subscriptions.status, trialEnd: subscriptions.trialEnd })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, PAID_STATUSES)))
    .orderBy(desc(subscriptions.updatedAt));
  for (const row of rows) {
    if (row.status === "trialing" && row.trialEnd && row.trialEnd < now.toISOString()) continue;
    const plan = planKey(row.productName);
    if (plan) return { plan, status: row.status, subscriptionId: row.id };
  }
  return null;
}

const subscriptionRequired = () =>
  new ApiError(402, PLAN_TEXT.subscriptionRequired, "subscription_required", undefined, { upgradeUrl: "/buy" });

/** Seconds of calls this New York month (roll-ups for the days they cover, live rows for the rest). */
export async function monthSecondsFor(db: Database, userId: string, now = new Date()): Promise<number> {
  return (await monthlyCalls(db, userId, now)).duration_seconds;
}

/**
 * Paid resources need an active or trialing subscription; with `minutes`, the plan's monthly call
 * minutes must not be used up. Admins pass (they run the platform, not a plan).
 */
export async function requirePaidPlan(db: Database, userId: string, opts: { minutes?: boolean; isAdmin?: boolean; now?: Date } = {}) {
  if (opts.isAdmin) return null;
  const now = opts.now ?? new Date();
  // The plan and, when asked, the month's seconds read together; the plan's answer comes first.
  const [paid, seconds] = await Promise.all([paidPlanFor(db, userId, now), opts.minutes ? monthSecondsFor(db, userId, now) : 0]);
  if (!paid) throw subscriptionRequired();
  if (opts.minutes) {
    const limit = PLAN_MINUTE_LIMITS[paid.plan];
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
