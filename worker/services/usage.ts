// Usage statistics (GET /api/usage-stats, ADR 004): this New York month's calls and minutes, and the
// account's agents and numbers against their limits, for the caller only.
import { and, count, eq, sql } from "drizzle-orm";
import type { UsageStats } from "@shared/schemas/agents";
import { nyMonthRange } from "@shared/ny-time";
import type { Database } from "../db/client";
import { callLogs } from "../db/schema";
import { countAgents } from "./agents";
import { countPhoneNumbers, getPhoneNumberLimit } from "./phone-numbers";
import { agentLimitFor } from "./plans";

/** Calls and seconds of an account in [start, end); answered from call_logs_user_time_idx alone. */
export function monthlyCallsQuery(db: Database, userId: string, start: string, end: string) {
  return db
    .select({ n: count(), seconds: sql<number>`coalesce(sum(${callLogs.duration}), 0)` })
    .from(callLogs)
    .where(and(eq(callLogs.userId, userId), sql`${callLogs.startTime} >= ${start}`, sql`${callLogs.startTime} < ${end}`));
}

export async function usageStats(db: Database, userId: string, now = new Date()): Promise<UsageStats> {
  const { start, end } = nyMonthRange(now);
  const [calls, agentCount, numbers, agentLimit, numberLimit] = await Promise.all([
    monthlyCallsQuery(db, userId, start, end).get(),
    countAgents(db, userId),
    // The same count and limit the phone-number purchase checks.
    countPhoneNumbers(db, userId),
    agentLimitFor(db, userId),
    getPhoneNumberLimit(db),
  ]);
  return {
    callsThisMonth: calls?.n ?? 0,
    minutesThisMonth: Math.round(Number(calls?.seconds ?? 0) / 6) / 10,
    agents: agentCount,
    agentLimit,
    numbers,
    numberLimit,
  };
}
