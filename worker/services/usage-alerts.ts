// The owner's mail when an account has used 80 % and then all of its plan's call minutes in a New York
// month (docs/product/constants.md#business-constants usage colours; decision 022): one mail per threshold per month. Each is claimed in
// usage_alerts before it is sent, so a rerun or an overlapping run sends nothing again; a failed send
// gives its claim back, and the retry carries the same idempotency key.
import { MINUTES_TEXT } from "@shared/messages";
import { nyDayOf } from "@shared/ny-time";
import { usageLevel } from "@shared/usage";
import type { Database } from "../db/client";
import { log } from "../lib/log";
import type { MailPort } from "../providers";
import type { AccountPlan } from "@shared/schemas/agents";
import { coveragePlan } from "./counts/engine";
import { DbMeter } from "./counts/meter";
import { monthlyCalls, monthlyCallsPlan, nyMonthDays } from "./counts/month";
import { PAID_STATUSES, planOf, subscriptionsStatement } from "./plans";
import { shardOutcomes, ShardsFailed, type Shard, type ShardOutcome } from "../db/shards";

export type UsageAlertRun = { month: string; accounts: number; sent: number; failed: number };

/** The idempotency key of one (user, month, threshold) mail. */
export const usageAlertKey = (userId: string, month: string, percent: 80 | 100) => `usage-alert/${userId}/${month}/${percent}`;

const PLAN_NAMES = { basic: "Basic", pro: "Pro" } as const;

/** Accounts whose plan and month one batch reads. */
const ACCOUNTS_PER_BATCH = 25;

/**
 * Each account's seconds this New York month, from the shard holding the listed accounts: one round
 * trip for the coverage and one batch per 25 accounts over it, instead of round trips per account. A
 * batch reads the coverage again: should it have moved in between (a roll-up ran), that batch's months
 * are read again one by one.
 */
async function monthsOn(shard: Shard, userIds: string[], now: Date): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (userIds.length === 0) return out;
  const meter = new DbMeter(shard.db.$client, shard.name);
  const range = nyMonthDays(now);
  const cover = coveragePlan(meter, ["call_logs"] as const, range);
  const coverage = cover.read(await meter.batch(cover.statements)).call_logs;
  for (let i = 0; i < userIds.length; i += ACCOUNTS_PER_BATCH) {
    const chunk = userIds.slice(i, i + ACCOUNTS_PER_BATCH);
    const check = coveragePlan(meter, ["call_logs"] as const, range);
    const statements: D1PreparedStatement[] = [...check.statements];
    const slots = chunk.map((userId) => {
      const month = { at: statements.length, plan: monthlyCallsPlan(meter, userId, coverage) };
      statements.push(...month.plan.statements);
      return { userId, month };
    });
    const results = await meter.batch(statements);
    const held = JSON.stringify(check.read(results.slice(0, check.statements.length)).call_logs) === JSON.stringify(coverage);
    for (const slot of slots) {
      const seconds = held
        ? slot.month.plan.read(results.slice(slot.month.at, slot.month.at + slot.month.plan.statements.length)).duration_seconds
        : (await monthlyCalls(shard.db, slot.userId, now, shard.name)).duration_seconds;
      out.set(slot.userId, seconds);
    }
  }
  return out;
}

/** Each account's plan, from the directory's subscriptions: one batch per 25 accounts. */
async function plansOf(d1: D1Database, userIds: string[], now: Date): Promise<Map<string, AccountPlan>> {
  const out = new Map<string, AccountPlan>();
  const batches = [];
  for (let i = 0; i < userIds.length; i += ACCOUNTS_PER_BATCH) {
    const chunk = userIds.slice(i, i + ACCOUNTS_PER_BATCH);
    batches.push(d1.batch(chunk.map((userId) => subscriptionsStatement(d1, userId))).then((rs) => rs.forEach((r, j) => out.set(chunk[j], planOf(r.results as Parameters<typeof planOf>[0], now)))));
  }
  await Promise.all(batches);
  return out;
}

