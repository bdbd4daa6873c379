// axe-core on every screen, signed out and as customer, staff and admin, at phone and
// desktop widths: no serious or critical violation, one h1 each. Every route file of the SPA must be
// listed here, so a new screen cannot escape the check.
import { readdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { NAV_TEXT } from "../shared/messages.ts";
import { audit, report, settle, WIDTHS, type AxeFinding } from "./axe.ts";
import { DEMO, signIn, type Journey } from "./harness.ts";

type Audience = "signed out" | "customer" | "staff" | "admin";

/** Screen → the path visited, per audience that can open it. */
const SCREENS: Record<Audience, string[]> = {
  "signed out": [
    "/auth",
    "/auth?login=1",
    "/auth?tab=register",
    "/buy?email=new.visitor@example.test",
    "/checkout",
    "/payments/success",
    "/payments/cancel",
    "/activate-account",
    "/reset-password",
    "/mailbox",
    "/webhook-inbox",
    "/no-such-page",
  ],
  customer: ["/dashboard", "/agent-settings", "/call-logs", "/phone-numbers", "/settings", "/payments", "/alerts"],
  staff: ["/dashboard", "/analytics", "/daily-report", "/alerts"],
  admin: ["/admin"],
};

/** Route files that are not screens of their own (layouts, redirects). */
const NOT_SCREENS = new Set(["__root", "_app", "index"]);

function routeFiles(): string[] {
  const dir = path.join(import.meta.dirname, "..", "web", "src", "routes");
  const walk = (d: string, prefix: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(d, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name.replace(/\.tsx$/, "")}`],
    );
  return walk(dir, "").filter((f) => !f.includes(".test"));
}

/** The screen path a route file serves: `_app/call-logs` → /call-logs, `payments.cancel` → /payments/cancel. */
const screenOf = (file: string) => `/${file.replace(/^_app\//, "").replace(/\./g, "/")}`;

const accounts: Record<Exclude<Audience, "signed out">, string> = { customer: DEMO.customer, staff: DEMO.staff, admin: DEMO.admin };

/**
 * The phone's navigation drawer, open (its code loads when the page is idle, decision 037): axe on
 * it, then Escape closes it and gives focus back to the menu button.
 */
async function auditMenu(page: Page, width: string): Promise<AxeFinding[]> {
  const menu = page.getByRole("button", { name: NAV_TEXT.openMenu });
  await menu.focus();
  await page.keyboard.press("Enter");
  await page.getByRole("dialog", { name: NAV_TEXT.mainNavigation }).getByRole("link", { name: NAV_TEXT.agents }).waitFor();
  const findings = await audit(page, "customer menu drawer", width);
  await page.keyboard.press("Escape");
  await page.getByRole("dialog").waitFor({ state: "detached" });
  const focused = await menu.evaluate((el) => el === document.activeElement);
  if (!focused) throw new Error("closing the menu drawer should give focus back to the menu button");
  return findings;
}

async function auditAudience(browser: Browser, baseUrl: string, audience: Audience): Promise<AxeFinding[]> {
  const findings: AxeFinding[] = [];
  for (const [width, viewport] of Object.entries(WIDTHS)) {
    const context = await browser.newContext({ baseURL: baseUrl, viewport });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    try {
      if (audience !== "signed out") await signIn(page, accounts[audience]);
      for (const screen of SCREENS[audience]) {
        try {
          await page.goto(screen);
          await settle(page);
          findings.push(...(await audit(page, `${audience} ${screen}`, width)));
          if (audience === "customer" && screen === "/dashboard" && viewport.width < 768) findings.push(...(await auditMenu(page, width)));
        } catch (e) {
          throw new Error(`${audience} ${screen} @${width}: ${(e as Error).message}`);
        }
      }
    } finally {
      await context.close();
    }
  }
  return findings;
}

export default {
  name: "Every screen passes axe (no serious or critical violation, one h1) at phone and desktop widths",
  timeoutMs: 300_000,
  async run({ context, baseUrl }) {
    const listed = new Set(Object.values(SCREENS).flat().map((p) => p.split("?")[0]));
    const missing = routeFiles()
      .filter((f) => !NOT_SCREENS.has(f))
      .map(screenOf)
      .filter((p) => !listed.has(p));
    if (missing.length) throw new Error(`screens without an accessibility check: ${missing.join(", ")}`);

    const browser = context.browser();
    if (!browser) throw new Error("no browser behind the journey's context");
    const findings: AxeFinding[] = [];
    for (const audience of Object.keys(SCREENS) as Audience[]) findings.push(...(await auditAudience(browser, baseUrl, audience)));
    if (findings.length) throw new Error(`${findings.length} accessibility violations:\n${report(findings)}`);
  },
} satisfies Journey;
