// Custom webhooks (docs/product/webhooks.md): a Pro customer adds the local receiver's URL as an
// endpoint in Settings → Webhooks (its secret shown once), places a test call through the voice
// simulator, and the receiver at /webhook-inbox shows call.started then call.ended, each with its
// signature verified; a Resend from the endpoint's delivery log arrives again with the same webhook-id.
import { AGENT_TEXT, WEBHOOKS_TEXT } from "../shared/messages.ts";
import { check, DEMO, seeText, signIn, waitFor, type Journey } from "./harness.ts";
import { webhookInbox } from "./voice-api.ts";

export default {
  name: "Webhooks: the local receiver hears a simulated call's call.started and call.ended, verified, and a resend",
  timeoutMs: 150_000,
  async run({ page, baseUrl }) {
    await signIn(page, DEMO.customer);
    const name = `journey-${Date.now().toString(36)}`;

    // The receiver's page gives the URL to paste.
    await page.goto(`/webhook-inbox?inbox=${name}`);
    await seeText(page, WEBHOOKS_TEXT.inboxTitle);
    const url = ((await page.getByTestId("inbox-url").textContent()) ?? "").trim();
    check(url === `${baseUrl}/api/local/webhook-inbox/${name}`, `the inbox URL: ${url}`);

    // Settings → Webhooks: add it, call.started and call.ended ticked by default; the secret once.
    await page.goto("/settings");
    await seeText(page, WEBHOOKS_TEXT.section);
    await page.getByLabel(WEBHOOKS_TEXT.urlLabel, { exact: true }).fill(url);
    await page.getByLabel(WEBHOOKS_TEXT.descriptionLabel, { exact: true }).fill("Journey receiver");
    await page.getByRole("button", { name: WEBHOOKS_TEXT.add, exact: true }).click();
    await seeText(page, WEBHOOKS_TEXT.secretOnce);
    const secret = ((await page.getByTestId("webhook-secret").textContent()) ?? "").trim();
    check(/^whsec_[A-Za-z0-9+/]{43}=$/.test(secret), `a whsec_ secret is shown: ${secret.slice(0, 10)}…`);
    await page.getByRole("button", { name: WEBHOOKS_TEXT.done, exact: true }).click();
    check((await page.getByText(secret).count()) === 0, "the secret is gone once dismissed");
    const endpoint = page.getByTestId("webhook-endpoint").filter({ hasText: url });
    await endpoint.waitFor();

    // A test call through the voice simulator.
    await page.goto("/agent-settings");
    await page.getByLabel(AGENT_TEXT.testCallNumberLabel, { exact: true }).fill(`+1512555${String(Date.now() % 10_000).padStart(4, "0")}`);
    await page.getByRole("button", { name: AGENT_TEXT.testCallButton, exact: true }).click();
    await seeText(page, AGENT_TEXT.testCallStarted);

    // The receiver: call.started, then call.ended, each verified with the endpoint's secret.
    const heard = await waitFor("call.started and call.ended at the inbox", () => webhookInbox(baseUrl, name), (list) => list.some((e) => e.eventType === "call.ended"));
    const types = heard.map((e) => e.eventType);
    check(types.indexOf("call.started") >= 0 && types.indexOf("call.started") < types.indexOf("call.ended"), `call.started arrives before call.ended: ${types.join(", ")}`);
    check(heard.every((e) => e.verified), "every delivery's signature verifies");
    await page.goto(`/webhook-inbox?inbox=${name}`);
    await page.getByTestId("inbox-delivery").filter({ hasText: "call.ended" }).getByText(WEBHOOKS_TEXT.verified).waitFor();
    await page.getByTestId("inbox-delivery").filter({ hasText: "call.started" }).getByText(WEBHOOKS_TEXT.verified).waitFor();
    const ended = heard.find((e) => e.eventType === "call.ended")!;

    // Resend call.ended from the endpoint's delivery log: it arrives again with the same webhook-id.
    await page.goto("/settings");
    await endpoint.getByRole("button", { name: WEBHOOKS_TEXT.showLog, exact: true }).click();
    const row = endpoint.getByTestId("webhook-delivery").filter({ hasText: "call.ended" });
    await row.filter({ hasText: WEBHOOKS_TEXT.statuses.succeeded }).waitFor();
    await row.getByRole("button", { name: WEBHOOKS_TEXT.resend, exact: true }).click();
    await seeText(page, WEBHOOKS_TEXT.resent);
    const again = await waitFor("the resent call.ended", () => webhookInbox(baseUrl, name), (list) => list.filter((e) => e.webhookId === ended.webhookId).length === 2);
    check(again.filter((e) => e.webhookId === ended.webhookId).every((e) => e.verified), "the resend verifies too");
    // The log shows the delivery's second attempt (the attempts column), delivered.
    await row.filter({ hasText: WEBHOOKS_TEXT.statuses.succeeded }).locator("td").nth(2).getByText("2", { exact: true }).waitFor();
  },
} satisfies Journey;
