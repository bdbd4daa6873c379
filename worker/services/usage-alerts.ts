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
import { accountPlan, monthSecondsFor, PAID_STATUSES } from "./plans";

export type UsageAlertRun = { month: string; accounts: number; sent: number; failed: number };

/** The idempotency key of one (user, month, threshold) mail. */
export const usageAlertKey = (userId: string, month: string, percent: 80 | 100) => `usage-alert/${userId}/${month}/${percent}`;

const PLAN_NAMES = { basic: "Basic", pro: "Pro" } as const;

/**
 * Mails each account with a plan that has crossed 80 % or 100 % of its minutes this month and was
 * not mailed for that threshold yet. At 100 % the 80 % mail is marked as done too: an account that
 * jumps past both gets the one mail that is true. Minutes are whole, as the test calls' limit counts.
 */
export async function sendUsageAlerts(deps: { db: Database; mail: MailPort; publicUrl?: string }, now: Date): Promise<UsageAlertRun> {
  const { db, mail } = deps;
  const d1 = db.$client;
  const month = nyDayOf(now).slice(0, 7);
  // Candidates: accounts with a live subscription whose 100 % mail of the month is not claimed yet.
  const statuses = PAID_STATUSES.map(() => "?").join(", ");
  const { results: accounts } = await d1
    .prepare(
      `SELECT DISTINCT s.user_id, p.email FROM subscriptions s JOIN profiles p ON p.id = s.user_id WHERE s.status IN (${statuses}) ` +
        "AND NOT EXISTS (SELECT 1 FROM usage_alerts a WHERE a.user_id = s.user_id AND a.month = ? AND a.threshold = 100) ORDER BY s.user_id",
    )
    .bind(...PAID_STATUSES, month)
    .all<{ user_id: string; email: string }>();
  const run: UsageAlertRun = { month, accounts: accounts.length, sent: 0, failed: 0 };
  const origin = deps.publicUrl?.replace(/\/+$/, "");

  for (const account of accounts) {
    const [plan, seconds] = await Promise.all([accountPlan(db, account.user_id, now), monthSecondsFor(db, account.user_id, now)]);
    if (!plan.plan) continue;
    const used = Math.floor(seconds / 60);
    const level = usageLevel(used, plan.minuteLimit);
    if (level === "ok") continue;
    const percent = level === "full" ? 100 : 80;
    const at = now.toISOString();
    const insert = (threshold: number) =>
      d1.prepare("INSERT INTO usage_alerts (user_id, month, threshold, claimed_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING threshold").bind(account.user_id, month, threshold, at);
    const claims = await d1.batch<{ threshold: number }>(percent === 100 ? [insert(100), insert(80)] : [insert(80)]);
    if (claims[0].results.length === 0) continue;
    const claimed = claims.filter((c) => c.results.length > 0).map((c) => c.results[0].threshold);
    const text = MINUTES_TEXT.mailText(percent, used, plan.minuteLimit, PLAN_NAMES[plan.plan]);
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
  return run;
}