/**
 * Mails each account with a plan that has crossed 80 % or 100 % of its minutes this month and was
 * not mailed for that threshold yet. At 100 % the 80 % mail is marked as done too: an account that
 * jumps past both gets the one mail that is true. Minutes are whole, as the test calls' limit counts.
 * Plans come from the directory and minutes from each account's shard, all shards at once; the
 * accounts of a failing shard get no mail this run, the others do, and then the run fails naming
 * that shard (ShardsFailed).
 */
export async function sendUsageAlerts(deps: { db: Database; shards: readonly Shard[]; mail: MailPort; publicUrl?: string }, now: Date): Promise<UsageAlertRun> {
  const { db, mail } = deps;
  const d1 = db.$client;
  const month = nyDayOf(now).slice(0, 7);
  // Candidates: accounts with a live subscription whose 100 % mail of the month is not claimed yet.
  const statuses = PAID_STATUSES.map(() => "?").join(", ");
  const { results: accounts } = await d1
    .prepare(
      `SELECT DISTINCT s.user_id, p.email, p.shard FROM subscriptions s JOIN profiles p ON p.id = s.user_id WHERE s.status IN (${statuses}) ` +
        "AND NOT EXISTS (SELECT 1 FROM usage_alerts a WHERE a.user_id = s.user_id AND a.month = ? AND a.threshold = 100) ORDER BY s.user_id",
    )
    .bind(...PAID_STATUSES, month)
    .all<{ user_id: string; email: string; shard: string | null }>();
  const run: UsageAlertRun = { month, accounts: accounts.length, sent: 0, failed: 0 };
  const origin = deps.publicUrl?.replace(/\/+$/, "");
  const onShard = (name: string) => accounts.filter((a) => a.shard === name).map((a) => a.user_id);
  const [plans, months] = await Promise.all([
    plansOf(d1, accounts.map((a) => a.user_id), now),
    shardOutcomes(
      deps.shards.filter((s) => onShard(s.name).length > 0),
      (s) => monthsOn(s, onShard(s.name), now),
    ),
  ]);
  const seconds = new Map(months.flatMap((o) => (o.ok ? [...o.value] : [])));

  for (const account of accounts) {
    const plan = plans.get(account.user_id)!;
    const used = seconds.get(account.user_id);
    // An account whose shard failed (or that has none yet) is read again on the next run.
    if (!plan.plan || used === undefined) continue;
    const minutes = Math.floor(used / 60);
    const level = usageLevel(minutes, plan.minuteLimit);
    if (level === "ok") continue;
    const percent = level === "full" ? 100 : 80;
    const at = now.toISOString();
    const insert = (threshold: number) =>
      d1.prepare("INSERT INTO usage_alerts (user_id, month, threshold, claimed_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING threshold").bind(account.user_id, month, threshold, at);
    const claims = await d1.batch<{ threshold: number }>(percent === 100 ? [insert(100), insert(80)] : [insert(80)]);
    if (claims[0].results.length === 0) continue;
    const claimed = claims.filter((c) => c.results.length > 0).map((c) => c.results[0].threshold);
    const text = MINUTES_TEXT.mailText(percent, minutes, plan.minuteLimit, PLAN_NAMES[plan.plan]);
    try {
      await mail.send({
        to: account.email,
        subject: MINUTES_TEXT.mailSubject(percent),
        text: origin ? `${text}\n\n${MINUTES_TEXT.mailLink}: ${origin}/settings` : text,
        link: origin ? `${origin}/settings` : undefined,
        kind: "usage_alert",
        idempotencyKey: usageAlertKey(account.user_id, month, percent),
      });
      run.sent += 1;
    } catch (e) {
      run.failed += 1;
      log(null, "error", "usage alert mail failed", { userId: account.user_id, month, percent, error: e instanceof Error ? e.message : String(e) });
      // The claims of this run are given back, so the next run tries again.
      const placeholders = claimed.map(() => "?").join(", ");
      await d1
        .prepare(`DELETE FROM usage_alerts WHERE user_id = ? AND month = ? AND claimed_at = ? AND threshold IN (${placeholders})`)
        .bind(account.user_id, month, at, ...claimed)
        .run();
    }
  }
  if (months.some((o) => !o.ok)) throw new ShardsFailed(months as ShardOutcome<unknown>[]);
  return run;
}
