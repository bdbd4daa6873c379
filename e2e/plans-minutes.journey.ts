// A basic account's minutes this month are shown against its plan's 1,000 on the
// Agents page and in Settings, yellow from 80 % and red at the limit (docs/product/constants.md#business-constants usage colours); the
// ten-minute cron mails the owner once at 80 % and once at 100 %, however often it runs.
import type { Page } from "playwright-core";
import { MINUTES_TEXT, NAV_TEXT } from "../shared/messages.ts";
import { registerAccount } from "./admin-api.ts";
import { check, json, seePath, signIn, type Journey } from "./harness.ts";
import { reportEndedCall } from "./voice-api.ts";

/** The ten-minute cron of wrangler.toml (worker/jobs/index.ts FREQUENT_CRON). */
const FREQUENT_CRON = "*/10 * * * *";

/** A finished call of `minutes` on the account's agent, as VAPI reports it. */
const reportCall = (baseUrl: string, assistantId: string, minutes: number) =>
  reportEndedCall(baseUrl, assistantId, { minutes, cost: 1, summary: "A long call." });

/** The minutes bar's level and text, once it shows `text`. */
async function seeMinutes(scope: ReturnType<Page["locator"]>, text: string, level: string) {
  const usage = scope.getByTestId("minutes-usage");
  await usage.locator(`[role="progressbar"][aria-valuetext="${text}"]`).waitFor();
  const found = await usage.getAttribute("data-level");
  check(found === level, `the minutes bar should be ${level} at ${text}, found ${found}`);
  // The fill's colour is the level's: yellow (warning) or red (destructive), never the default.
  const fill = usage.locator('[role="progressbar"] > div');
  const cls = (await fill.getAttribute("class")) ?? "";
  check(cls.includes(level === "full" ? "bg-destructive" : level === "warning" ? "bg-warning" : "bg-success"), `fill classes: ${cls}`);
}

async function usageMails(baseUrl: string, email: string) {
  const { messages } = await json(await fetch(`${baseUrl}/api/local/mailbox?email=${encodeURIComponent(email)}`));
  return (messages as { subject: string; kind: string }[]).filter((m) => m.kind === "usage_alert").map((m) => m.subject);
}

async function runCron(baseUrl: string) {
  for (let i = 0; i < 2; i++) {
    const run = await fetch(`${baseUrl}/__scheduled?cron=${encodeURIComponent(FREQUENT_CRON)}`);
    check(run.ok, `scheduled run answered ${run.status}`);
  }
}

export default {
  name: "Plans: minutes against the plan's cap in the usage colours on Agents and Settings, one mail at 80 % and one at 100 %",
  timeoutMs: 180_000,
  async run({ page, baseUrl }) {
    // A basic account (1,000 minutes) with an active agent.
    const { email, token } = await registerAccount(baseUrl, "minutes");
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const { agent } = await json(await fetch(`${baseUrl}/api/create-default-agent`, { method: "POST", headers: auth }));
    const { id: assistantId } = await json(await fetch(`${baseUrl}/api/create-vapi-assistant`, { method: "POST", headers: auth, body: JSON.stringify({ agent_id: agent.id }) }));

    await reportCall(baseUrl, assistantId, 810);
    await signIn(page, email, "Journey-pass-1");
    const sidebar = page.getByRole("complementary");
    await sidebar.getByRole("link", { name: NAV_TEXT.agents }).click();
    await seePath(page, "/agent-settings");
    await page.getByText("810.0 / 1,000", { exact: true }).waitFor();
    await seeMinutes(page.locator("main"), MINUTES_TEXT.usedOf(810, 1000), "warning");
    await page.getByText(MINUTES_TEXT.warning(1000), { exact: true }).waitFor();

    await sidebar.getByRole("link", { name: NAV_TEXT.settings }).click();
    await seePath(page, "/settings");
    await seeMinutes(page.locator("main"), MINUTES_TEXT.usedOf(810, 1000), "warning");

    await runCron(baseUrl);
    let subjects = await usageMails(baseUrl, email);
    check(subjects.join() === MINUTES_TEXT.mailSubject(80), `one 80 % mail, found: ${subjects.join(" | ")}`);

    // Past the limit: red on both pages, and the 100 % mail, once.
    await reportCall(baseUrl, assistantId, 200);
    await page.reload();
    await seeMinutes(page.locator("main"), MINUTES_TEXT.usedOf(1010, 1000), "full");
    await sidebar.getByRole("link", { name: NAV_TEXT.agents }).click();
    await seePath(page, "/agent-settings");
    await page.getByText("1,010.0 / 1,000", { exact: true }).waitFor();
    await seeMinutes(page.locator("main"), MINUTES_TEXT.usedOf(1010, 1000), "full");
    await page.getByText(MINUTES_TEXT.full(1000), { exact: true }).waitFor();

    await runCron(baseUrl);
    subjects = await usageMails(baseUrl, email);
    check(
      subjects.length === 2 && subjects.includes(MINUTES_TEXT.mailSubject(80)) && subjects.includes(MINUTES_TEXT.mailSubject(100)),
      `one 80 % and one 100 % mail, found: ${subjects.join(" | ")}`,
    );
    // The mails are in the mailbox the owner reads.
    await page.goto(`/mailbox?email=${encodeURIComponent(email)}`);
    await page.getByRole("heading", { name: MINUTES_TEXT.mailSubject(100), exact: true }).waitFor();
  },
} satisfies Journey;
