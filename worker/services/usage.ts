// Usage statistics (GET /api/usage-stats, ADR 004): this New York month's phone calls (as the dashboard
// and the call report count them) and the minutes of every call, and the
// account's agents and numbers against their limits, for the caller only. The month's calls are a
// count like the dashboard's (docs/decisions/016-usage-on-rollups.md): call_log_user_daily rows for the
// rolled-up days plus a live query of the rest (today), so a month costs O(days), not O(calls).
import type { UsageStats } from "@shared/schemas/agents";
import type { Database } from "../db/client";
import { countAgents } from "./agents";
import { monthlyCalls } from "./counts/month";
import { countPhoneNumbers, getPhoneNumberLimit } from "./phone-numbers";
import { accountPlan } from "./plans";

/** Where an account's figures are: the directory (agents, numbers, plan) and its shard (calls), by binding name (decision 076). */
export type AccountDatabases = { directory: Database; shard: Database; shardName: string };

/**
 * The account's phone calls and seconds this New York month, read from its shard: what usage
 * statistics show and the plan's minute limit counts (a test call's plan check calls it beside its
 * directory reads, in parallel).
 */
export const monthlyUsage = (account: Pick<AccountDatabases, "shard" | "shardName">, userId: string, now = new Date()) =>
  monthlyCalls(account.shard, userId, now, account.shardName);

/** `isAdmin`: admins pass the plan check of paid resources (requirePaidPlan), so no plan is required of them. */
export async function usageStats(dbs: AccountDatabases, userId: string, now = new Date(), opts: { isAdmin?: boolean } = {}): Promise<UsageStats> {
  const db = dbs.directory;
  // The month on the shard and the rest in the directory: their round trips overlap.
  const [month, agentCount, numbers, numberLimit, plan] = await Promise.all([
    monthlyUsage(dbs, userId, now),
    countAgents(db, userId),
    // The same count and limit the phone-number purchase checks.
    countPhoneNumbers(db, userId),
    getPhoneNumberLimit(db),
    // The same reading of the plan the agent limit, the test calls' minutes and the paid resources use.
    accountPlan(db, userId, now),
  ]);
  return {
    callsThisMonth: month.calls,
    minutesThisMonth: Math.round(month.duration_seconds / 6) / 10,
    minuteLimit: plan.minuteLimit,
    agents: agentCount,
    agentLimit: plan.agentLimit,
    numbers,
    numberLimit,
    plan: plan.plan,
    planState: plan.state,
    planRequired: !plan.plan && !opts.isAdmin,
  };
}
