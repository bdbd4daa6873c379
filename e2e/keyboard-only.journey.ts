// Keyboard alone: one full path without the mouse. A new subscribed account
// (set up through the API) signs in, creates an agent through both steps of the form and activates
// it, buys a number through the confirmation dialogs, gives it to the agent with the number picker,
// and exports the call report from the dashboard. After the first page load nothing is clicked,
// filled or focused by script: every step is Tab, Shift+Tab, arrows, Enter, Space, Escape or typing.
// On the way it checks that key controls show a focus indicator, that dialogs keep Tab inside and
// hand focus back when they close.
import { readFile } from "node:fs/promises";
import type { Locator, Page } from "playwright-core";
import { registerSubscribedAccount } from "./billing-api.ts";
import { AGENT_TEXT, AUTH_TEXT, DASHBOARD_TEXT, NAV_TEXT, PHONE_TEXT } from "../shared/messages.ts";
import { check, seePath, seeText, uniqueEmail, type Journey } from "./harness.ts";

/** How many key presses may separate two controls on the way; a screen that needs more is not usable. */
const MAX_PRESSES = 60;

/** A short, readable name for what has focus, for failure messages. */
function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "(nothing: the page body)";
    const role = el.getAttribute("role") ?? el.tagName.toLowerCase();
    const labelledBy = el.getAttribute("aria-labelledby");
    const byId = labelledBy
      ? labelledBy
          .split(" ")
          .map((id) => document.getElementById(id)?.textContent ?? "")
          .join(" ")
      : "";
    const labels = (el as HTMLInputElement).labels;
    const name =
      el.getAttribute("aria-label") ?? (byId || (labels?.[0]?.textContent ?? "") || (el.textContent ?? "")).trim().slice(0, 40);
    return `${role} "${name}"`;
  });
}

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** Whether `target` has focus within a moment (roving focus and dialogs move it on the next tick). */
async function becomesFocused(page: Page, target: Locator) {
  for (let i = 0; i < 20; i += 1) {
    if (await isFocused(target)) return true;
    await page.waitForTimeout(50);
  }
  return false;
}

/** The parts of an element's look that can show focus. */
type Look = { outline: string; boxShadow: string; borderColor: string };
const lookOf = (target: Locator): Promise<Look> =>
  target.evaluate((el) => {
    const s = getComputedStyle(el);
    return { outline: `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`, boxShadow: s.boxShadow, borderColor: s.borderColor };
  });

/**
 * Presses Tab (or Shift+Tab) until `target` has focus, at most MAX_PRESSES times. Returns the look the
 * target had before it was focused, so the caller can check that focus shows.
 */
async function tabTo(page: Page, target: Locator, what: string, key: "Tab" | "Shift+Tab" = "Tab"): Promise<Look> {
  await target.waitFor();
  if (await isFocused(target)) {
    // Already focused (autofocus): step off and back to see how it looks without focus.
    const back = key === "Tab" ? "Shift+Tab" : "Tab";
    await page.keyboard.press(key);
    const before = await lookOf(target);
    await page.keyboard.press(back);
    check(await isFocused(target), `${back} should return to ${what}; focus is on ${await describeFocus(page)}`);
    return before;
  }
  const before = await lookOf(target);
  const path: string[] = [];
  for (let i = 0; i <= MAX_PRESSES; i += 1) {
    if (await isFocused(target)) return before;
    if (i === MAX_PRESSES) break;
    await page.keyboard.press(key);
    path.push(await describeFocus(page));
  }
  throw new Error(
    `${what} could not be reached with ${MAX_PRESSES} presses of ${key}; focus went through: ${[...new Set(path)].slice(0, 30).join(" → ")}`,
  );
}

/** Tabs to a control and checks that, focused by keyboard, it looks different from before (a visible indicator). */
async function tabToAndSeeFocus(page: Page, target: Locator, what: string, key: "Tab" | "Shift+Tab" = "Tab") {
  const before = await tabTo(page, target, what, key);
  let after = await lookOf(target);
  // Ring colours may fade in; give a transition a moment before judging.
  for (let i = 0; i < 10 && !showsFocus(before, after); i += 1) {
    await page.waitForTimeout(50);
    after = await lookOf(target);
  }
  check(
    showsFocus(before, after),
    `${what} should show that it has keyboard focus (outline, ring or border), but looks the same: ${JSON.stringify(after)}`,
  );
}

