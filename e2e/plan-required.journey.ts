// An account registered without a plan is told before it tries that a plan
// is needed, and each paid action it tries anyway (Save & Activate, buying a number, a test call)
// answers 402 with an Upgrade link that opens /buy, while the page stays on screen.
import type { Page } from "playwright-core";
import { AGENT_TEXT, NAV_TEXT, PHONE_TEXT, PLAN_TEXT } from "../shared/messages.ts";
import { registerConfirmedAccount } from "./billing-api.ts";
import { check, DEMO, seePath, seeText, signIn, uniqueEmail, type Journey } from "./harness.ts";

async function api(baseUrl: string, method: string, path: string, token: string | null, body?: unknown) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

async function tokenFor(baseUrl: string, email: string, password: string) {
  const res = await api(baseUrl, "POST", "/auth/v1/token?grant_type=password", null, { email, password });
  check(res.status === 200, `sign-in of ${email} should succeed, got ${res.status}`);
  return res.body.access_token as string;
}

/** The page is still there: its heading and the sidebar's navigation, not a white screen. */
async function stillOnScreen(page: Page, heading: string) {
  await page.getByRole("heading", { level: 1, name: heading }).waitFor();
  await page.getByRole("complementary").getByRole("link", { name: NAV_TEXT.agents }).waitFor();
}

/** The plan refusal's toast: the server's words and an Upgrade link that opens /buy; then back. */
async function followToastUpgrade(page: Page, title: string, heading: string) {
  const toast = page.getByRole("region", { name: /notifications/i }).getByRole("listitem").filter({ hasText: title });
  await toast.getByText(PLAN_TEXT.subscriptionRequired, { exact: false }).waitFor();
  await stillOnScreen(page, heading);
  await toast.getByRole("link", { name: PLAN_TEXT.upgrade }).click();
  await seePath(page, "/buy");
  await page.goBack();
}

export default {
  name: "No plan: told before trying, and each 402 offers a working Upgrade link without blanking the app",
  timeoutMs: 120_000,
  async run({ page, baseUrl }) {
    const email = uniqueEmail("noplan");
    const password = "Journey-pass-1";
    await registerConfirmedAccount(page, email, password, { username: "noplan", company: "No Plan Co" });
    await signIn(page, email, password);

    // The dashboard says so before anything is tried, with the way to the plans.
    const notice = page.getByRole("region", { name: PLAN_TEXT.requiredTitle });
    await notice.getByText(PLAN_TEXT.requiredText, { exact: true }).waitFor();
    await notice.getByRole("link", { name: PLAN_TEXT.choosePlan }).click();
    await seePath(page, "/buy");
    check(new URL(page.url()).searchParams.get("email") === email, "the plans should open for the account's email");
    await page.goBack();
    await seePath(page, "/dashboard");

    // ...and so does the Agents page.
    const sidebar = page.getByRole("complementary");
    await sidebar.getByRole("link", { name: NAV_TEXT.agents }).click();
    await seePath(page, "/agent-settings");
    await notice.getByText(PLAN_TEXT.requiredText, { exact: true }).waitFor();

    // Save & Activate: the agent is saved, its activation refused with 402.
    await page.getByRole("button", { name: AGENT_TEXT.addNew }).click();
    await page.getByLabel(AGENT_TEXT.nameLabel, { exact: true }).fill("No Plan Desk");
    await page.getByLabel(AGENT_TEXT.businessDescriptionLabel, { exact: true }).fill("A family dental practice in Austin, open six days a week.");
    await page.getByLabel(AGENT_TEXT.servicesLabel, { exact: true }).fill("Cleanings, fillings, whitening and emergency visits.");
    await page.getByRole("button", { name: AGENT_TEXT.next, exact: true }).click();
    await page
      .getByLabel(AGENT_TEXT.instructionsLabel, { exact: true })
      .fill("Greet callers warmly, answer questions about our services and book appointments.");
    await page.getByRole("button", { name: AGENT_TEXT.saveAndActivate, exact: true }).click();
    await followToastUpgrade(page, AGENT_TEXT.activateFailed, AGENT_TEXT.pageTitle);
    await seePath(page, "/agent-settings");
    await page.getByRole("heading", { name: "No Plan Desk" }).waitFor();

    // Buying a number: the purchase dialog says why and links to the plans.
    await sidebar.getByRole("link", { name: NAV_TEXT.phoneNumbers }).click();
    await seePath(page, "/phone-numbers");
    await page.getByRole("tab", { name: PHONE_TEXT.buy }).click();
    await notice.getByText(PLAN_TEXT.requiredText, { exact: true }).waitFor();
    await page.getByLabel(PHONE_TEXT.areaCodeLabel, { exact: true }).fill("512");
    await page.getByRole("button", { name: PHONE_TEXT.search, exact: true }).click();
    const firstResult = page.getByRole("list", { name: PHONE_TEXT.availableNumbers }).getByRole("listitem").first();
    await firstResult.getByRole("button", { name: PHONE_TEXT.buyAction, exact: true }).click();
    await page.getByRole("dialog", { name: PHONE_TEXT.confirmTitle }).getByRole("button", { name: PHONE_TEXT.confirmPurchase }).click();
    const refused = page.getByRole("dialog", { name: PHONE_TEXT.errorTitle });
    await refused.getByText(PLAN_TEXT.subscriptionRequired, { exact: true }).waitFor();
    await refused.getByRole("link", { name: PLAN_TEXT.upgrade }).click();
    await seePath(page, "/buy");

    // A test call needs an active agent, which only a plan (or admin rights) gives: an admin lends
    // the account admin rights while it activates its agent, then takes them back, so the account is
    // left without a plan and with an active agent, as when a plan ends.
    const token = await tokenFor(baseUrl, email, password);
    const admin = await tokenFor(baseUrl, DEMO.admin, DEMO.password);
    const me = await api(baseUrl, "GET", "/api/profile", token);
    const setAdmin = async (on: boolean) => {
      const res = await api(baseUrl, "PUT", `/api/admin/users/${me.body.id}/flags`, admin, { is_admin: on });
      check(res.status === 200, `the admin should set is_admin=${on}, got ${res.status}: ${JSON.stringify(res.body)}`);
    };
    const { body } = await api(baseUrl, "GET", "/api/agents", token);
    const agent = (body.agents as { id: number; name: string }[]).find((a) => a.name === "No Plan Desk");
    check(agent, "the agent saved by Save & Activate should be listed");
    await setAdmin(true);
    const activated = await api(baseUrl, "POST", "/api/create-vapi-assistant", token, { agent_id: agent.id });
    check(activated.status === 200, `activation with admin rights should succeed, got ${activated.status}: ${JSON.stringify(activated.body)}`);
    await setAdmin(false);

    await page.goto("/agent-settings");
    await page.getByRole("button", { name: AGENT_TEXT.deactivate, exact: true }).waitFor();
    await page.getByLabel(AGENT_TEXT.testCallNumberLabel, { exact: true }).fill("+15125550142");
    await page.getByRole("button", { name: AGENT_TEXT.testCallButton, exact: true }).click();
    await followToastUpgrade(page, AGENT_TEXT.triggerFailed, AGENT_TEXT.pageTitle);
    await seePath(page, "/agent-settings");
    await seeText(page, "No Plan Desk");
  },
} satisfies Journey;
