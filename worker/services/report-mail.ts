// The daily report by email (decision 060): the user's switch, the nightly sending with one claimed
// delivery per (user, report day), and the unsubscribe links' tokens (only their hashes are kept).
import { addDays, nyYesterday } from "@shared/ny-time";
import { DAILY_REPORT_ALL_STORES, type DailyReportRow } from "@shared/daily-report";
import { dailyReportScreenPath, REPORT_MAIL_UNSUBSCRIBE_PATH } from "@shared/report-mail";
import type { ReportMailSetting } from "@shared/schemas/report-mail";
import type { Database } from "../db/client";
import { hitStatement, withinLimit, type Limit } from "../db/rate-limit";
import { randomToken, sha256 } from "../lib/crypto";
import { log } from "../lib/log";
import type { MailPort } from "../providers";
import { DbMeter } from "./counts/meter";
import { dailyReportRows } from "./daily-report";
import { DAILY_REPORT_RETENTION_DAYS } from "./daily-report-store";
import { reportMail, rowsOfStoredReport } from "./report-mail-content";

/** Who may receive the report: what GET /api/daily-report asks of a user (shopwindows_info, or admin). */
const MAY_SEE_REPORT = "(p.shopwindows_info = 1 OR p.is_admin = 1)";

/** The user's switch: off unless turned on; the address is the account's email. */
export async function reportMailSetting(db: Database, user: { id: string; email: string }): Promise<ReportMailSetting> {
  const row = await db.$client
    .prepare("SELECT subscribed FROM report_mail_subscriptions WHERE user_id = ?")
    .bind(user.id)
    .first<{ subscribed: number }>();
  return { subscribed: row?.subscribed === 1, email: user.email };
}

/**
 * Turns the mail on or off, counting the change against `limit` per user in the same batch (one
 * round trip): the change is written only while the count is within the limit; over it, answers
 * null and changes nothing. `origin` is the app's address, for the mail's links when PUBLIC_URL is
 * unset. The counter is db/rate-limit.ts's hitStatement, run in this batch.
 */
export async function setReportMail(
  db: Database,
  user: { id: string; email: string },
  subscribed: boolean,
  origin: string,
  limit: Limit,
  now = new Date(),
): Promise<ReportMailSetting | null> {
  const d1 = db.$client;
  const key = `${limit.name}:${user.id}`;
  const windowStart = Math.floor(now.getTime() / 1000 / limit.windowSeconds) * limit.windowSeconds;
  const counter = hitStatement(db, limit, user.id, undefined, now.getTime()).toSQL();
  const [counted] = await d1.batch<{ count: number }>([
    d1.prepare(counter.sql).bind(...counter.params),
    d1
      .prepare(
        "INSERT INTO report_mail_subscriptions (user_id, subscribed, changed_at, origin) SELECT ?1, ?2, ?3, ?4 " +
          "WHERE (SELECT count FROM rate_limits WHERE key = ?5 AND window_start = ?6) <= ?7 " +
          "ON CONFLICT (user_id) DO UPDATE SET subscribed = excluded.subscribed, changed_at = excluded.changed_at, origin = excluded.origin",
      )
      .bind(user.id, subscribed ? 1 : 0, now.toISOString(), origin, key, windowStart, limit.limit),
  ]);
  if (!withinLimit(limit, counted.results)) return null;
  return { subscribed, email: user.email };
}

/** An unsubscribe token's shape: 32 random bytes, base64url (43 characters). */
export const UNSUBSCRIBE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Whether a token is one of a mail we sent (its hash is known). */
export async function unsubscribeTokenKnown(db: Database, token: string): Promise<boolean> {
  if (!UNSUBSCRIBE_TOKEN.test(token)) return false;
  const row = await db.$client.prepare("SELECT 1 AS ok FROM report_mail_unsubscribe_tokens WHERE token_hash = ?").bind(await sha256(token)).first();
  return row !== null;
}

/** Turns the mail off for the user a token was sent to; false when the token is unknown. */
export async function unsubscribeByToken(db: Database, token: string, now = new Date()): Promise<boolean> {
  if (!UNSUBSCRIBE_TOKEN.test(token)) return false;
  const row = await db.$client
    .prepare(
      "UPDATE report_mail_subscriptions SET subscribed = 0, changed_at = ?1 " +
        "WHERE user_id = (SELECT user_id FROM report_mail_unsubscribe_tokens WHERE token_hash = ?2) RETURNING user_id",
    )
    .bind(now.toISOString(), await sha256(token))
    .first<{ user_id: string }>();
  return row !== null;
}

