// The live call feed in two browsers: the customer and the store staff each have /call-logs open and
// live. The customer places a test call from a second tab; on the first tab the call appears the
// moment it starts and then ends with its duration and summary, with no reload and no request for
// the call log. The staff user's list never shows it, and their socket never carries it.
import type { Page, WebSocket } from "playwright-core";
import { formatPhone } from "../shared/format.ts";
import { AGENT_TEXT, NAV_TEXT } from "../shared/messages.ts";
import { check, DEMO, seePath, seeText, signIn, type Journey } from "./harness.ts";

/** Opens /call-logs from the sidebar and waits until its feed is live. */
async function openLiveCallLogs(page: Page) {
  await page.getByRole("complementary").getByRole("link", { name: NAV_TEXT.callLogs }).click();
  await seePath(page, "/call-logs");
  await page.locator('[role="status"][data-status="live"]').waitFor({ timeout: 15_000 });
}

/** Every text frame the page's live sockets receive. */
function recordFrames(page: Page) {
  const frames: string[] = [];
  page.on("websocket", (ws: WebSocket) => {
    if (!new URL(ws.url()).pathname.startsWith("/api/live")) return;
    ws.on("framereceived", (f) => frames.push(typeof f.payload === "string" ? f.payload : f.payload.toString("utf8")));
  });
  return frames;
}

export default {
  name: "A call appears and ends live on the caller's /call-logs, and never on another account's",
  timeoutMs: 150_000,
  async run({ page, context, baseUrl }) {
    const dialed = `+1512555${String(Date.now() % 10_000).padStart(4, "0")}`;
    const shown = formatPhone(dialed);

    // User B: the store staff, another account, on /call-logs in a browser of their own.
    const browser = context.browser();
    check(browser, "the journey needs its browser to open a second user's context");
    const other = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } });
    // Two browsers and a simulated call on a shared machine: steps get more time than the default.
    context.setDefaultTimeout(30_000);
    other.setDefaultTimeout(30_000);
    try {
      const staff = await other.newPage();
      const staffFrames = recordFrames(staff);
      await signIn(staff, DEMO.staff);
      await openLiveCallLogs(staff);

      // User A: the customer, on /call-logs and live.
      await signIn(page, DEMO.customer);
      await openLiveCallLogs(page);
      // A reload would drop this mark; the call log is not asked for again while the call goes on.
      await page.evaluate(() => ((window as unknown as { liveMark: number }).liveMark = 1));
      const logRequests: string[] = [];
      page.on("request", (r) => {
        const url = new URL(r.url());
        if (url.pathname === "/api/call-logs") logRequests.push(url.search);
      });

      // The test call, placed from a second tab of the same browser.
      const agents = await context.newPage();
      await agents.goto("/agent-settings");
      await agents.getByLabel(AGENT_TEXT.testCallNumberLabel, { exact: true }).fill(dialed);
      await agents.getByRole("button", { name: AGENT_TEXT.testCallButton, exact: true }).click();
      await seeText(agents, AGENT_TEXT.testCallStarted);

      // On the first tab: the call appears while it is still going on, then ends with its report.
      await page.bringToFront();
      const row = page.getByRole("row").filter({ hasText: shown });
      await row.first().waitFor({ timeout: 15_000 });
      const early = (await row.first().textContent()) ?? "";
      check(!/ended|completed/.test(early), `the call should appear before it ends, got '${early}'`);
      await row.filter({ hasText: /ended|completed/ }).first().waitFor({ timeout: 30_000 });
      check((await row.count()) === 1, `the call should be listed once, found ${await row.count()} rows`);
      const ended = (await row.first().textContent()) ?? "";
      const duration = ended.match(/(\d+)m (\d+)s/);
      check(duration && Number(duration[1]) * 60 + Number(duration[2]) > 0, `the ended call should show its duration, got '${ended}'`);
      const summaryCell = row.first().locator("td").nth(4);
      check(((await summaryCell.textContent()) ?? "").trim().length > 0, "the ended call should show its summary");
      check((await page.evaluate(() => (window as unknown as { liveMark?: number }).liveMark)) === 1, "the page should not have reloaded");
      check(logRequests.length === 0, `the call log should not be asked for while the call goes on, got ${logRequests.join(", ")}`);
      // The test call panel followed the same call to its end.
      await agents.getByTestId("latest-test-call").getByText(/^(completed|ended)$/).waitFor({ timeout: 15_000 });

      // User B: still live, and the call is neither listed nor carried by their socket.
      await staff.locator('[role="status"][data-status="live"]').waitFor();
      check((await staff.getByRole("row").filter({ hasText: shown }).count()) === 0, "another account should not see the call");
      const digits = dialed.slice(1);
      check(!staffFrames.some((f) => f.includes(digits)), "another account's socket should not carry the call");
      check(staffFrames.some((f) => f.includes('"ready"')), "the other account's feed should have gone live");
    } finally {
      await other.close();
    }
  },
} satisfies Journey;
