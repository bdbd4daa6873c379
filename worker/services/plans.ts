// Plan policy (spec 2 §9): which plan an account is on and what it allows. Billing grows here.
import { and, desc, eq, inArray } from "drizzle-orm";
import { PLAN_AGENT_LIMITS } from "@shared/constants";
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
  const sub = await db
    .select({ productName: subscriptions.productName })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, SUBSCRIBED_STATUSES)))
    .orderBy(desc(subscriptions.updatedAt))
    .get();
  let plan = planKey(sub?.productName);
  if (!plan && !sub) {
    const customer = await db
      .select({ currentPlan: customers.currentPlan, status: customers.subscriptionStatus })
      .from(customers)
      .where(eq(customers.userId, userId))
      .get();
    if (customer && (!customer.status || SUBSCRIBED_STATUSES.includes(customer.status))) plan = planKey(customer.currentPlan);
  }
  return plan ? PLAN_AGENT_LIMITS[plan] : null;
}
