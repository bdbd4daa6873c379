// Accessibility checks shared by journeys: axe-core's rules in the real page, serious and critical
// violations fail; every screen has exactly one h1.
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";

export const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;

export type AxeFinding = { screen: string; width: string; rule: string; impact: string; targets: string[] };

/** Waits for the screen to settle (no request in flight, no loading placeholder) before it is checked. */
export async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.locator("[aria-busy='true']").first().waitFor({ state: "detached", timeout: 10_000 }).catch(() => {});
  await page.waitForTimeout(150);
}

/** The serious and critical axe violations of the page as it stands, plus a missing or doubled h1. */
export async function audit(page: Page, screen: string, width: string): Promise<AxeFinding[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  const findings: AxeFinding[] = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ screen, width, rule: v.id, impact: v.impact ?? "", targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
  const h1s = await page.locator("h1").filter({ visible: true }).count();
  if (h1s !== 1) findings.push({ screen, width, rule: "one-h1", impact: "serious", targets: [`${h1s} visible h1 elements`] });
  return findings;
}

export function report(findings: AxeFinding[]) {
  return findings.map((f) => `${f.screen} @${f.width}: ${f.rule} (${f.impact}) ${f.targets.join(" | ")}`).join("\n");
}