function showsFocus(before: Look, after: Look) {
  const outline = !after.outline.startsWith("none") && !/ 0px /.test(after.outline) && after.outline !== before.outline;
  return outline || after.boxShadow !== before.boxShadow || after.borderColor !== before.borderColor;
}

/** Tabs to a button or link and presses Enter on it. */
async function activate(page: Page, target: Locator, what: string, key: "Tab" | "Shift+Tab" = "Tab") {
  await tabTo(page, target, what, key);
  await page.keyboard.press("Enter");
}

/** Replaces a text field's value the way a person does: select all, type over it. */
async function typeOver(page: Page, text: string) {
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(text);
}

/**
 * With a dialog open, Tab and Shift+Tab around it more times than it has controls: focus must never
 * leave it.
 */
async function checkFocusTrapped(page: Page, dialog: Locator, what: string) {
  const controls = await dialog.evaluate(
    (d) => d.querySelectorAll("button:not([disabled]), input:not([disabled]), select, textarea, a[href], [tabindex]:not([tabindex='-1'])").length,
  );
  check(await dialog.evaluate((d) => d.contains(document.activeElement)), `${what} should take focus when it opens; focus is on ${await describeFocus(page)}`);
  for (const key of ["Tab", "Shift+Tab"]) {
    for (let i = 0; i < controls + 2; i += 1) {
      await page.keyboard.press(key);
      const inside = await dialog.evaluate((d) => d.contains(document.activeElement));
      check(inside, `${key} should keep focus inside ${what}, but it went to ${await describeFocus(page)}`);
    }
  }
}

