import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { APPOINTMENT_CATEGORY_KEYS, STORE_NUMBER_NAMES } from "@shared/constants";
import { DASHBOARD_TEXT, INSIGHTS_TEXT, PLAN_TEXT } from "@shared/messages";
import type { CurrentUserView } from "@shared/schemas/auth";
import { resetToasts, toast } from "@web/lib/toast-store";
import { createQueryClient } from "@web/lib/query-client";
import { DashboardPage } from "./dashboard-page";

// uPlot draws on a canvas, which happy-dom has not: the lazily loaded chart is a stand-in here (the
// browser journey draws the real one).
vi.mock("./call-volume-chart", () => ({ default: ({ days }: { days: unknown[] }) => <div data-testid="call-volume-chart">{days.length} days</div> }));

vi.mock("@web/lib/toast-store", async (orig) => {
  const real = await orig<typeof import("@web/lib/toast-store")>();
  return { ...real, toast: vi.fn(real.toast) };
});

// 15:00 UTC on 11 March 2026 is 11:00 in New York: today 2026-03-11, yesterday 2026-03-10.
const NOW = new Date("2026-03-11T15:00:00Z");

const user = (flags: Partial<CurrentUserView> = {}): CurrentUserView => ({
  id: "u1",
  email: "staff@store.example",
  username: "staff",
  company: "Stores",
  first_name: null,
  last_name: null,
  is_admin: false,
  shopwindows_info: true,
  call_app: true,
  ...flags,
});

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
const fail = () => new Response("boom", { status: 500, statusText: "Internal Server Error" });

const agents = [
  { id: 1, name: "Tyler outbound", vapi_assistant_id: "asst-1", store: "TYLER", type: "Outbound" },
  { id: 2, name: "Not on the platform", vapi_assistant_id: null, store: "TYLER", type: "Outbound" },
  { id: 3, name: "No store", vapi_assistant_id: "asst-3", store: null, type: "Outbound" },
  { id: 4, name: "No type", vapi_assistant_id: "asst-4", store: "OKC", type: null },
];

type Handler = (url: URL) => Response | Promise<Response> | undefined;

