// The daily report by email (decision 060): staff turn it on in /settings, the nightly cron runs
// (wrangler dev --test-scheduled), the mail is in /mailbox with its tables and links, and its
// unsubscribe link, opened without signing in, turns it off after its button.
import { MAILBOX_TEXT, REPORT_MAIL_TEXT } from "../shared/messages.ts";
import { addDays, nyYesterday } from "../shared/ny-time.ts";
import { reportDayLabel } from "../shared/report-mail.ts";
import { check, DEMO, seeText, signIn, type Journey } from "./harness.ts";

/** The nightly cron of wrangler.toml (worker/jobs/index.ts DAILY_CRON). */
const DAILY_CRON = "15 5 * * *";

export default {
  name: "Staff get the daily report by email and unsubscribe from its link",
  // The first nightly run rolls up the seeded days before the report and its mail.
  timeoutMs: 180_000,
  async run({ page, context, baseUrl }) {
    await signIn(page, DEMO.staff);
    await page.goto("/settings");
    await seeText(page, REPORT_MAIL_TEXT.section);
    await seeText(page, REPORT_MAIL_TEXT.sendsTo(DEMO.staff));
    const toggle = page.getByRole("switch", { name: REPORT_MAIL_TEXT.switchLabel });
    check((await toggle.getAttribute("aria-checked")) === "false", "the mail is off by default");
    await toggle.click();
    await seeText(page, REPORT_MAIL_TEXT.on);
    check((await toggle.getAttribute("aria-checked")) === "true", "the switch is on after the click");

    // The nightly cron, as wrangler dev runs it on request; twice, as a cron may fire again.
    for (let i = 0; i < 2; i++) {
      const run = await fetch(`${baseUrl}/__scheduled?cron=${encodeURIComponent(DAILY_CRON)}`);
      check(run.ok, `scheduled run answered ${run.status}`);
    }

    const day = nyYesterday();
    const subject = REPORT_MAIL_TEXT.subject(reportDayLabel(day));
    await page.goto(`/mailbox?email=${encodeURIComponent(DEMO.staff)}`);
    const heading = page.getByRole("heading", { name: subject, exact: true });
    for (let tries = 0; (await heading.count()) === 0 && tries < 30; tries++) {
      await page.waitForTimeout(1000);
      await page.getByRole("button", { name: MAILBOX_TEXT.refresh }).click();
    }
    check((await heading.count()) === 1, `one mail "${subject}" in the mailbox, found ${await heading.count()}`);

    // The HTML version, sandboxed: the per-store table, the week-earlier totals and the links.
    const mail = page.frameLocator(`iframe[title="${MAILBOX_TEXT.htmlVersion(subject)}"]`);
    await mail.getByRole("heading", { name: REPORT_MAIL_TEXT.heading(reportDayLabel(day)) }).waitFor();
    const storeHeads = await mail.locator('table[data-table="stores"] thead th').allInnerTexts();
    check(storeHeads.length === 11 && storeHeads.at(-1) === REPORT_MAIL_TEXT.allStores, `store columns: ${storeHeads.join(", ")}`);
    const totalsHeads = await mail.locator('table[data-table="totals"] thead th').allInnerTexts();
    check(totalsHeads[1] === day && totalsHeads[2] === addDays(day, -7), `totals columns: ${totalsHeads.join(", ")}`);
    const reportLink = await mail.getByRole("link", { name: REPORT_MAIL_TEXT.openReportLink }).getAttribute("href");
    check(reportLink === `${baseUrl}/daily-report?date=${day}`, `report link: ${reportLink}`);
    const unsubscribe = await mail.getByRole("link", { name: REPORT_MAIL_TEXT.unsubscribeText }).getAttribute("href");
    check(unsubscribe?.startsWith(`${baseUrl}/api/report-mail/unsubscribe?token=`), `unsubscribe link: ${unsubscribe}`);

    // The report link opens the Daily Report screen on that day.
    await page.goto(reportLink!);
    await page.waitForFunction((d) => (document.querySelector('input[type="date"]') as HTMLInputElement | null)?.value === d, day);

    // The unsubscribe link works without signing in: a fresh browser context, no session.
    const anonymous = await context.browser()!.newContext({ baseURL: baseUrl });
    try {
      const tab = await anonymous.newPage();
      await tab.goto(unsubscribe!);
      await seeText(tab, REPORT_MAIL_TEXT.confirmQuestion);
      // Opening the link (as a mail scanner does) changes nothing: the mail is still on.
      await page.goto("/settings");
      await page.waitForFunction(() => document.querySelector('[role="switch"]') !== null);
      check((await page.getByRole("switch", { name: REPORT_MAIL_TEXT.switchLabel }).getAttribute("aria-checked")) === "true", "opening the link alone unsubscribed");
      await tab.getByRole("button", { name: REPORT_MAIL_TEXT.confirmButton }).click();
      await seeText(tab, REPORT_MAIL_TEXT.done);
    } finally {
      await anonymous.close();
    }

    await page.goto("/settings");
    await seeText(page, REPORT_MAIL_TEXT.section);
    const after = page.getByRole("switch", { name: REPORT_MAIL_TEXT.switchLabel });
    await page.waitForFunction(() => document.querySelector('[role="switch"]')?.getAttribute("aria-checked") === "false");
    check((await after.getAttribute("aria-checked")) === "false", "the switch is off after unsubscribing");
  },
} satisfies Journey;

