// Custom webhooks come with the paid Pro plan (docs/product/plans-and-billing.md), as API access
// does: a Pro trial does not include them; admins pass. Refusals
// answer 402 with the shape of every plan refusal (worker/services/plans.ts): code, message, upgradeUrl.
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { profiles } from "../db/schema";
import { ApiError } from "../lib/errors";
import { accountPlan } from "../services/plans";

export const WEBHOOKS_PLAN_TEXT = "Custom webhooks come with the Pro plan. Upgrade to add endpoints.";

/** Whether the account may use custom webhooks: on an active (paid) Pro plan, or an admin (`db`: the directory). */
export async function hasWebhooksPlan(db: Database, userId: string, opts: { isAdmin?: boolean; now?: Date } = {}): Promise<boolean> {
  if (opts.isAdmin) return true;
  const [plan, profile] = await Promise.all([
    accountPlan(db, userId, opts.now),
    opts.isAdmin === undefined ? db.select({ isAdmin: profiles.isAdmin }).from(profiles).where(eq(profiles.id, userId)).get() : undefined,
  ]);
  return (plan.plan === "pro" && plan.status === "active") || profile?.isAdmin === true;
}

/** Throws the plan refusal (402) unless the account may use custom webhooks. */
export async function requireWebhooksPlan(db: Database, userId: string, isAdmin: boolean) {
  if (!(await hasWebhooksPlan(db, userId, { isAdmin }))) {
    throw new ApiError(402, WEBHOOKS_PLAN_TEXT, "subscription_required", undefined, { upgradeUrl: "/buy" });
  }
}
