import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ANALYSIS_LIMIT } from "@shared/constants";
import { ANALYTICS_TEXT } from "@shared/messages";
import type { Agent } from "@shared/schemas/agents";
import type { AnalysisItem } from "@shared/schemas/counts";
import { nyYesterday } from "@shared/ny-time";
import { createQueryClient } from "@web/lib/query-client";
import { AnalyticsPage } from "./analytics-page";

const agent = (id: number, over: Partial<Agent>): Agent => ({
  id,
  name: `Agent ${id}`,
  business_description: "",
  services: "",
  agent_instructions: "",
  pricing_information: "",
  documents: "",
  prompt: null,
  voice_id: "v",
  vapi_assistant_id: `asst-${id}`,
  store: "MIAMI",
  type: "outbound",
  twilio_number_id: null,
  assigned_phone_number: null,
  phone_number: null,
  updated_at: "2026-01-01T00:00:00Z",
  created_at: "2026-01-01T00:00:00Z",
  ...over,
});

const agents: Agent[] = [
  agent(1, { name: "Miami Outbound Scheduler", store: "MIAMI", type: "outbound" }),
  agent(2, { name: "Tulsa Caller", store: "TULSA", type: "OutBound" }),
  agent(3, { name: "Naples OUTBOUND reminders", store: "NAPLES", type: "reminder" }),
  agent(4, { name: "Miami Inbound Receptionist", store: "MIAMI", type: "inbound" }),
  agent(5, { name: "Inactive Outbound", vapi_assistant_id: null }),
  agent(6, { name: "Storeless Outbound", store: null }),
  agent(7, { name: "Typeless Outbound", type: null }),
];

const item = (over: Partial<AnalysisItem>): AnalysisItem => ({
  begin_utc: "2026-03-10T15:00:00.000Z",
  phone_number: "+13055550100",
  customer_name: "Zoe",
  matched_call: false,
  call_date: null,
  won: false,
  ...over,
});

const items: AnalysisItem[] = [
  item({ begin_utc: "2026-03-10T15:00:00.000Z", customer_name: "Bella", phone_number: "+13055550102", matched_call: true, call_date: "2026-03-09T14:00:00.000Z", won: true }),
  item({ begin_utc: "2026-03-11T15:00:00.000Z", customer_name: "Carl", phone_number: "+13055550101" }),
  item({ begin_utc: "2026-03-09T15:00:00.000Z", customer_name: null, phone_number: "+13055550103" }),
];

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

function stubApi(answer: () => Response = () => json({ items })) {
  const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => (url === "/api/agents" ? json({ agents }) : answer()));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const renderPage = (shopwindows_info = true) =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AnalyticsPage user={{ id: "u1", shopwindows_info }} />
    </QueryClientProvider>,
  );

const agentSelect = () => screen.getByLabelText(ANALYTICS_TEXT.agent) as HTMLSelectElement;
const run = () => fireEvent.click(screen.getByRole("button", { name: ANALYTICS_TEXT.run }));

async function runFor(agentId: string) {
  await waitFor(() => expect(agentSelect().options.length).toBeGreaterThan(1));
  fireEvent.change(agentSelect(), { target: { value: agentId } });
  run();
  await screen.findByRole("table");
}

/** The text of one column, top to bottom. */
function column(index: number) {
  const rows = within(screen.getByRole("table")).getAllByRole("row").slice(1);
  return rows.map((r) => within(r).getAllByRole("cell")[index]!.textContent);
}

