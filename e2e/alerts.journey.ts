// Issue 36: an owner makes "errors ≥ 3 in 15 min" for an agent on the Alerts page, the voice platform
// reports three failed calls, and the alert reaches the bell and the mailbox once, however often the
// minute cron runs after the webhook's own evaluation; the history's "Calls" link shows those three calls.
import { ALERT_METRICS } from "../shared/alerts.ts";
import { ALERT_TEXT, CALL_LOG_FILTER_TEXT, MAILBOX_TEXT, NAV_TEXT } from "../shared/messages.ts";
import { registerAccount } from "./admin-api.ts";
import { check, seePath, seeText, signIn, type Journey } from "./harness.ts";

/** The webhook secret every local server takes (worker/providers/voice/local.ts DEV_VAPI_WEBHOOK_SECRET). */
const DEV_VAPI_WEBHOOK_SECRET = "local-development-vapi-webhook-secret-0001";
/** The alerts' cron of wrangler.toml (worker/jobs/index.ts MINUTE_CRON). */
const MINUTE_CRON = "* * * * *";

async function json(res: Response) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${res.url}: ${text}`);
  return text ? JSON.parse(text) : {};
}

/** A call of the agent that ended a minute ago (by default in a pipeline error), as VAPI reports it. */
async function reportFailedCall(baseUrl: string, assistantId: string, endedReason = "pipeline-error-openai-llm-failed") {
  const id = crypto.randomUUID();
  const end = Date.now();
  const start = end - 60_000;
  const message = {
    type: "end-of-call-report",
    endedReason,
    startedAt: new Date(start).toISOString(),
    endedAt: new Date(end).toISOString(),
    analysis: { summary: "The model did not answer." },
    artifact: { transcript: "AI: Hello.", messages: [] },
    call: { id, type: "inboundPhoneCall", status: "ended", assistantId, customer: { number: "+13055550100" }, createdAt: new Date(start).toISOString(), duration: 60 },
  };
  await json(await fetch(`${baseUrl}/api/webhooks/vapi`, { method: "POST", headers: { "content-type": "application/json", "x-vapi-secret": DEV_VAPI_WEBHOOK_SECRET }, body: JSON.stringify({ message }) }));
}

export default {
  name: "Alerts: errors ≥ 3 in 15 min for an agent fires once after three failed calls, in the bell and the mailbox",
  timeoutMs: 180_000,
  async run({ page, baseUrl }) {
    const { email, token } = await registerAccount(baseUrl, "alerts");
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const { agent } = await json(await fetch(`${baseUrl}/api/create-default-agent`, { method: "POST", headers: auth }));
    const { id: assistantId } = await json(await fetch(`${baseUrl}/api/create-vapi-assistant`, { method: "POST", headers: auth, body: JSON.stringify({ agent_id: agent.id }) }));

    await signIn(page, email, "Journey-pass-1");
    await page.getByRole("complementary").getByRole("link", { name: NAV_TEXT.alerts }).click();
    await seePath(page, "/alerts");
    await seeText(page, ALERT_TEXT.noRules);

    // The rule, through the form: errors ≥ 3 over 15 minutes for this agent.
    await page.getByRole("button", { name: ALERT_TEXT.newRule }).click();
    await page.getByLabel("Name").fill("Front desk errors");
    await page.getByLabel("Metric").selectOption("error_calls");
    await seeText(page, ALERT_METRICS.error_calls.definition);
    await page.getByLabel("Scope").selectOption("agent");
    await page.getByLabel("Agent", { exact: true }).selectOption(String(agent.id));
    await page.getByLabel("Threshold (calls)").fill("3");
    await page.getByLabel("Window").selectOption("15");
    await page.getByLabel("Severity").selectOption("critical");
    // Test before saving: no failed call in the last 7 days, so it would never have fired.
    await page.getByRole("button", { name: ALERT_TEXT.test }).click();
    await seeText(page, ALERT_TEXT.testResult(0, 7));
    await page.getByRole("button", { name: ALERT_TEXT.save }).click();
    const rule = page.getByTestId("alert-rule");
    await rule.waitFor();
    check((await rule.innerText()).includes("Front desk errors"), "the saved rule is listed");

    // A call that ended well, which the alert's calls leave out; then three failed calls: the third webhook's evaluation fires the alert.
    await reportFailedCall(baseUrl, assistantId, "customer-ended-call");
    for (let i = 0; i < 3; i++) await reportFailedCall(baseUrl, assistantId);
    let unread = 0;
    for (let tries = 0; unread === 0 && tries < 30; tries++) {
      unread = (await json(await fetch(`${baseUrl}/api/alerts/bell`, { headers: auth }))).unread;
      if (unread === 0) await page.waitForTimeout(500);
    }
    check(unread === 1, `one unread alert after three failed calls, found ${unread}`);
    // The minute cron, twice, finds the rule already triggered: nothing more is sent.
    for (let i = 0; i < 2; i++) check((await fetch(`${baseUrl}/__scheduled?cron=${encodeURIComponent(MINUTE_CRON)}`)).ok, "the minute cron ran");

    await page.reload();
    const count = page.getByTestId("alert-bell-count");
    await count.waitFor();
    check((await count.innerText()) === "1", `the bell counts one unread alert, found ${await count.innerText()}`);
    await page.getByTestId("alert-bell").click();
    const bell = page.getByRole("region", { name: ALERT_TEXT.bell });
    await bell.waitFor();
    check((await bell.innerText()).includes(ALERT_TEXT.triggeredTitle("Front desk errors", "3 calls")), `the bell lists the alert: ${await bell.innerText()}`);
    // Opening the bell read it.
    await count.waitFor({ state: "detached" });
    const history = page.getByTestId("alert-history");
    await history.waitFor();
    const rows = await history.locator("tbody tr").count();
    check(rows === 1, `one alert in the history, found ${rows}`);
    check((await history.innerText()).includes("≥ 3 calls"), "the history shows the threshold");
    await history.getByRole("button", { name: ALERT_TEXT.acknowledge }).click();
    await seeText(page, ALERT_TEXT.acknowledgedBy(email));

    // The history's "Calls" link: the agent's error calls in the alert's window, the good call left out.
    await history.getByTestId("alert-calls-link").click();
    await seePath(page, "/call-logs");
    const filterLine = page.getByTestId("call-log-filters");
    await filterLine.waitFor();
    check((await filterLine.innerText()).includes(CALL_LOG_FILTER_TEXT.outcome.error), `the call log says it shows errors: ${await filterLine.innerText()}`);
    const callRows = page.locator("table tbody tr");
    await callRows.nth(2).waitFor();
    check((await callRows.count()) === 3, `the three failed calls behind the alert, found ${await callRows.count()}`);
    await page.getByRole("button", { name: CALL_LOG_FILTER_TEXT.showAll }).click();
    await filterLine.waitFor({ state: "detached" });
    await callRows.nth(3).waitFor();

    // The mail, once, in the local mailbox.
    const subject = ALERT_TEXT.mailSubject("triggered", "critical", "Front desk errors");
    await page.goto(`/mailbox?email=${encodeURIComponent(email)}`);
    const heading = page.getByRole("heading", { name: subject, exact: true });
    for (let tries = 0; (await heading.count()) === 0 && tries < 20; tries++) {
      await page.waitForTimeout(500);
      await page.getByRole("button", { name: MAILBOX_TEXT.refresh }).click();
    }
    check((await heading.count()) === 1, `one mail "${subject}" in the mailbox, found ${await heading.count()}`);
  },
} satisfies Journey;
