// API access (docs/product/api-access.md): a Pro customer creates a key on Settings → API access,
// sees its secret once, calls /v1/counts and /v1/calls with it from outside the browser and gets the
// dashboard's own Call Logs total for the same days; the reference page loads under its own CSP;
// revoking the key on the screen makes the next call answer 401.
import type { Page } from "playwright-core";
import { API_ACCESS_TEXT, DASHBOARD_TEXT } from "../shared/messages.ts";
import { addDays, nyToday } from "../shared/ny-time.ts";
import { check, DEMO, seeText, signIn, type Journey } from "./harness.ts";

const section = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

export default {
  name: "API access: create a key, call /v1 with it, see the dashboard's count, revoke it",
  timeoutMs: 120_000,
  async run({ page, baseUrl }) {
    await signIn(page, DEMO.customer);

    // The dashboard's Call Logs total over the seeded range, all call types.
    const end = nyToday();
    const start = addDays(end, -90);
    const controls = page.getByRole("form", { name: DASHBOARD_TEXT.refreshAll });
    await controls.getByLabel(DASHBOARD_TEXT.startDate, { exact: true }).fill(start);
    await controls.getByLabel(DASHBOARD_TEXT.endDate, { exact: true }).fill(end);
    await section(page, DASHBOARD_TEXT.callLogs).getByLabel(DASHBOARD_TEXT.callType, { exact: true }).selectOption("Both");
    await controls.getByRole("button", { name: DASHBOARD_TEXT.refreshAll }).click();
    await section(page, DASHBOARD_TEXT.callLogs).getByText(`${start} to ${end}`, { exact: false }).waitFor();
    const figure = section(page, DASHBOARD_TEXT.callLogs).getByLabel(DASHBOARD_TEXT.callLogs, { exact: true }).locator("dd").first();
    await figure.waitFor();
    await page.waitForFunction((el) => /\d/.test(el?.textContent ?? ""), await figure.elementHandle());
    const dashboardTotal = Number(((await figure.textContent()) ?? "").replaceAll(",", ""));
    check(dashboardTotal > 0, `the dashboard shows calls for ${start}..${end}: ${dashboardTotal}`);

    // Settings → API access: create a key with the default scopes; its secret is shown once.
    await page.goto("/settings");
    await seeText(page, API_ACCESS_TEXT.section);
    const name = `Journey ${Date.now().toString(36)}`;
    await page.getByLabel(API_ACCESS_TEXT.nameLabel, { exact: true }).fill(name);
    await page.getByRole("button", { name: API_ACCESS_TEXT.create, exact: true }).click();
    await seeText(page, API_ACCESS_TEXT.secretOnce);
    const secret = ((await page.getByTestId("api-key-secret").textContent()) ?? "").trim();
    check(/^vao_test_[0-9A-Za-z]{40}$/.test(secret), `a vao_test_ key is shown: ${secret.slice(0, 12)}…`);
    await page.getByRole("row").filter({ hasText: name }).waitFor();
    check((await page.getByRole("row").filter({ hasText: name }).textContent())?.includes(secret.slice(0, 13)), "the list shows the key's prefix");
    await page.getByRole("button", { name: API_ACCESS_TEXT.done, exact: true }).click();
    check((await page.getByText(secret).count()) === 0, "the secret is gone once dismissed");

    // The same count through the public API, from outside the browser.
    const headers = { authorization: `Bearer ${secret}` };
    const counts = await fetch(`${baseUrl}/v1/counts?start_date=${start}&end_date=${end}&direction=both`, { headers });
    check(counts.status === 200, `GET /v1/counts answered ${counts.status}`);
    check(counts.headers.get("ratelimit-limit") === "120", "RateLimit-Limit on the answer");
    const body = (await counts.json()) as { total: number };
    check(body.total === dashboardTotal, `the API's total ${body.total} equals the dashboard's ${dashboardTotal}`);
    const calls = await fetch(`${baseUrl}/v1/calls?limit=5`, { headers });
    const page1 = (await calls.json()) as { data: { id: string; started_at: string }[]; next_cursor: string | null };
    check(calls.status === 200 && page1.data.length === 5 && page1.next_cursor !== null, `GET /v1/calls gives a page of 5 and a cursor (${calls.status})`);

    // The reference page, linked from the section, loads under its own policy with no CSP violation.
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    const docsHref = await page.getByRole("link", { name: API_ACCESS_TEXT.reference }).getAttribute("href");
    check(docsHref === "/v1/docs", `the reference link: ${docsHref}`);
    const docs = await page.goto("/v1/docs");
    check(docs?.status() === 200, `GET /v1/docs answered ${docs?.status()}`);
    const csp = docs.headers()["content-security-policy"] ?? "";
    check(/script-src 'self' https:\/\/cdn\.jsdelivr\.net 'sha256-/.test(csp), `the page's own policy: ${csp}`);
    await page.waitForLoadState("load");
    check(violations.length === 0, `no CSP violation on /v1/docs: ${violations.join(" | ")}`);
    // Where the viewer's CDN cannot be reached (blocked here), the page says so and links the document.
    await page.route("https://cdn.jsdelivr.net/**", (route) => route.abort());
    await page.goto("/v1/docs");
    await page.locator("#reference-offline").waitFor({ state: "visible" });
    check((await page.locator("#reference-offline a").getAttribute("href")) === "/v1/openapi.json", "the note links the OpenAPI document");
    check(violations.length === 0, `no CSP violation on /v1/docs without its viewer: ${violations.join(" | ")}`);

    // Revoke on the screen: the next call with the key is refused.
    await page.goto("/settings");
    await page.getByRole("button", { name: `${API_ACCESS_TEXT.revoke} ${name}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: API_ACCESS_TEXT.revoke, exact: true }).click();
    await seeText(page, API_ACCESS_TEXT.revoked);
    const after = await fetch(`${baseUrl}/v1/counts?start_date=${start}&end_date=${end}`, { headers });
    check(after.status === 401, `a revoked key answers 401, got ${after.status}`);
  },
} satisfies Journey;