/** Tries of one delivery at most (a failed send is retried by a rerun of the job). */
export const MAX_ATTEMPTS = 5;
/** A claim still "sending" after this long is taken to have died with its run, and may be taken again. */
export const STALE_CLAIM_MS = 15 * 60_000;
/**
 * A delivery is retried only this long after its first claim: inside the mail vendor's idempotency
 * window (24 hours at Resend), so a retry of a mail that did go out is not delivered again.
 */
export const RETRY_WINDOW_MS = 23 * 3_600_000;
/** Stands for the unsubscribe token in a mail built once for many subscribers. */
const TOKEN_PLACEHOLDER = "UNSUBSCRIBETOKENPLACEHOLDER";
/** Mails sent at once by one run. */
export const SEND_CONCURRENCY = 4;

type Subscriber = { user_id: string; email: string; origin: string | null };

export type ReportMailRun = { day: string; subscribers: number; sent: number; failed: number; skipped: number; pruned: number; noReport?: true };

/** The idempotency key of a (user, day) mail: the vendor and the local outbox deliver it once. */
export const reportMailKey = (userId: string, day: string) => `daily-report/${userId}/${day}`;

/**
 * Claims the (user, day) delivery for this run, in one transaction with the hash of the mail's new
 * unsubscribe token. Taken only if the user still has the mail on and may see the report, and the
 * delivery is new, failed, or stale (within the retry window and attempts). Answers whether it is ours.
 */
async function claim(db: Database, s: Subscriber, day: string, claimId: string, tokenHash: string, now: Date): Promise<boolean> {
  const d1 = db.$client;
  const at = now.toISOString();
  const [claimed] = await d1.batch<{ claim_id: string }>([
    d1
      .prepare(
        "INSERT INTO report_mail_deliveries (user_id, day, status, claim_id, first_claimed_at, claimed_at, attempts) " +
          "SELECT ?1, ?2, 'sending', ?3, ?4, ?4, 1 WHERE EXISTS (SELECT 1 FROM report_mail_subscriptions s JOIN profiles p ON p.id = s.user_id " +
          `WHERE s.user_id = ?1 AND s.subscribed = 1 AND ${MAY_SEE_REPORT}) ` +
          "ON CONFLICT (user_id, day) DO UPDATE SET status = 'sending', claim_id = excluded.claim_id, claimed_at = excluded.claimed_at, " +
          "attempts = report_mail_deliveries.attempts + 1, error = NULL " +
          "WHERE report_mail_deliveries.attempts < ?5 AND report_mail_deliveries.first_claimed_at > ?6 " +
          "AND (report_mail_deliveries.status = 'failed' OR (report_mail_deliveries.status = 'sending' AND report_mail_deliveries.claimed_at < ?7)) " +
          "RETURNING claim_id",
      )
      .bind(s.user_id, day, claimId, at, MAX_ATTEMPTS, new Date(now.getTime() - RETRY_WINDOW_MS).toISOString(), new Date(now.getTime() - STALE_CLAIM_MS).toISOString()),
    d1
      .prepare(
        "INSERT INTO report_mail_unsubscribe_tokens (token_hash, user_id, day) SELECT ?1, ?2, ?3 " +
          "WHERE EXISTS (SELECT 1 FROM report_mail_deliveries WHERE user_id = ?2 AND day = ?3 AND claim_id = ?4)",
      )
      .bind(tokenHash, s.user_id, day, claimId),
  ]);
  return claimed.results[0]?.claim_id === claimId;
}

/** The stored all-stores report of a day, as rows; null when the day has none. */
async function storedRows(db: Database, day: string): Promise<DailyReportRow[] | null> {
  const row = await db.$client.prepare("SELECT csv FROM daily_reports WHERE day = ? AND store IS NULL").bind(day).first<{ csv: string }>();
  return row ? rowsOfStoredReport(row.csv) : null;
}

/**
 * Sends yesterday's (New York) report to every subscriber who may see it, once per (user, day):
 * after the daily-report job, from the stored all-stores report. A rerun, or a run overlapping
 * another, finds each delivery claimed and sends nothing for it; a failed send is marked so a rerun
 * retries it. Deliveries and tokens of days past the report retention are deleted.
 */
