// The daily report by email (decision 060): the /settings switch's endpoints, the nightly sending
// (one mail per subscriber and day however the job runs, failures retried, nobody mailed who may
// not see the report), the mail's content against the stored report, and the unsubscribe link.
import { DAILY_REPORT_COLUMNS } from "@shared/daily-report";
import { REPORT_MAIL_TEXT } from "@shared/messages";
import { addDays } from "@shared/ny-time";
import { reportDayLabel } from "@shared/report-mail";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { parseConfig } from "../env";
import { sha256 } from "../lib/crypto";
import { LocalMail } from "../providers/mail/local";
import { createMail, type MailPort, type OutgoingMail } from "../providers";
import { rowsOfStoredReport } from "../services/report-mail-content";
import { insertAircallCalls, insertAppointments, insertLeads } from "../test/factories";
import { call, db, signUpAndSignIn, testShards } from "../test/helpers";
import { PRODUCTION_BINDINGS } from "../test/production";
import { runDailyReportJob } from "./daily-report";
import { DAILY_CRON, jobsByCron } from "./index";
import { reportMailJob, runReportMailJob } from "./report-mail";

/** A Monday; the cron on Tuesday 05:15 UTC (01:15 in New York) reports it. */
const DAY = "2026-09-14";
const WEEK_EARLIER = addDays(DAY, -7);
const CRON_TIME = new Date("2026-09-15T05:15:00Z");
const ctx = () => ({ db: db(), shards: testShards(), config: parseConfig(env as unknown as Record<string, unknown>), now: CRON_TIME });

type OutboxRow = { id: number; to_email: string; subject: string; body_text: string; body_html: string | null; headers: string | null; link: string | null; idempotency_key: string | null };
const reportMails = async (email?: string) =>
  (
    await env.DB.prepare(`SELECT * FROM mail_outbox WHERE kind = 'daily_report' ${email ? "AND to_email = ?" : ""} ORDER BY id`)
      .bind(...(email ? [email.toLowerCase()] : []))
      .all<OutboxRow>()
  ).results;

/** A mail port that counts its sends and writes to the local outbox, optionally failing first. */
function countingMail(fail: (mail: OutgoingMail) => boolean = () => false) {
  const local = new LocalMail(db());
  const sends: OutgoingMail[] = [];
  const port: MailPort = {
    kind: "local",
    async send(mail) {
      sends.push(mail);
      if (fail(mail)) throw new Error("the vendor is down");
      await local.send(mail);
    },
  };
  return { port, sends };
}

async function staffSubscribed(subscribed = true) {
  const staff = await signUpAndSignIn({ appMetadata: { shopwindows_info: true } });
  if (subscribed) {
    const res = await call("/api/report-mail", { method: "PUT", token: staff.accessToken, json: { subscribed: true } });
    expect(res.status).toBe(200);
  }
  return staff;
}

/** Yesterday's reports, stored as the daily-report job stores them; the week earlier's too when asked. */
async function storeReports({ weekEarlier = true } = {}) {
  if (weekEarlier) await runDailyReportJob({ db: db(), now: new Date(CRON_TIME.getTime() - 7 * 86_400_000) });
  await runDailyReportJob({ db: db(), now: CRON_TIME });
}

const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;
const unsubscribeUrlOf = (m: OutboxRow) => /<([^>]+)>/.exec(JSON.parse(m.headers!)["List-Unsubscribe"])![1];

beforeEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM report_mail_subscriptions"),
    env.DB.prepare("DELETE FROM report_mail_deliveries"),
    env.DB.prepare("DELETE FROM report_mail_unsubscribe_tokens"),
    env.DB.prepare("DELETE FROM mail_outbox WHERE kind = 'daily_report'"),
    env.DB.prepare("DELETE FROM daily_reports"),
  ]);
});

