// A Pro owner adds the local webhook receiver in Settings → Webhooks for alert.triggered and
// alert.resolved, makes "errors ≥ 3 in 15 min" for an agent on the Alerts page, the voice platform
// reports three failed calls, and the alert reaches the bell, the mailbox and the receiver (verified)
// once, however often the minute cron runs after the webhook's own evaluation; the history's "Calls"
// link shows those three calls. Raising the threshold to 10 ends the breach: the next minute cron
// resolves the alert, alert.resolved reaches the receiver once and the history shows when.
import { ALERT_METRICS } from "../shared/alerts.ts";
import { ALERT_MAIL_TEXT, ALERT_TEXT, CALL_LOG_FILTER_TEXT, MAILBOX_TEXT, NAV_TEXT, WEBHOOKS_TEXT } from "../shared/messages.ts";
import { registerAccount } from "./admin-api.ts";
import { check, json, seePath, seeText, signIn, waitFor, type Journey } from "./harness.ts";
import { reportEndedCall, webhookInbox } from "./voice-api.ts";

/** The alerts' cron of wrangler.toml (worker/jobs/index.ts MINUTE_CRON). */
const MINUTE_CRON = "* * * * *";

/** A call of the agent that ended a minute ago in a pipeline error, as VAPI reports it. */
const reportFailedCall = (baseUrl: string, assistantId: string, endedReason = "pipeline-error-openai-llm-failed") =>
  reportEndedCall(baseUrl, assistantId, { endedReason, summary: "The model did not answer." });

