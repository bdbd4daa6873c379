// A signed-in first load of /dashboard (decisions 062 and 064): the sections' first figures come in one
// POST /api/batch, and they are the figures each section's own request gives (Refresh All Sections
// asks for each alone). The dashboard reached by an in-app sign-in sends the same first requests as
// a reload of it.
import type { Page, Request } from "playwright-core";
import { AUTH_TEXT, DASHBOARD_TEXT } from "../shared/messages.ts";
import { check, DEMO, seePath, type Journey } from "./harness.ts";

const section = (page: Page, name: string) => page.getByRole("region", { name, exact: true });

/** Every section in the page, none loading (aria-busy) and none showing its error. */
async function allShown(page: Page) {
  await section(page, DASHBOARD_TEXT.aircall).waitFor();
  await page.waitForFunction(
    () => document.querySelectorAll('main section [aria-busy="true"]:not(button)').length === 0 && document.querySelectorAll('main section [role="alert"]').length === 0,
  );
}

/** Call Logs' four figures as the page shows them. */
async function callLogFigures(page: Page) {
  const list = section(page, DASHBOARD_TEXT.callLogs).getByLabel(DASHBOARD_TEXT.callLogs, { exact: true });
  return list.locator("dd").allTextContents();
}

// The section reads of the first render; the live feed's ticket, the profile and the lists the feed reads
// again when it connects (decision 063) are not among them.
const SECTION_READ = /^\/api\/(call-logs\/count|call-connected-count|voicemail-count|forwarded-count|call-volume|daily-reports|appointment-|lead-counts|aircall\/|store-funnel|agents$)/;

// The four Call Logs counts, in the order the section shows them.
const CALL_LOG_COUNTS = ["/api/call-logs/count", "/api/call-connected-count", "/api/voicemail-count", "/api/forwarded-count"];

type Carried = { status: number; body: string };
const withoutRequestId = (text: string) => {
  const { requestId: _, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return JSON.stringify(rest);
};

export default {
  name: "Dashboard first load: the sections' figures come in one batch request, each as its own request answers",
  async run({ page }) {
    const sent: { path: string; method: string; body: string | null }[] = [];
    const onRequest = (req: Request) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith("/api/")) sent.push({ path: url.pathname, method: req.method(), body: req.postData() });
    };
    /** The first render's reads: each section read sent alone, and the reads each batch carried. */
    const firstReads = (list: typeof sent) => ({
      alone: list.filter((r) => SECTION_READ.test(r.path)).map((r) => r.path),
      batched: list.filter((r) => r.path === "/api/batch").map((r) => (JSON.parse(r.body ?? "{}") as { requests?: string[] }).requests ?? []),
    });

    // The dashboard reached by signing in inside the app, from the click on.
    await page.goto("/auth?login=1");
    const form = page.getByRole("form", { name: AUTH_TEXT.signInTab });
    await form.getByLabel(AUTH_TEXT.emailLabel, { exact: true }).fill(DEMO.staff);
    await form.getByLabel(AUTH_TEXT.passwordLabel, { exact: true }).fill(DEMO.password);
    page.on("request", onRequest);
    await form.getByRole("button", { name: AUTH_TEXT.signInButton, exact: true }).click();
    await seePath(page, "/dashboard");
    await allShown(page);
    page.off("request", onRequest);
    const afterSignIn = firstReads(sent.splice(0));

    page.on("request", onRequest);
    const batchAnswer = page.waitForResponse((res) => new URL(res.url()).pathname === "/api/batch");
    await page.reload();
    await allShown(page);
    page.off("request", onRequest);

    // The same first requests however the dashboard is reached: one batch carrying the same reads.
    const afterReload = firstReads(sent);
    check(
      JSON.stringify(afterSignIn) === JSON.stringify(afterReload),
      `an in-app sign-in should ask for the first figures as a reload does (${JSON.stringify(afterReload)}), asked ${JSON.stringify(afterSignIn)}`,
    );

    const batches = sent.filter((r) => r.path === "/api/batch");
    check(batches.length === 1 && batches[0].method === "POST", `the first load should send one POST /api/batch, sent ${JSON.stringify(sent.map((r) => `${r.method} ${r.path}`))}`);
    const alone = sent.filter((r) => SECTION_READ.test(r.path));
    check(alone.length === 0, `no section should ask for its first figures alone, but ${alone.map((r) => r.path).join(", ")} did`);

    // Each carried read answers as the same read sent alone, with the same token.
    const res = await batchAnswer;
    const authorization = (await res.request().headerValue("authorization")) ?? "";
    const { requests } = JSON.parse(res.request().postData() ?? "{}") as { requests: string[] };
    const { responses } = (await res.json()) as { responses: Carried[] };
    check(requests.length >= 15 && responses.length === requests.length, `the batch should carry the sections' reads, carried ${requests.length}`);
    for (const [i, path] of requests.entries()) {
      const own = await page.request.get(path, { headers: { authorization } });
      const ownBody = withoutRequestId(await own.text());
      check(
        own.status() === responses[i].status && ownBody === withoutRequestId(responses[i].body),
        `${path}: carried ${responses[i].status} ${responses[i].body}, alone ${own.status()} ${ownBody}`,
      );
    }

    // And the Call Logs section shows the carried counts.
    const shown = (await callLogFigures(page)).map((t) => Number(t.replaceAll(",", "")));
    const carried = CALL_LOG_COUNTS.map((countPath) => {
      const i = requests.findIndex((p) => new URL(p, "http://x").pathname === countPath);
      check(i >= 0 && responses[i].status === 200, `the batch should carry ${countPath}`);
      const body = JSON.parse(responses[i].body) as { total?: number; count?: number };
      return body.total ?? body.count;
    });
    check(JSON.stringify(shown) === JSON.stringify(carried), `Call Logs should show the carried counts ${carried.join(", ")}, shows ${shown.join(", ")}`);
  },
} satisfies Journey;