describe("the daily report by email: the switch", () => {
  it("is off by default, turns on and off, and answers the account's address", async () => {
    const staff = await staffSubscribed(false);
    expect((await call("/api/report-mail", { token: staff.accessToken })).body).toEqual({ subscribed: false, email: staff.email });
    const on = await call("/api/report-mail", { method: "PUT", token: staff.accessToken, json: { subscribed: true } });
    expect(on.body).toEqual({ subscribed: true, email: staff.email });
    expect((await call("/api/report-mail", { token: staff.accessToken })).body.subscribed).toBe(true);
    await call("/api/report-mail", { method: "PUT", token: staff.accessToken, json: { subscribed: false } });
    expect((await call("/api/report-mail", { token: staff.accessToken })).body.subscribed).toBe(false);
  });

  it("refuses users who may not see the daily report (403), the signed-out (401) and a body not a boolean (400)", async () => {
    const customer = await signUpAndSignIn();
    expect((await call("/api/report-mail", { token: customer.accessToken })).status).toBe(403);
    expect((await call("/api/report-mail", { method: "PUT", token: customer.accessToken, json: { subscribed: true } })).status).toBe(403);
    expect((await call("/api/report-mail", { method: "PUT", json: { subscribed: true } })).status).toBe(401);
    const staff = await staffSubscribed(false);
    for (const json of [{}, { subscribed: "yes" }, { subscribed: true, email: "other@example.com" }]) {
      const res = await call("/api/report-mail", { method: "PUT", token: staff.accessToken, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
    }
    expect((await env.DB.prepare("SELECT count(*) AS n FROM report_mail_subscriptions").first<{ n: number }>())!.n).toBe(0);
  });

  it("limits how often one user changes it (429 past 20 an hour)", async () => {
    const staff = await staffSubscribed(false);
    for (let i = 0; i < 20; i++) {
      expect((await call("/api/report-mail", { method: "PUT", token: staff.accessToken, json: { subscribed: i % 2 === 0 } })).status).toBe(200);
    }
    expect((await call("/api/report-mail", { method: "PUT", token: staff.accessToken, json: { subscribed: true } })).status).toBe(429);
    // The refused change is not written: the last allowed one (off) stands.
    expect((await call("/api/report-mail", { token: staff.accessToken })).body.subscribed).toBe(false);
  });
});

describe("the daily report by email: sending", { timeout: 60_000 }, () => {
  it("runs after the daily report on the daily cron", () => {
    const names = jobsByCron[DAILY_CRON].map((j) => j.name);
    expect(names.indexOf("daily-report-mail")).toBe(names.indexOf("daily-report") + 1);
  });

  it("sends each subscriber one mail for the day, however often the job runs", async () => {
    const [a, b] = [await staffSubscribed(), await staffSubscribed()];
    await storeReports();
    const first = await runReportMailJob(ctx());
    expect(first).toMatchObject({ day: DAY, sent: 2, failed: 0 });
    const second = await runReportMailJob(ctx());
    expect(second).toMatchObject({ day: DAY, sent: 0, failed: 0 });
    expect((await reportMails(a.email)).length).toBe(1);
    expect((await reportMails(b.email)).length).toBe(1);
  });

  it("sends one mail per subscriber when runs overlap, and the port is called once per mail", async () => {
    const staff = await Promise.all(Array.from({ length: 5 }, () => staffSubscribed()));
    await storeReports();
    const mail = countingMail();
    const runs = await Promise.all([runReportMailJob(ctx(), mail.port), runReportMailJob(ctx(), mail.port), runReportMailJob(ctx(), mail.port)]);
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(5);
    expect(mail.sends).toHaveLength(5);
    expect(new Set(mail.sends.map((m) => m.to))).toEqual(new Set(staff.map((s) => s.email.toLowerCase())));
    for (const s of staff) expect((await reportMails(s.email)).length).toBe(1);
  });

  it("marks a failed send so that a rerun retries it, and sends it once when it goes through", async () => {
    const [ok, unlucky] = [await staffSubscribed(), await staffSubscribed()];
    await storeReports();
    const failing = countingMail((m) => m.to === unlucky.email.toLowerCase());
    expect(await runReportMailJob(ctx(), failing.port)).toMatchObject({ sent: 1, failed: 1 });
    const row = await env.DB.prepare("SELECT status, attempts, error FROM report_mail_deliveries WHERE user_id = ?").bind(unlucky.userId).first();
    expect(row).toEqual({ status: "failed", attempts: 1, error: "the vendor is down" });
    expect(await reportMails(unlucky.email)).toHaveLength(0);

    const working = countingMail();
    expect(await runReportMailJob(ctx(), working.port)).toMatchObject({ sent: 1, failed: 0 });
    expect(working.sends.map((m) => m.to)).toEqual([unlucky.email.toLowerCase()]);
    expect(await reportMails(unlucky.email)).toHaveLength(1);
    expect(await reportMails(ok.email)).toHaveLength(1);
    // Both retries carry the same idempotency key, which the vendor (and the local outbox) deliver once.
    expect(failing.sends.find((m) => m.to === unlucky.email.toLowerCase())!.idempotencyKey).toBe(working.sends[0].idempotencyKey);
    expect(await runReportMailJob(ctx(), working.port)).toMatchObject({ sent: 0 });
  });

  it("does not take a claim another run holds, until it is stale", async () => {
    const staff = await staffSubscribed();
    await storeReports();
    const now = CRON_TIME.toISOString();
    await env.DB.prepare("INSERT INTO report_mail_deliveries (user_id, day, status, claim_id, first_claimed_at, claimed_at) VALUES (?, ?, 'sending', 'other-run', ?, ?)")
      .bind(staff.userId, DAY, now, now)
      .run();
    expect(await runReportMailJob(ctx())).toMatchObject({ sent: 0, skipped: 1 });
    const later = new Date(CRON_TIME.getTime() + 20 * 60_000);
    await env.DB.prepare("UPDATE report_mail_deliveries SET first_claimed_at = ?, claimed_at = ? WHERE user_id = ?").bind(now, now, staff.userId).run();
    expect(await runReportMailJob({ ...ctx(), now: later })).toMatchObject({ sent: 1 });
    expect(await reportMails(staff.email)).toHaveLength(1);
  });

  it("mails nobody who has it off, never turned it on, lost the flag or was deleted; an admin may have it", async () => {
    const never = await staffSubscribed(false);
    const off = await staffSubscribed();
    await call("/api/report-mail", { method: "PUT", token: off.accessToken, json: { subscribed: false } });
    const lostFlag = await staffSubscribed();
    await env.DB.prepare("UPDATE profiles SET shopwindows_info = 0 WHERE id = ?").bind(lostFlag.userId).run();
    const deleted = await staffSubscribed();
    await env.DB.prepare("DELETE FROM profiles WHERE id = ?").bind(deleted.userId).run();
    const admin = await signUpAndSignIn({ appMetadata: { is_admin: true } });
    expect((await call("/api/report-mail", { method: "PUT", token: admin.accessToken, json: { subscribed: true } })).status).toBe(200);
    await storeReports();
    const run = await runReportMailJob(ctx());
    expect(run).toMatchObject({ subscribers: 1, sent: 1 });
    for (const u of [never, off, lostFlag, deleted]) expect(await reportMails(u.email), u.email).toHaveLength(0);
    expect(await reportMails(admin.email)).toHaveLength(1);
  });

  it("sends nothing when yesterday's report is not stored", async () => {
    await staffSubscribed();
    expect(await runReportMailJob(ctx())).toMatchObject({ noReport: true, sent: 0 });
    expect(await reportMails()).toHaveLength(0);
  });
});

describe("the daily report mail's content", { timeout: 60_000 }, () => {
  async function seedDays() {
    for (const day of [DAY, WEEK_EARLIER]) {
      const w = { fromMs: Date.parse(`${day}T14:00:00Z`), toMs: Date.parse(`${day}T22:00:00Z`) };
      await insertAppointments(day === DAY ? 40 : 25, {}, { window: w, nowMs: CRON_TIME.getTime() });
      await insertAircallCalls(day === DAY ? 30 : 12, {}, { window: w });
      await insertLeads(day === DAY ? 15 : 6, {}, { window: w });
    }
  }

  it("holds the stored report's figures per store, the totals against a week earlier, and the links", async () => {
    const staff = await staffSubscribed();
    await seedDays();
    await storeReports();
    await runReportMailJob(ctx());
    const [m] = await reportMails(staff.email);
    const label = reportDayLabel(DAY);
    expect(m.subject).toBe(REPORT_MAIL_TEXT.subject(label));

    const stored = await env.DB.prepare("SELECT day, csv FROM daily_reports WHERE store IS NULL ORDER BY day").all<{ day: string; csv: string }>();
    const [earlier, today] = stored.results.map((r) => rowsOfStoredReport(r.csv));
    expect(today.length).toBe(10);
    const all = today.find((r) => r.store === "ALL")!;
    const before = earlier.find((r) => r.store === "ALL")!;
    expect(DAILY_REPORT_COLUMNS.some((c) => all.figures[c.key] !== before.figures[c.key])).toBe(true);

    // HTML: each store's column holds the stored figures, row by row.
    const doc = m.body_html!;
    const storesTable = /<table[^>]*data-table="stores">([\s\S]*?)<\/table>/.exec(doc)![1];
    const heads = [...storesTable.matchAll(/<th scope="col"[^>]*>([^<]*)<\/th>/g)].map((x) => x[1]).slice(1);
    expect(heads).toEqual([...today.filter((r) => r.store !== "ALL").map((r) => r.store), REPORT_MAIL_TEXT.allStores]);
    for (const c of DAILY_REPORT_COLUMNS) {
      const row = new RegExp(`<th scope="row"[^>]*>${c.key.replace(/[()&]/g, (ch) => (ch === "&" ? "&amp;" : `\\${ch}`))}</th>((?:<td[^>]*>[^<]*</td>)+)</tr>`).exec(storesTable);
      expect(row, c.key).not.toBeNull();
      const cells = [...row![1].matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((x) => Number(x[1].replace(/,/g, "")));
      expect(cells, c.key).toEqual([...today.filter((r) => r.store !== "ALL"), all].map((r) => r.figures[c.key]));
    }
    // The totals: the day, the same weekday a week earlier, and the change.
    const totals = /<table[^>]*data-table="totals">([\s\S]*?)<\/table>/.exec(doc)![1];
    expect(totals).toContain(`>${DAY}</th>`);
    expect(totals).toContain(`>${WEEK_EARLIER}</th>`);
    for (const c of DAILY_REPORT_COLUMNS) {
      const diff = all.figures[c.key] - before.figures[c.key];
      const cells = new RegExp(`>${c.key.replace(/[()&]/g, (ch) => (ch === "&" ? "&amp;" : `\\${ch}`))}</th><td[^>]*>([^<]*)</td><td[^>]*>([^<]*)</td><td[^>]*>([^<]*)</td>`).exec(totals);
      expect(cells, c.key).not.toBeNull();
      expect([Number(cells![1].replace(/,/g, "")), Number(cells![2].replace(/,/g, ""))], c.key).toEqual([all.figures[c.key], before.figures[c.key]]);
      expect(cells![3].startsWith(diff === 0 ? "0" : diff > 0 ? `+${diff}` : `-${-diff}`), `${c.key}: ${cells![3]}`).toBe(true);
    }

    // Plain text: the same figures, one line per figure, the stores' columns in the same order.
    for (const c of DAILY_REPORT_COLUMNS) {
      const line = m.body_text.split("\n").find((l) => l.startsWith(`${c.key} `) && l.trim().split(/\s{2,}/).length === 11);
      expect(line, c.key).toBeDefined();
      const cells = line!.trim().split(/\s{2,}/).slice(1).map((v) => Number(v.replace(/,/g, "")));
      expect(cells, c.key).toEqual([...today.filter((r) => r.store !== "ALL"), all].map((r) => r.figures[c.key]));
    }

    // Links: the day's Daily Report screen in the app, and the unsubscribe link with its headers.
    const origin = "http://localhost";
    expect(m.body_text).toContain(`${origin}/daily-report?date=${DAY}`);
    expect(doc).toContain(`href="${origin}/daily-report?date=${DAY}"`);
    const headers = JSON.parse(m.headers!);
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const unsubscribe = unsubscribeUrlOf(m);
    expect(unsubscribe.startsWith(`${origin}/api/report-mail/unsubscribe?token=`)).toBe(true);
    expect(m.body_text).toContain(unsubscribe);
    expect(doc).toContain(`href="${unsubscribe}"`);

    // The local mailbox lists it with both versions and its headers.
    const listed = await call(`/api/local/mailbox?email=${encodeURIComponent(staff.email)}`);
    const shown = listed.body.messages.find((x: { kind: string }) => x.kind === "daily_report");
    expect(shown).toMatchObject({ subject: m.subject, text: m.body_text, html: doc, headers });
  });

  it("reads a week earlier from the counts when that day has no stored report", async () => {
    const staff = await staffSubscribed();
    await seedDays();
    await storeReports({ weekEarlier: false });
    await runReportMailJob(ctx());
    const [m] = await reportMails(staff.email);
    const live = await call(`/api/daily-report?date=${WEEK_EARLIER}`, { token: staff.accessToken });
    const allLine = (live.body.text as string).split("\r\n").find((l) => l.startsWith(`${WEEK_EARLIER},ALL,`))!;
    const figures = allLine.split(",").slice(2).map(Number);
    const totals = /<table[^>]*data-table="totals">([\s\S]*?)<\/table>/.exec(m.body_html!)![1];
    const earlierCells = [...totals.matchAll(/<tr><th scope="row"[^>]*>[^<]*<\/th><td[^>]*>[^<]*<\/td><td[^>]*>([^<]*)<\/td>/g)].map((x) => Number(x[1].replace(/,/g, "")));
    expect(earlierCells).toEqual(figures);
    expect(figures.some((f) => f > 0)).toBe(true);
  });

  it("escapes what it shows in the HTML", async () => {
    const staff = await staffSubscribed();
    await storeReports();
    // A store name as a report could carry it: the all-stores CSV's rows are shown as they are stored.
    const row = await env.DB.prepare("SELECT csv FROM daily_reports WHERE day = ? AND store IS NULL").bind(DAY).first<{ csv: string }>();
    const tampered = row!.csv.replace(/\r\n(\d{4}-\d{2}-\d{2}),IOWA,/, '\r\n$1,"<img src=x onerror=alert(1)>",');
    expect(tampered).not.toBe(row!.csv);
    await env.DB.prepare("UPDATE daily_reports SET csv = ? WHERE day = ? AND store IS NULL").bind(tampered, DAY).run();
    await runReportMailJob(ctx());
    const [m] = await reportMails(staff.email);
    expect(m.body_html).not.toContain("<img");
    expect(m.body_html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });
});

describe("the unsubscribe link", { timeout: 60_000 }, () => {
  async function mailed() {
    const staff = await staffSubscribed();
    await storeReports({ weekEarlier: false });
    await runReportMailJob(ctx());
    const [m] = await reportMails(staff.email);
    const url = new URL(unsubscribeUrlOf(m));
    return { staff, path: `${url.pathname}${url.search}`, token: tokenOf(url.href) };
  }
  const subscribed = async (userId: string) =>
    (await env.DB.prepare("SELECT subscribed FROM report_mail_subscriptions WHERE user_id = ?").bind(userId).first<{ subscribed: number }>())!.subscribed;

  it("GET only shows a page with the button; its POST turns the mail off, without sign-in", async () => {
    const { staff, path } = await mailed();
    const page = await call(path);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.body.text).toContain(REPORT_MAIL_TEXT.confirmQuestion);
    expect(page.body.text).toMatch(/<form method="post" action="\?token=[A-Za-z0-9_-]{43}">/);
    expect(await subscribed(staff.userId)).toBe(1);

    const done = await call(path, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(done.status).toBe(200);
    expect(done.body.text).toContain(REPORT_MAIL_TEXT.done);
    expect(await subscribed(staff.userId)).toBe(0);
    expect((await call("/api/report-mail", { token: staff.accessToken })).body.subscribed).toBe(false);

    // The next night sends nothing to this user.
    const next = new Date(CRON_TIME.getTime() + 86_400_000);
    await runDailyReportJob({ db: db(), now: next });
    expect(await runReportMailJob({ ...ctx(), now: next })).toMatchObject({ subscribers: 0, sent: 0 });
  });

  it("refuses a wrong, altered or malformed token with the same page, and unsubscribes nobody", async () => {
    const { staff, token } = await mailed();
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const t of [altered, "x".repeat(43), "short", "", `${token}x`]) {
      for (const method of ["GET", "POST"]) {
        const res = await call(`/api/report-mail/unsubscribe?token=${encodeURIComponent(t)}`, { method });
        expect(res.status, `${method} ${t}`).toBe(404);
        expect(res.body.text).toContain(REPORT_MAIL_TEXT.invalid);
      }
    }
    expect(await subscribed(staff.userId)).toBe(1);
  });

  it("is random per mail and kept only as a hash: nothing stored or known about the user gives it", async () => {
    const { staff, token } = await mailed();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = (await env.DB.prepare("SELECT token_hash, user_id FROM report_mail_unsubscribe_tokens").all<{ token_hash: string; user_id: string }>()).results;
    expect(rows).toEqual([{ token_hash: await sha256(token), user_id: staff.userId }]);
    // Not a hash of what is known about the user and the day.
    for (const known of [staff.userId, staff.email, `${staff.userId}/${DAY}`, `daily-report/${staff.userId}/${DAY}`]) expect(await sha256(known)).not.toBe(token);
    // No table row holds the token itself.
    const tables = (await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'").all<{ name: string }>()).results;
    for (const { name } of tables) {
      const cols = (await env.DB.prepare(`SELECT name FROM pragma_table_info('${name}')`).all<{ name: string }>()).results.map((c) => c.name);
      if (name === "mail_outbox") continue; // the local inbox holds the mail itself, as a real inbox does
      for (const col of cols) {
        const hit = await env.DB.prepare(`SELECT count(*) AS n FROM "${name}" WHERE CAST("${col}" AS TEXT) LIKE ?`).bind(`%${token}%`).first<{ n: number }>();
        expect(hit!.n, `${name}.${col}`).toBe(0);
      }
    }
    // The next day's mail carries another token; both links work.
    await call("/api/report-mail", { method: "PUT", token: staff.accessToken, json: { subscribed: true } });
    const next = new Date(CRON_TIME.getTime() + 86_400_000);
    await runDailyReportJob({ db: db(), now: next });
    await runReportMailJob({ ...ctx(), now: next });
    const mails = await reportMails(staff.email);
    expect(mails).toHaveLength(2);
    const second = tokenOf(unsubscribeUrlOf(mails[1]));
    expect(second).not.toBe(token);
  });

  it("is rate limited per address like the other public routes", async () => {
    const { path } = await mailed();
    const ip = "192.0.2.77";
    for (let i = 0; i < 30; i++) expect((await call(path, { ip })).status).toBe(200);
    const limited = await call(path, { ip });
    expect(limited.status).toBe(429);
    expect(limited.body.text).toContain(REPORT_MAIL_TEXT.tooMany);
    expect((await call(path, { ip: "192.0.2.78" })).status).toBe(200);
  });
});

describe("the daily report mail in production", { timeout: 60_000 }, () => {
  const production = (over: Record<string, unknown> = {}) =>
    parseConfig({ ...(env as unknown as Record<string, unknown>), ...PRODUCTION_BINDINGS, ...over });

  it("goes through Resend when its key and sender are set, once however often the job runs", async () => {
    const staff = await staffSubscribed();
    await storeReports({ weekEarlier: false });
    const apiKey = `re_job_${Date.now().toString(36)}`;
    const config = production({ RESEND_API_KEY: apiKey, MAIL_FROM: "Reports <reports@example.test>", RESEND_BASE_URL: inject("standins").resend });
    expect(createMail(config, db()).kind).toBe("resend");
    await runReportMailJob({ db: db(), shards: testShards(), config, now: CRON_TIME });
    await runReportMailJob({ db: db(), shards: testShards(), config, now: CRON_TIME });
    const sent = ((await (await fetch(`${inject("standins").resend}/__sent/${apiKey}`)).json()) as { emails: { to: string[]; subject: string; html: string; headers: Record<string, string> }[] }).emails;
    expect(sent).toHaveLength(1);
    expect(sent[0].to).toEqual([staff.email.toLowerCase()]);
    expect(sent[0].headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(await reportMails(staff.email)).toHaveLength(0);
  });

  it("without Resend's settings is not configured: nothing reaches the local outbox, the delivery is marked failed naming them", async () => {
    const staff = await staffSubscribed();
    await storeReports({ weekEarlier: false });
    const config = production();
    expect(createMail(config, db()).kind).toBe("not_configured");
    // The job fails (its run is recorded with the error, shown to admins); the delivery waits for a rerun.
    await expect(reportMailJob.run({ db: db(), shards: testShards(), config, now: CRON_TIME })).rejects.toThrow(/1 of 1 daily report mails for 2026-09-14 failed/);
    expect(await reportMails(staff.email)).toHaveLength(0);
    const row = await env.DB.prepare("SELECT status, error FROM report_mail_deliveries WHERE user_id = ?").bind(staff.userId).first<{ status: string; error: string }>();
    expect(row!.status).toBe("failed");
    expect(row!.error).toMatch(/RESEND_API_KEY, MAIL_FROM/);
  });
});