export default {
  name: "Keyboard only: sign in, create and activate an agent, buy and assign a number, export a CSV",
  timeoutMs: 120_000,
  async run({ page }) {
    const email = uniqueEmail("keyboard");
    const password = "Keyboard-pass-1";
    const agentName = "Keyboard Front Desk";
    await registerSubscribedAccount(page, email, password, { username: "keyboardonly", company: "Keyboard Clinic" });

    // Sign in: the only navigation by URL; from here on, keys only.
    await page.goto("/auth?login=1");
    const form = page.getByRole("form", { name: AUTH_TEXT.signInTab });
    const emailField = form.getByLabel(AUTH_TEXT.emailLabel, { exact: true });
    await tabToAndSeeFocus(page, emailField, "the sign-in Email field");
    await page.keyboard.type(email);
    await tabTo(page, form.getByLabel(AUTH_TEXT.passwordLabel, { exact: true }), "the sign-in Password field");
    await page.keyboard.type(password);
    await tabToAndSeeFocus(page, form.getByRole("button", { name: AUTH_TEXT.signInButton, exact: true }), "the Sign In button");
    await page.keyboard.press("Enter");
    await seePath(page, "/dashboard");

    // To Agents through the sidebar.
    const sidebar = page.getByRole("complementary");
    const agentsLink = sidebar.getByRole("link", { name: NAV_TEXT.agents, exact: true });
    await tabToAndSeeFocus(page, agentsLink, "the sidebar's Agents link");
    await page.keyboard.press("Enter");
    await seePath(page, "/agent-settings");
    await seeText(page, AGENT_TEXT.emptyTitle);

    // Step 1 of the agent form.
    await activate(page, page.getByRole("button", { name: AGENT_TEXT.addNew, exact: true }), "the 'Add New Agent' button");
    const name = page.getByLabel(AGENT_TEXT.nameLabel, { exact: true });
    await tabToAndSeeFocus(page, name, "the Agent name field");
    await typeOver(page, agentName);
    await tabTo(page, page.getByLabel(AGENT_TEXT.businessDescriptionLabel, { exact: true }), "the Business description field");
    await page.keyboard.type("A family dental practice in Austin, open six days a week.");
    await tabTo(page, page.getByLabel(AGENT_TEXT.servicesLabel, { exact: true }), "the Services field");
    await page.keyboard.type("Cleanings, fillings, whitening and emergency visits.");
    await tabTo(page, page.getByLabel(AGENT_TEXT.pricingLabel, { exact: true }), "the Pricing information field");
    await page.keyboard.type("Cleaning $120, whitening $350.");
    await tabTo(page, page.getByLabel(AGENT_TEXT.documentsLabel, { exact: true }), "the Documents field");
    await page.keyboard.type("Cancellations need 24 hours' notice.");
    const next = page.getByRole("button", { name: AGENT_TEXT.next, exact: true });
    await tabToAndSeeFocus(page, next, "the Next button");
    check(await next.isEnabled(), "Next should be enabled once the three fields are typed in");
    await page.keyboard.press("Enter");

    // Step 2, then Save.
    const instructions = page.getByLabel(AGENT_TEXT.instructionsLabel, { exact: true });
    await tabTo(page, instructions, "the Agent instructions field");
    await page.keyboard.type("Greet callers warmly, answer questions about our services and book appointments.");
    await activate(page, page.getByRole("button", { name: AGENT_TEXT.save, exact: true }), "the Save button");
    await seeText(page, AGENT_TEXT.createdTitle);
    await page.getByRole("heading", { name: agentName }).waitFor();
    // The form gave way to the agent's card: focus moved on to the card, not to the page body.
    const edit = page.getByRole("button", { name: AGENT_TEXT.edit, exact: true });
    check(await becomesFocused(page, edit), `after Save, focus should move to the new card's Edit button; focus is on ${await describeFocus(page)}`);

    // Activate.
    await activate(page, page.getByRole("button", { name: AGENT_TEXT.activate, exact: true }), "the Activate button");
    await seeText(page, AGENT_TEXT.activated);
    // 'Activating' did not drop focus: the same button, now Deactivate, still has it.
    const deactivate = page.getByRole("button", { name: AGENT_TEXT.deactivate, exact: true });
    await deactivate.waitFor();
    check(await becomesFocused(page, deactivate), `after Activate, focus should stay on the button (now Deactivate); focus is on ${await describeFocus(page)}`);

    // Phone numbers: the tabs move with the arrow keys.
    await activate(page, sidebar.getByRole("link", { name: NAV_TEXT.phoneNumbers, exact: true }), "the sidebar's Phone numbers link", "Shift+Tab");
    await seePath(page, "/phone-numbers");
    const mineTab = page.getByRole("tab", { name: PHONE_TEXT.myNumbers, exact: true });
    await tabToAndSeeFocus(page, mineTab, "the 'My numbers' tab");
    await page.keyboard.press("ArrowRight");
    const buyTab = page.getByRole("tab", { name: PHONE_TEXT.buy, exact: true });
    check(await becomesFocused(page, buyTab), `ArrowRight should move to the '${PHONE_TEXT.buy}' tab; focus is on ${await describeFocus(page)}`);
    await page.keyboard.press("Enter");
    await page.locator(`[role="tab"][aria-selected="true"]`, { hasText: PHONE_TEXT.buy }).waitFor();

    const areaCode = page.getByLabel(PHONE_TEXT.areaCodeLabel, { exact: true });
    await tabToAndSeeFocus(page, areaCode, "the Area code field");
    await page.keyboard.type("512");
    const search = page.getByRole("button", { name: PHONE_TEXT.search, exact: true });
    await activate(page, search, "the 'Search numbers' button");
    const firstResult = page.getByRole("list", { name: PHONE_TEXT.availableNumbers }).getByRole("listitem").first();
    await firstResult.waitFor();
    const bought = (await firstResult.locator("p.font-medium").textContent())?.trim() ?? "";
    check(bought.startsWith("+1(512)"), `the first result should be in area code 512, got '${bought}'`);
    check(await becomesFocused(page, search), `searching should leave focus on 'Search numbers'; focus is on ${await describeFocus(page)}`);

    // Buy: the confirmation keeps focus inside, Escape closes it and gives focus back to its Buy button.
    const buyButton = firstResult.getByRole("button", { name: PHONE_TEXT.buyAction, exact: true });
    await tabToAndSeeFocus(page, buyButton, `the Buy button of ${bought}`);
    await page.keyboard.press("Enter");
    const confirm = page.getByRole("dialog", { name: PHONE_TEXT.confirmTitle });
    await confirm.waitFor();
    await checkFocusTrapped(page, confirm, "the purchase confirmation");
    await page.keyboard.press("Escape");
    await confirm.waitFor({ state: "hidden" });
    check(await becomesFocused(page, buyButton), `closing the confirmation should give focus back to its Buy button; focus is on ${await describeFocus(page)}`);

    // Again, this time confirming.
    await page.keyboard.press("Enter");
    await confirm.waitFor();
    await activate(page, confirm.getByRole("button", { name: PHONE_TEXT.confirmPurchase, exact: true }), "the 'Confirm purchase' button");
    const purchased = page.getByRole("dialog", { name: PHONE_TEXT.purchasedTitle });
    await purchased.waitFor();
    await checkFocusTrapped(page, purchased, "the 'Number purchased' dialog");
    const closeButton = purchased.getByRole("button", { name: PHONE_TEXT.close, exact: true }).first();
    await tabToAndSeeFocus(page, closeButton, "the purchased dialog's Close button");
    await page.keyboard.press("Enter");
    await purchased.waitFor({ state: "hidden" });
    // The bought number has left the results with its Buy button: focus moves on to the next one offered.
    const nextBuy = page.getByRole("list", { name: PHONE_TEXT.availableNumbers }).getByRole("button", { name: PHONE_TEXT.buyAction, exact: true }).first();
    await page.getByRole("list", { name: PHONE_TEXT.availableNumbers }).getByText(bought, { exact: true }).waitFor({ state: "detached" });
    check(
      await becomesFocused(page, nextBuy),
      `closing the purchased dialog should move focus to the next number's Buy button, not drop it; focus is on ${await describeFocus(page)}`,
    );

    // Back to Agents: the number picker opens with the keyboard and takes arrows and Enter.
    await activate(page, sidebar.getByRole("link", { name: NAV_TEXT.agents, exact: true }), "the sidebar's Agents link", "Shift+Tab");
    await seePath(page, "/agent-settings");
    const picker = page.getByRole("combobox", { name: AGENT_TEXT.numberFor(agentName) });
    await tabToAndSeeFocus(page, picker, `the '${AGENT_TEXT.numberFor(agentName)}' picker`);
    await page.keyboard.press("ArrowDown");
    const listbox = page.getByRole("listbox");
    await listbox.waitFor();
    const option = page.getByRole("option", { name: bought, exact: true });
    let picked = false;
    for (let i = 0; i < 20 && !picked; i += 1) {
      picked = await becomesFocused(page, option);
      if (!picked) await page.keyboard.press("ArrowDown");
    }
    check(picked, `the arrow keys should reach ${bought} in the number picker; focus is on ${await describeFocus(page)}`);
    await page.keyboard.press("Enter");
    await listbox.waitFor({ state: "hidden" });
    check(
      await becomesFocused(page, picker),
      `choosing a number should give focus back to the picker; focus is on ${await describeFocus(page)}`,
    );
    check((await picker.textContent())?.includes(bought), `the picker should show ${bought} once chosen`);
    await activate(page, page.getByRole("button", { name: AGENT_TEXT.assign, exact: true }), "the Assign button");
    await seeText(page, PHONE_TEXT.assignedTitle);
    // The picker and Assign gave way to Unassign, which takes the focus they had.
    const unassign = page.getByRole("button", { name: PHONE_TEXT.unassign, exact: true });
    await unassign.waitFor();
    check(await becomesFocused(page, unassign), `after Assign, focus should move to Unassign; focus is on ${await describeFocus(page)}`);

    // Dashboard: export the call report.
    await activate(page, sidebar.getByRole("link", { name: NAV_TEXT.dashboard, exact: true }), "the sidebar's Dashboard link", "Shift+Tab");
    await seePath(page, "/dashboard");
    const callLogs = page.getByRole("region", { name: DASHBOARD_TEXT.callLogs, exact: true });
    const exportButton = callLogs.getByRole("button", { name: DASHBOARD_TEXT.exportCsv, exact: true });
    await tabToAndSeeFocus(page, exportButton, "the Export CSV button");
    const downloading = page.waitForEvent("download");
    await page.keyboard.press("Enter");
    const download = await downloading;
    check(
      /^call-report-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/.test(download.suggestedFilename()),
      `the export should be saved as call-report-{start}-to-{end}.csv, is ${download.suggestedFilename()}`,
    );
    const text = (await readFile(await download.path(), "utf8")).replace(/^\uFEFF/, "");
    const header = text.split(/\r?\n/, 1)[0];
    check(header.includes(",") && !/^\d/.test(header), `the CSV should start with its header line, starts with ${JSON.stringify(header)}`);
  },
} satisfies Journey;