export default {
  name: "Alerts: errors ≥ 3 in 15 min for an agent fires once after three failed calls, in the bell, the mailbox and the webhook receiver, and resolves once",
  timeoutMs: 180_000,
  async run({ page, baseUrl }) {
    // Webhooks are a Pro plan's: the account pays for Pro with the local checkout's test card.
    const { email, token } = await registerAccount(baseUrl, "alerts", "price_local_pro_month");
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const { agent } = await json(await fetch(`${baseUrl}/api/create-default-agent`, { method: "POST", headers: auth }));
    const { id: assistantId } = await json(await fetch(`${baseUrl}/api/create-vapi-assistant`, { method: "POST", headers: auth, body: JSON.stringify({ agent_id: agent.id }) }));

    await signIn(page, email, "Journey-pass-1");

    // Settings → Webhooks: the local receiver, told of alert.triggered and alert.resolved only.
    const inboxName = `alerts-${Date.now().toString(36)}`;
    const receiver = `${baseUrl}/api/local/webhook-inbox/${inboxName}`;
    await page.goto("/settings");
    await seeText(page, WEBHOOKS_TEXT.section);
    await page.getByLabel(WEBHOOKS_TEXT.urlLabel, { exact: true }).fill(receiver);
    for (const type of ["call.started", "call.ended"]) await page.getByRole("checkbox", { name: new RegExp(`^${type.replace(".", "\\.")}\\b`) }).uncheck();
    for (const type of ["alert.triggered", "alert.resolved"]) await page.getByRole("checkbox", { name: new RegExp(`^${type.replace(".", "\\.")}\\b`) }).check();
    await page.getByRole("button", { name: WEBHOOKS_TEXT.add, exact: true }).click();
    await seeText(page, WEBHOOKS_TEXT.secretOnce);
    await page.getByRole("button", { name: WEBHOOKS_TEXT.done, exact: true }).click();
    await page.getByTestId("webhook-endpoint").filter({ hasText: receiver }).waitFor();

    await page.goto("/");
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
    await page.getByLabel("Webhook event (alert.triggered / alert.resolved)").check();
    // Test before saving: no failed call in the last 7 days, so it would never have fired.
    await page.getByRole("button", { name: ALERT_TEXT.test }).click();
    await seeText(page, `${ALERT_TEXT.testResult(0, 7)} ${ALERT_TEXT.testGrain.minute}`);
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
    // On a phone the bell is in the top bar, seen without opening the menu, and it is the only one.
    const desktop = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    const topBar = page.getByRole("banner");
    await topBar.getByTestId("alert-bell-count").waitFor();
    check((await topBar.getByTestId("alert-bell-count").innerText()) === "1", "the phone's top bar counts the unread alert");
    check((await page.getByTestId("alert-bell").count()) === 1, `one bell on a phone, found ${await page.getByTestId("alert-bell").count()}`);
    await page.setViewportSize(desktop);
    await page.locator("aside").getByTestId("alert-bell").waitFor();
    check((await page.getByTestId("alert-bell").count()) === 1, `one bell on a wide screen, found ${await page.getByTestId("alert-bell").count()}`);
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
    // The subject names the metric and the severity, never the rule's name (the account's words).
    const subject = ALERT_MAIL_TEXT.mailSubject("triggered", "critical", ALERT_METRICS.error_calls.label);
    await page.goto(`/mailbox?email=${encodeURIComponent(email)}`);
    const heading = page.getByRole("heading", { name: subject, exact: true });
    for (let tries = 0; (await heading.count()) === 0 && tries < 20; tries++) {
      await page.waitForTimeout(500);
      await page.getByRole("button", { name: MAILBOX_TEXT.refresh }).click();
    }
    check((await heading.count()) === 1, `one mail "${subject}" in the mailbox, found ${await heading.count()}`);

    // The receiver: one alert.triggered, its signature verified with the endpoint's secret.
    const triggered = await waitFor("alert.triggered at the receiver", () => webhookInbox(baseUrl, inboxName), (list) => list.some((e) => e.eventType === "alert.triggered"));
    check(triggered.filter((e) => e.eventType === "alert.triggered").length === 1, `one alert.triggered at the receiver: ${triggered.map((e) => e.eventType).join(", ")}`);
    check(triggered.every((e) => e.verified), "every delivery's signature verifies");

    // The breach ends by the owner's hand: the threshold goes up to 10, and the next minute cron resolves the alert.
    await page.goto("/alerts");
    await page.getByTestId("alert-rule").getByRole("button", { name: ALERT_TEXT.edit }).click();
    await page.getByLabel("Threshold (calls)").fill("10");
    await page.getByRole("button", { name: ALERT_TEXT.save }).click();
    await page.getByLabel("Threshold (calls)").waitFor({ state: "detached" });
    for (let i = 0; i < 2; i++) check((await fetch(`${baseUrl}/__scheduled?cron=${encodeURIComponent(MINUTE_CRON)}`)).ok, "the minute cron ran");
    const resolved = await waitFor("alert.resolved at the receiver", () => webhookInbox(baseUrl, inboxName), (list) => list.some((e) => e.eventType === "alert.resolved"));
    check(resolved.filter((e) => e.eventType === "alert.resolved").length === 1, `one alert.resolved at the receiver: ${resolved.map((e) => e.eventType).join(", ")}`);
    check(resolved.every((e) => e.verified), "alert.resolved verifies too");
    check(resolved.map((e) => e.eventType).join(",") === "alert.triggered,alert.resolved", `triggered, then resolved: ${resolved.map((e) => e.eventType).join(", ")}`);

    // The history shows when it resolved: the row no longer says open.
    await page.reload();
    await history.waitFor();
    await history.getByText(ALERT_TEXT.open, { exact: true }).waitFor({ state: "detached" });
    const columns = await history.locator("thead th").allTextContents();
    check(columns.includes(ALERT_TEXT.resolvedAt), `the history has a resolved column: ${columns.join(", ")}`);
    const resolvedCell = history.locator("tbody tr").first().locator("td").nth(columns.indexOf(ALERT_TEXT.resolvedAt));
    check(/\d/.test(await resolvedCell.innerText()), `the history shows the resolved time: ${await resolvedCell.innerText()}`);
  },
} satisfies Journey;