export async function sendReportMails(
  deps: { db: Database; mail: MailPort; publicUrl?: string },
  now: Date,
): Promise<ReportMailRun> {
  const { db, mail } = deps;
  const day = nyYesterday(now);
  const d1 = db.$client;
  const oldestKept = addDays(day, -DAILY_REPORT_RETENTION_DAYS);
  const [deliveries] = await d1.batch([
    d1.prepare("DELETE FROM report_mail_deliveries WHERE day < ?").bind(oldestKept),
    d1.prepare("DELETE FROM report_mail_unsubscribe_tokens WHERE day < ?").bind(oldestKept),
  ]);
  const pruned = deliveries.meta.changes ?? 0;
  const rows = await storedRows(db, day);
  if (!rows) return { day, subscribers: 0, sent: 0, failed: 0, skipped: 0, pruned, noReport: true };

  // Candidates: on, allowed, and not already delivered or being delivered (the claim decides for sure).
  const { results: subscribers } = await d1
    .prepare(
      "SELECT s.user_id, p.email, s.origin FROM report_mail_subscriptions s JOIN profiles p ON p.id = s.user_id " +
        `WHERE s.subscribed = 1 AND ${MAY_SEE_REPORT} ` +
        "AND NOT EXISTS (SELECT 1 FROM report_mail_deliveries d WHERE d.user_id = s.user_id AND d.day = ? AND d.status = 'sent') ORDER BY s.user_id",
    )
    .bind(day)
    .all<Subscriber>();
  const run: ReportMailRun = { day, subscribers: subscribers.length, sent: 0, failed: 0, skipped: 0, pruned };
  if (subscribers.length === 0) return run;

  const weekEarlierDay = addDays(day, -7);
  const weekEarlier =
    (await storedRows(db, weekEarlierDay))?.find((r) => r.store === DAILY_REPORT_ALL_STORES) ??
    (await dailyReportRows(new DbMeter(d1), { startDate: weekEarlierDay, endDate: weekEarlierDay })).find((r) => r.store === DAILY_REPORT_ALL_STORES)!;
  const claimId = crypto.randomUUID();
  // The mail is the same for every subscriber of an origin but for the token: built once per origin
  // with a placeholder the token replaces (a token is base64url, which no escaping changes).
  const built = new Map<string, ReturnType<typeof reportMail>>();
  const mailFor = (origin: string, token: string) => {
    let content = built.get(origin);
    if (!content) {
      const unsubscribeUrl = `${origin}${REPORT_MAIL_UNSUBSCRIBE_PATH}?token=${TOKEN_PLACEHOLDER}`;
      content = reportMail({ day, rows, weekEarlier, reportUrl: `${origin}${dailyReportScreenPath(day)}`, unsubscribeUrl });
      built.set(origin, content);
    }
    return { subject: content.subject, text: content.text.replaceAll(TOKEN_PLACEHOLDER, token), html: content.html.replaceAll(TOKEN_PLACEHOLDER, token) };
  };

  const sendOne = async (s: Subscriber) => {
    const token = randomToken(32);
    if (!(await claim(db, s, day, claimId, await sha256(token), now))) {
      run.skipped += 1;
      return;
    }
    const origin = (deps.publicUrl ?? s.origin ?? "http://localhost").replace(/\/+$/, "");
    const unsubscribeUrl = `${origin}${REPORT_MAIL_UNSUBSCRIBE_PATH}?token=${token}`;
    const content = mailFor(origin, token);
    try {
      await mail.send({
        to: s.email,
        ...content,
        link: `${origin}${dailyReportScreenPath(day)}`,
        kind: "daily_report",
        idempotencyKey: reportMailKey(s.user_id, day),
        headers: { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      });
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      run.failed += 1;
      log(null, "error", "daily report mail failed", { userId: s.user_id, day, error });
      await d1
        .prepare("UPDATE report_mail_deliveries SET status = 'failed', error = ? WHERE user_id = ? AND day = ? AND claim_id = ?")
        .bind(error.slice(0, 500), s.user_id, day, claimId)
        .run();
      return;
    }
    run.sent += 1;
    await d1
      .prepare("UPDATE report_mail_deliveries SET status = 'sent', sent_at = ? WHERE user_id = ? AND day = ? AND claim_id = ?")
      .bind(new Date().toISOString(), s.user_id, day, claimId)
      .run();
  };

  // A few at a time: each mail is a claim, a call to the vendor and a mark.
  let next = 0;
  const lanes = Array.from({ length: Math.min(SEND_CONCURRENCY, subscribers.length) }, async () => {
    while (next < subscribers.length) await sendOne(subscribers[next++]);
  });
  await Promise.all(lanes);
  return run;
}