function stubApi(override: Handler = () => undefined) {
  const fetchMock = vi.fn(async (input: string) => {
    const url = new URL(input, "http://x");
    const custom = await override(url);
    if (custom) return custom;
    switch (url.pathname) {
      case "/api/agents":
        return json({ agents });
      case "/api/call-logs/count":
        return json({ total: 12345 });
      case "/api/call-connected-count":
        return json({ count: 2001 });
      case "/api/voicemail-count":
        return json({ count: 3 });
      case "/api/forwarded-count":
        return json({ count: 4 });
      case "/api/appointment-options":
        return json({ stores: ["TYLER"], bookedBy: ["Ann"], types: ["Virtual"] });
      case "/api/appointment-count":
        return json({ count: 1500 });
      case "/api/appointment-status-count":
        return json({ counts: { Scheduled: 7, Sold: 2 } });
      case "/api/appointment-category-count":
        return json({ counts: Object.fromEntries(APPOINTMENT_CATEGORY_KEYS.map((k, i) => [k, i + 1])) });
      case "/api/lead-counts/summary":
        return json({ totalSubmissions: 4321, byStore: { TYLER: 4000, OKC: 321 } });
      case "/api/usage-stats":
        return json({ callsThisMonth: 0, minutesThisMonth: 0, minuteLimit: 5000, agents: 0, agentLimit: 25, numbers: 0, numberLimit: 9, plan: "pro", planState: "subscribed", planRequired: false });
      case "/api/aircall/options":
        return json({ users: ["Bob"], numbers: ["Main"] });
      case "/api/aircall/call-count":
        return json({ count: url.searchParams.get("direction") === "inbound" ? 1111 : 2222 });
      case "/api/aircall/outbound-answered-count":
        return json({ count: 333 });
      case "/api/aircall/store-transfer-solutions-count":
        return json({ count: 44 });
      case "/api/daily-reports":
        return json({ reports: [] });
      case "/api/call-volume":
        return json({
          days: [
            { date: "2026-03-01", inbound: { total: 1200, connected: 900, voicemail: 100, forwarded: 50, cost: 12.5 }, outbound: { total: 300, connected: 200, voicemail: 40, forwarded: 0, cost: 4.25 } },
            { date: "2026-03-02", inbound: { total: 0, connected: 0, voicemail: 0, forwarded: 0, cost: 0 }, outbound: { total: 0, connected: 0, voicemail: 0, forwarded: 0, cost: 0 } },
          ],
          totals: { calls: 1500, cost: 16.75, costPerCall: 0.011167 },
        });
      case "/api/store-funnel":
        return json({
          stores: [
            { store: "TYLER", aiCalls: 2000, cost: 30, costPerCall: 0.015, inboundBooked: 150, outboundBooked: 50, visited: 120, sold: 60 },
            { store: "OKC", aiCalls: 0, cost: 0, costPerCall: null, inboundBooked: 0, outboundBooked: 0, visited: 0, sold: 0 },
          ],
          unassigned: { aiCalls: 7, cost: 0.5 },
        });
      default:
        return new Response("not found", { status: 404 });
    }
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const urls = (fetchMock: ReturnType<typeof stubApi>) => fetchMock.mock.calls.map(([u]) => String(u));

const renderPage = (flags?: Partial<CurrentUserView>) =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <DashboardPage user={user(flags)} now={NOW} />
    </QueryClientProvider>,
  );

const topStore = () => within(screen.getByRole("form", { name: DASHBOARD_TEXT.refreshAll })).getByLabelText(DASHBOARD_TEXT.store);
const section = (name: string) => screen.getByRole("region", { name });

beforeEach(() => {
  resetToasts();
  vi.mocked(toast).mockClear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("DashboardPage", () => {
  it("shows every section, in order, to a user with both flags, with counts and separators", async () => {
    stubApi();
    renderPage();
    const headings = screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual([DASHBOARD_TEXT.callLogs, DASHBOARD_TEXT.dailyReport, DASHBOARD_TEXT.appointments, DASHBOARD_TEXT.leads, DASHBOARD_TEXT.aircall, INSIGHTS_TEXT.storeFunnel]);
    expect(await within(section(DASHBOARD_TEXT.callLogs)).findByText("12,345")).toBeTruthy();
    expect(within(section(DASHBOARD_TEXT.callLogs)).getByText("2,001")).toBeTruthy();
    expect(await within(section(DASHBOARD_TEXT.appointments)).findByText("1,500")).toBeTruthy();
    const categories = within(section(DASHBOARD_TEXT.appointments)).getByLabelText(DASHBOARD_TEXT.byCategory);
    expect([...categories.querySelectorAll("dt")].map((t) => t.textContent)).toEqual([...APPOINTMENT_CATEGORY_KEYS]);
    expect([...categories.querySelectorAll("dd")].map((t) => t.textContent)).toEqual(APPOINTMENT_CATEGORY_KEYS.map((_, i) => String(i + 1)));
    expect(await within(section(DASHBOARD_TEXT.leads)).findByText("4,321")).toBeTruthy();
    expect(await within(section(DASHBOARD_TEXT.aircall)).findByText("1,111")).toBeTruthy();
    expect(within(section(DASHBOARD_TEXT.aircall)).getByText("2,222")).toBeTruthy();
    expect(await within(section(DASHBOARD_TEXT.dailyReport)).findByText(DASHBOARD_TEXT.noReports)).toBeTruthy();
  });

  it("shows the daily call volume as a chart with its table and the call cost, with the Call Logs filters", async () => {
    const fetchMock = stubApi();
    // The chart loads when it comes near the screen: here, at once.
    vi.stubGlobal(
      "IntersectionObserver",
      class {
        constructor(private readonly report: IntersectionObserverCallback) {}
        observe(target: Element) {
          this.report([{ isIntersecting: true, target } as unknown as IntersectionObserverEntry], this as unknown as IntersectionObserver);
        }
        disconnect() {}
      },
    );
    renderPage();
    const calls = section(DASHBOARD_TEXT.callLogs);
    expect(await within(calls).findByTestId("call-volume-chart")).toBeTruthy();
    expect(urls(fetchMock)).toContain("/api/call-volume?dateFilterType=range&startDate=2026-03-11&endDate=2026-03-11&callType=Outbound");
    const cost = within(calls).getByLabelText(INSIGHTS_TEXT.cost);
    expect([...cost.querySelectorAll("dd")].map((d) => d.textContent)).toEqual(["$16.75", "$0.0112"]);
    // The table is in the page for screen readers from the start, shown on request.
    const table = within(calls).getByRole("table", { name: INSIGHTS_TEXT.callVolume });
    const rows = within(table).getAllByRole("row").map((r) => [...r.querySelectorAll("th, td")].map((c) => c.textContent));
    expect(rows[1]).toEqual(["2026-03-01", "1,200", "300", "1,100", "140", "50", "$16.75"]);
    const toggle = within(calls).getByRole("button", { name: INSIGHTS_TEXT.showTable });
    const panel = document.getElementById(toggle.getAttribute("aria-controls")!)!;
    expect(panel.contains(table)).toBe(true);
    expect(panel.className).toContain("sr-only");
    fireEvent.click(toggle);
    expect(panel.className).not.toContain("sr-only");
    expect(within(calls).getByRole("button", { name: INSIGHTS_TEXT.hideTable }).getAttribute("aria-expanded")).toBe("true");
  });

  it("shows each store's funnel with conversion rates and cost, on the report dates", async () => {
    const fetchMock = stubApi();
    renderPage();
    const funnel = section(INSIGHTS_TEXT.storeFunnel);
    const table = await within(funnel).findByRole("table");
    const rows = within(table).getAllByRole("row").map((r) => [...r.querySelectorAll("th, td")].map((c) => c.textContent));
    expect(rows[1]).toEqual(["TYLER", "2,000", "150", "50", "120", "60", "10%", "30%", "$30.00", "$0.0150"]);
    expect(rows[2]).toEqual(["OKC", "0", "0", "0", "0", "0", "-", "-", "$0.00", "-"]);
    expect(within(funnel).getByText(`${INSIGHTS_TEXT.unassigned}: 7 · $0.50`)).toBeTruthy();
    expect(urls(fetchMock)).toContain("/api/store-funnel?dateFilterType=range&startDate=2026-03-10&endDate=2026-03-10");
  });

  it("shows only Call Logs to a user without flags, and asks for nothing else", async () => {
    const fetchMock = stubApi();
    renderPage({ shopwindows_info: false, call_app: false });
    expect(screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent)).toEqual([DASHBOARD_TEXT.callLogs]);
    await screen.findByText("12,345");
    expect(urls(fetchMock).filter((u) => /appointment|lead|aircall|daily|funnel/.test(u))).toEqual([]);
  });

  it("defaults Call Logs to today and the report sections to yesterday (New York), Outbound calls", async () => {
    const fetchMock = stubApi();
    renderPage();
    await screen.findByText("12,345");
    expect(urls(fetchMock)).toContain("/api/call-logs/count?dateFilterType=range&startDate=2026-03-11&endDate=2026-03-11&callType=Outbound");
    expect(urls(fetchMock)).toContain("/api/lead-counts/summary?dateFilterType=range&startDate=2026-03-10&endDate=2026-03-10");
    expect(within(section(DASHBOARD_TEXT.callLogs)).getByText("2026-03-11")).toBeTruthy();
    expect(within(section(DASHBOARD_TEXT.leads)).getByText(/2026-03-10/)).toBeTruthy();
  });

  it("changing the dates or store loads nothing; Refresh All Sections loads every section with them", async () => {
    const fetchMock = stubApi();
    renderPage();
    await screen.findByText("12,345");
    await screen.findByText("4,321");
    await screen.findByText("1,111");
    const before = fetchMock.mock.calls.length;
    fireEvent.change(screen.getByLabelText(DASHBOARD_TEXT.startDate), { target: { value: "2026-03-01" } });
    fireEvent.change(screen.getByLabelText(DASHBOARD_TEXT.endDate), { target: { value: "2026-03-05" } });
    fireEvent.change(topStore(), { target: { value: "TYLER" } });
    await new Promise((r) => setTimeout(r, 20));
    expect(fetchMock.mock.calls.length).toBe(before);
    expect(within(section(DASHBOARD_TEXT.leads)).queryByText(/2026-03-01/)).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: DASHBOARD_TEXT.refreshAll }));
    await waitFor(() =>
      expect(urls(fetchMock)).toContain("/api/call-logs/count?dateFilterType=range&startDate=2026-03-01&endDate=2026-03-05&callType=Outbound"),
    );
    await waitFor(() => expect(urls(fetchMock)).toContain("/api/lead-counts/summary?dateFilterType=range&startDate=2026-03-01&endDate=2026-03-05&store=TYLER"));
    expect(urls(fetchMock)).toContain("/api/aircall/call-count?dateFilterType=range&startDate=2026-03-01&endDate=2026-03-05&store=TYLER&direction=inbound");
    expect(urls(fetchMock)).toContain("/api/appointment-count?dateFilterType=range&startDate=2026-03-01&endDate=2026-03-05&store=TYLER");
    expect(within(section(DASHBOARD_TEXT.callLogs)).getByText("2026-03-01 to 2026-03-05")).toBeTruthy();
    expect(within(section(DASHBOARD_TEXT.leads)).getByText("2026-03-01 to 2026-03-05 · TYLER")).toBeTruthy();
  });

  it("applies the chosen store to Aircall Counts too, and every section it filters names it in its header", async () => {
    const fetchMock = stubApi();
    renderPage();
    await screen.findByText("1,111");
    // Before a store is chosen, every section the choice filters says it shows all stores.
    for (const name of [DASHBOARD_TEXT.dailyReport, DASHBOARD_TEXT.appointments, DASHBOARD_TEXT.leads, DASHBOARD_TEXT.aircall]) {
      expect(within(section(name)).getByText(`2026-03-10 · ${DASHBOARD_TEXT.allStores}`)).toBeTruthy();
    }
    fireEvent.change(topStore(), { target: { value: "NAPLES" } });
    fireEvent.click(screen.getByRole("button", { name: DASHBOARD_TEXT.refreshAll }));
    await waitFor(() => expect(urls(fetchMock)).toContain("/api/aircall/call-count?dateFilterType=range&startDate=2026-03-10&endDate=2026-03-10&store=NAPLES&direction=inbound"));
    for (const path of ["outbound-answered-count", "store-transfer-solutions-count"]) {
      expect(urls(fetchMock)).toContain(`/api/aircall/${path}?dateFilterType=range&startDate=2026-03-10&endDate=2026-03-10&store=NAPLES`);
    }
    expect(urls(fetchMock)).toContain("/api/aircall/call-count?dateFilterType=range&startDate=2026-03-10&endDate=2026-03-10&store=NAPLES&direction=outbound");
    for (const name of [DASHBOARD_TEXT.dailyReport, DASHBOARD_TEXT.appointments, DASHBOARD_TEXT.leads, DASHBOARD_TEXT.aircall]) {
      expect(within(section(name)).getByText("2026-03-10 · NAPLES")).toBeTruthy();
    }
    // Call Logs are the account's own calls, not a store's: no store in its header.
    expect(within(section(DASHBOARD_TEXT.callLogs)).getByTestId("call-logs-range").textContent).toBe("2026-03-10");

    // The section's own line, once chosen, is what it shows and asks for.
    fireEvent.change(within(section(DASHBOARD_TEXT.aircall)).getByLabelText(DASHBOARD_TEXT.numberName), { target: { value: "Main" } });
    await waitFor(() => expect(urls(fetchMock)).toContain("/api/aircall/outbound-answered-count?dateFilterType=range&startDate=2026-03-10&endDate=2026-03-10&numberName=Main"));
    expect(within(section(DASHBOARD_TEXT.aircall)).getByText("2026-03-10 · Main")).toBeTruthy();
  });

  it("a section's own store and line selects show what the section counts: the top store once applied, All only when all are counted", async () => {
    const fetchMock = stubApi();
    renderPage();
    await screen.findByText("1,111");
    const appointmentsStore = () => within(section(DASHBOARD_TEXT.appointments)).getByLabelText(DASHBOARD_TEXT.store) as HTMLSelectElement;
    const aircallLine = () => within(section(DASHBOARD_TEXT.aircall)).getByLabelText(DASHBOARD_TEXT.numberName) as HTMLSelectElement;
    fireEvent.change(topStore(), { target: { value: "NAPLES" } });
    fireEvent.click(screen.getByRole("button", { name: DASHBOARD_TEXT.refreshAll }));
    await waitFor(() => expect(urls(fetchMock)).toContain("/api/appointment-count?dateFilterType=range&startDate=2026-03-10&endDate=2026-03-10&store=NAPLES"));
    expect(appointmentsStore().value).toBe("NAPLES");
    expect(aircallLine().value).toBe(STORE_NUMBER_NAMES.NAPLES);

    // "All" in the section counts every store, and the header says so.
    const allStores = "/api/appointment-count?dateFilterType=range&startDate=2026-03-10&endDate=2026-03-10";
    const asked = (url: string) => urls(fetchMock).filter((u) => u === url).length;
    const before = asked(allStores);
    fireEvent.change(appointmentsStore(), { target: { value: "" } });
    await waitFor(() => expect(asked(allStores)).toBe(before + 1));
    expect(appointmentsStore().value).toBe("");
    expect(within(section(DASHBOARD_TEXT.appointments)).getByText(`2026-03-10 · ${DASHBOARD_TEXT.allStores}`)).toBeTruthy();
    const allLines = "/api/aircall/outbound-answered-count?dateFilterType=range&startDate=2026-03-10&endDate=2026-03-10";
    const linesBefore = asked(allLines);
    fireEvent.change(aircallLine(), { target: { value: "" } });
    await waitFor(() => expect(asked(allLines)).toBe(linesBefore + 1));
    expect(aircallLine().value).toBe("");

    // The next Refresh All Sections applies the top store to both again.
    fireEvent.click(screen.getByRole("button", { name: DASHBOARD_TEXT.refreshAll }));
    await waitFor(() => expect(appointmentsStore().value).toBe("NAPLES"));
    expect(aircallLine().value).toBe(STORE_NUMBER_NAMES.NAPLES);
  });

  it("stops a range over 366 days at the picker, naming the limit, and asks for nothing", async () => {
    const fetchMock = stubApi();
    renderPage();
    await screen.findByText("1,111");
    const before = fetchMock.mock.calls.length;
    fireEvent.change(screen.getByLabelText(DASHBOARD_TEXT.startDate), { target: { value: "2025-03-01" } });
    fireEvent.change(screen.getByLabelText(DASHBOARD_TEXT.endDate), { target: { value: "2026-03-02" } });
    const message = "A range can be at most 366 days: choose an end date on or before 2026-03-01.";
    expect(screen.getByRole("alert").textContent).toBe(message);
    expect(screen.getByLabelText(DASHBOARD_TEXT.endDate).getAttribute("max")).toBe("2026-03-01");
    expect(screen.getByLabelText(DASHBOARD_TEXT.endDate).getAttribute("aria-invalid")).toBe("true");
    fireEvent.submit(screen.getByRole("form", { name: DASHBOARD_TEXT.refreshAll }));
    await new Promise((r) => setTimeout(r, 20));
    expect(fetchMock.mock.calls.length).toBe(before);
    expect(screen.queryByText(DASHBOARD_TEXT.countsError)).toBeNull();

    // 366 days is allowed: the message goes and Refresh applies the range.
    fireEvent.change(screen.getByLabelText(DASHBOARD_TEXT.endDate), { target: { value: "2026-03-01" } });
    expect(screen.queryByText(message)).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: DASHBOARD_TEXT.refreshAll }));
    await waitFor(() => expect(urls(fetchMock)).toContain("/api/call-logs/count?dateFilterType=range&startDate=2025-03-01&endDate=2026-03-01&callType=Outbound"));
  });

  it("tells an account without a plan, before it tries, that activation, numbers and test calls need one", async () => {
    const usage = { callsThisMonth: 0, minutesThisMonth: 0, agents: 0, agentLimit: null, numbers: 0, numberLimit: 9, plan: null };
    stubApi((url) => (url.pathname === "/api/usage-stats" ? json({ ...usage, plan: null, planState: "none", minuteLimit: null, planRequired: true }) : undefined));
    renderPage({ shopwindows_info: false, call_app: false });
    const notice = await screen.findByRole("region", { name: PLAN_TEXT.requiredTitle });
    expect(within(notice).getByText(PLAN_TEXT.requiredText)).toBeTruthy();
    expect(within(notice).getByRole("link", { name: PLAN_TEXT.choosePlan }).getAttribute("href")).toBe("/buy?email=staff%40store.example");
  });

  it("says nothing of plans to an account that has one (or an admin, whom the server does not ask)", async () => {
    const usage = { callsThisMonth: 0, minutesThisMonth: 0, agents: 0, agentLimit: 25, numbers: 0, numberLimit: 9, plan: "pro" };
    const fetchMock = stubApi((url) => (url.pathname === "/api/usage-stats" ? json({ ...usage, planRequired: false }) : undefined));
    renderPage({ shopwindows_info: false, call_app: false });
    await screen.findByText("12,345");
    await waitFor(() => expect(urls(fetchMock)).toContain("/api/usage-stats"));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByRole("region", { name: PLAN_TEXT.requiredTitle })).toBeNull();
  });

  it("Refresh All Sections with the same dates reloads the counts again", async () => {
    const fetchMock = stubApi();
    renderPage({ shopwindows_info: false, call_app: false });
    await screen.findByText("12,345");
    const countCalls = () => urls(fetchMock).filter((u) => u.startsWith("/api/call-logs/count")).length;
    expect(countCalls()).toBe(1);
    fireEvent.click(screen.getByRole("button", { name: DASHBOARD_TEXT.refreshAll }));
    await waitFor(() => expect(countCalls()).toBe(2));
  });

  it("offers only agents with an assistant id, store, type and name; choosing one filters the counts", async () => {
    const fetchMock = stubApi();
    renderPage({ shopwindows_info: false, call_app: false });
    const select = screen.getByLabelText(DASHBOARD_TEXT.agent) as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBe(2));
    expect([...select.options].map((o) => o.textContent)).toEqual([DASHBOARD_TEXT.allAgents, "Tyler outbound (TYLER · Outbound)"]);
    fireEvent.change(select, { target: { value: "asst-1" } });
    fireEvent.change(screen.getByLabelText(DASHBOARD_TEXT.callType), { target: { value: "Both" } });
    await waitFor(() =>
      expect(urls(fetchMock)).toContain("/api/voicemail-count?dateFilterType=range&startDate=2026-03-11&endDate=2026-03-11&agent=asst-1&callType=Both"),
    );
  });

  it("shows each section's own error text when its counts fail", async () => {
    stubApi((url) => (url.pathname === "/api/agents" || url.pathname.endsWith("options") || url.pathname === "/api/daily-reports" ? undefined : fail()));
    renderPage();
    expect(await screen.findByText(DASHBOARD_TEXT.countsError)).toBeTruthy();
    expect(await screen.findByText(DASHBOARD_TEXT.appointmentsError)).toBeTruthy();
    expect(await screen.findByText(DASHBOARD_TEXT.leadsError)).toBeTruthy();
    expect(await screen.findByText(DASHBOARD_TEXT.aircallError)).toBeTruthy();
  });

  describe("downloads", () => {
    let clicked: { href: string; download: string }[];
    beforeEach(() => {
      clicked = [];
      vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
        clicked.push({ href: this.href, download: this.download });
      });
      URL.createObjectURL = vi.fn(() => "blob:report");
      URL.revokeObjectURL = vi.fn();
    });
    afterEach(() => vi.restoreAllMocks());

    it("Export CSV saves call-report-{start}-to-{end}.csv from /api/export-report with the same query", async () => {
      const fetchMock = stubApi((url) => (url.pathname === "/api/export-report" ? new Response("Call ID,Date\n", { status: 200 }) : undefined));
      renderPage({ shopwindows_info: false, call_app: false });
      await screen.findByText("12,345");
      fireEvent.click(screen.getByRole("button", { name: DASHBOARD_TEXT.exportCsv }));
      await waitFor(() => expect(clicked).toEqual([{ href: "blob:report", download: "call-report-2026-03-11-to-2026-03-11.csv" }]));
      expect(urls(fetchMock)).toContain("/api/export-report?dateFilterType=range&startDate=2026-03-11&endDate=2026-03-11&callType=Outbound");
      const exportCall = fetchMock.mock.calls.find(([u]) => String(u).startsWith("/api/export-report")) as unknown as [string, RequestInit];
      expect((exportCall[1].headers as Record<string, string>).Authorization).toMatch(/^Bearer /);
    });

    it("shows the rows and bytes received while a big export arrives", async () => {
      let push: ((s: string) => void) | null = null;
      let close: (() => void) | null = null;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          push = (s) => controller.enqueue(new TextEncoder().encode(s));
          close = () => controller.close();
        },
      });
      stubApi((url) => (url.pathname === "/api/export-report" ? new Response(body, { status: 200, headers: { "content-type": "text/csv" } }) : undefined));
      renderPage();
      fireEvent.click(screen.getByRole("button", { name: DASHBOARD_TEXT.exportCsv }));
      await waitFor(() => expect(push).not.toBeNull());
      push!("Call ID,Date\n" + "x,1\n".repeat(1234));
      expect(await screen.findByText(/^1,234 rows · 0\.0 MB received$/)).toBeTruthy();
      close!();
      await waitFor(() => expect(screen.getByRole("button", { name: DASHBOARD_TEXT.exportCsv })).toBeTruthy());
      expect(screen.queryByText(/rows · .* received/)).toBeNull();
    });

    it("a failed export shows 'Error generating report'", async () => {
      stubApi((url) => (url.pathname === "/api/export-report" ? fail() : undefined));
      renderPage({ shopwindows_info: false, call_app: false });
      fireEvent.click(screen.getByRole("button", { name: DASHBOARD_TEXT.exportCsv }));
      expect(await screen.findByText(DASHBOARD_TEXT.exportError)).toBeTruthy();
      expect(clicked).toEqual([]);
    });

    it("Generate Daily Report saves daily-report-{start}-to-{end}-{store}.csv and says so", async () => {
      const fetchMock = stubApi((url) => (url.pathname === "/api/daily-report" ? new Response("Store,Date\n", { status: 200 }) : undefined));
      renderPage();
      fireEvent.change(topStore(), { target: { value: "OKC" } });
      fireEvent.click(screen.getByRole("button", { name: DASHBOARD_TEXT.refreshAll }));
      fireEvent.click(screen.getByRole("button", { name: DASHBOARD_TEXT.generateDailyReport }));
      await waitFor(() => expect(clicked).toEqual([{ href: "blob:report", download: "daily-report-2026-03-10-to-2026-03-10-OKC.csv" }]));
      expect(urls(fetchMock)).toContain("/api/daily-report?startDate=2026-03-10&endDate=2026-03-10&store=OKC");
      await waitFor(() => expect(toast).toHaveBeenCalledWith({ title: DASHBOARD_TEXT.dailyReportDone }));
    });

    it("a failed daily report shows the inline error and a destructive toast", async () => {
      stubApi((url) => (url.pathname === "/api/daily-report" ? fail() : undefined));
      renderPage();
      fireEvent.click(screen.getByRole("button", { name: DASHBOARD_TEXT.generateDailyReport }));
      expect(await screen.findByText(DASHBOARD_TEXT.dailyReportError)).toBeTruthy();
      expect(toast).toHaveBeenCalledWith({ variant: "destructive", title: DASHBOARD_TEXT.dailyReportFailed });
    });

    it("lists recent daily reports, each downloadable; a failed list is just the empty state", async () => {
      stubApi((url) => {
        if (url.pathname === "/api/daily-reports") return json({ reports: [{ id: 7, date: "2026-03-09", store: "TYLER", created_at: "2026-03-10T05:00:00Z", rows: 12 }] });
        if (url.pathname === "/api/daily-reports/7") return new Response("Store\n", { status: 200 });
        return undefined;
      });
      renderPage();
      const button = await screen.findByRole("button", { name: `${DASHBOARD_TEXT.download} daily-report-2026-03-09-TYLER.csv` });
      fireEvent.click(button);
      await waitFor(() => expect(clicked).toEqual([{ href: "blob:report", download: "daily-report-2026-03-09-TYLER.csv" }]));
    });

    it("a failed report list shows the empty state", async () => {
      stubApi((url) => (url.pathname === "/api/daily-reports" ? fail() : undefined));
      renderPage();
      expect(await screen.findByText(DASHBOARD_TEXT.noReports)).toBeTruthy();
    });
  });
});