const header = (label: string) => screen.getByRole("button", { name: label });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("AnalyticsPage", () => {
  it("refuses a user without shopwindows_info, and asks for nothing", () => {
    const fetchMock = stubApi();
    renderPage(false);
    expect(screen.getByText(ANALYTICS_TEXT.accessDenied)).toBeTruthy();
    expect(screen.getByText(ANALYTICS_TEXT.denied)).toBeTruthy();
    expect(screen.queryByRole("button", { name: ANALYTICS_TEXT.run })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("offers only active agents with a store and a type whose type or name says outbound, any case", async () => {
    stubApi();
    renderPage();
    await waitFor(() => expect(agentSelect().options.length).toBeGreaterThan(1));
    const offered = [...agentSelect().options].slice(1).map((o) => o.value);
    expect(offered).toEqual(["1", "2", "3"]);
  });

  it("starts on yesterday in New York and says what a run does", async () => {
    stubApi();
    renderPage();
    expect((screen.getByLabelText(ANALYTICS_TEXT.startDate) as HTMLInputElement).value).toBe(nyYesterday());
    expect((screen.getByLabelText(ANALYTICS_TEXT.endDate) as HTMLInputElement).value).toBe(nyYesterday());
    expect(screen.getAllByText(ANALYTICS_TEXT.intro).length).toBeGreaterThan(0);
  });

  it("posts the agent's store, the range and the limit of 300", async () => {
    const fetchMock = stubApi();
    renderPage();
    fireEvent.change(screen.getByLabelText(ANALYTICS_TEXT.startDate), { target: { value: "2026-03-01" } });
    fireEvent.change(screen.getByLabelText(ANALYTICS_TEXT.endDate), { target: { value: "2026-03-15" } });
    await runFor("2");
    const call = fetchMock.mock.calls.find(([url]) => url === "/api/analytics/won");
    expect(call?.[1]?.method).toBe("POST");
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ storeId: "TULSA", startDate: "2026-03-01", endDate: "2026-03-15", limit: ANALYSIS_LIMIT });
  });

  it("shows 'No name available', Yes/No and True/False, times in New York", async () => {
    stubApi();
    renderPage();
    await runFor("1");
    expect(column(2)).toEqual(["Bella", "Carl", ANALYTICS_TEXT.noName]);
    expect(column(3)).toEqual([ANALYTICS_TEXT.yes, ANALYTICS_TEXT.no, ANALYTICS_TEXT.no]);
    expect(column(5)).toEqual([ANALYTICS_TEXT.true, ANALYTICS_TEXT.false, ANALYTICS_TEXT.false]);
    // 15:00 UTC in March 2026 (EDT from the 8th) is 11:00 in New York.
    expect(column(0)[0]).toBe("2026-03-10 11:00:00");
    expect(column(4)[0]).toBe("2026-03-09 10:00:00");
    expect(column(1)[0]).toContain("305");
  });

  it("sorts a column ascending first, toggles it, and starts a new column ascending", async () => {
    stubApi();
    renderPage();
    await runFor("1");
    fireEvent.click(header(ANALYTICS_TEXT.appointmentDate));
    expect(column(0).map((t) => t!.slice(0, 10))).toEqual(["2026-03-09", "2026-03-10", "2026-03-11"]);
    fireEvent.click(header(ANALYTICS_TEXT.appointmentDate));
    expect(column(0).map((t) => t!.slice(0, 10))).toEqual(["2026-03-11", "2026-03-10", "2026-03-09"]);
    fireEvent.click(header(ANALYTICS_TEXT.personNumber));
    expect(column(2)).toEqual(["Carl", "Bella", ANALYTICS_TEXT.noName]);
    fireEvent.click(header(ANALYTICS_TEXT.won));
    expect(column(5)).toEqual([ANALYTICS_TEXT.false, ANALYTICS_TEXT.false, ANALYTICS_TEXT.true]);
    fireEvent.click(header(ANALYTICS_TEXT.won));
    expect(column(5)[0]).toBe(ANALYTICS_TEXT.true);
  });

  it("checks the form before asking: agent and dates required, end not before start", async () => {
    const fetchMock = stubApi();
    renderPage();
    fireEvent.change(screen.getByLabelText(ANALYTICS_TEXT.startDate), { target: { value: "" } });
    fireEvent.change(screen.getByLabelText(ANALYTICS_TEXT.endDate), { target: { value: "" } });
    run();
    expect(await screen.findByText(ANALYTICS_TEXT.agentRequired)).toBeTruthy();
    // docs/product/screens-and-routes.md#roles-and-flags: 'Please select start and end dates', beside each missing date.
    expect(screen.getAllByText(ANALYTICS_TEXT.datesRequired)).toHaveLength(2);

    await waitFor(() => expect(agentSelect().options.length).toBeGreaterThan(1));
    fireEvent.change(agentSelect(), { target: { value: "1" } });
    fireEvent.change(screen.getByLabelText(ANALYTICS_TEXT.startDate), { target: { value: "2026-03-10" } });
    fireEvent.change(screen.getByLabelText(ANALYTICS_TEXT.endDate), { target: { value: "2026-03-09" } });
    run();
    expect(await screen.findByText(ANALYTICS_TEXT.endBeforeStart)).toBeTruthy();
    expect(screen.queryByText(ANALYTICS_TEXT.agentRequired)).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => url === "/api/analytics/won")).toBe(false);
  });

  it("stops a range over 366 days at the form, naming the limit and the last end date", async () => {
    const fetchMock = stubApi();
    renderPage();
    await waitFor(() => expect(agentSelect().options.length).toBeGreaterThan(1));
    fireEvent.change(agentSelect(), { target: { value: "1" } });
    fireEvent.change(screen.getByLabelText(ANALYTICS_TEXT.startDate), { target: { value: "2025-03-10" } });
    fireEvent.change(screen.getByLabelText(ANALYTICS_TEXT.endDate), { target: { value: "2026-03-11" } });
    run();
    expect(await screen.findByText("A range can be at most 366 days: choose an end date on or before 2026-03-10.")).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => url === "/api/analytics/won")).toBe(false);
  });

  it("shows the server's message when the analysis fails", async () => {
    stubApi(() => json({ error: "storeId: must be one of IOWA", code: "validation", field: "storeId" }, 400));
    renderPage();
    await waitFor(() => expect(agentSelect().options.length).toBeGreaterThan(1));
    fireEvent.change(agentSelect(), { target: { value: "1" } });
    run();
    expect((await screen.findByRole("alert")).textContent).toContain("storeId");
  });
});
