import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DASHBOARD_TEXT } from "@shared/messages";
import { createQueryClient } from "@web/lib/query-client";
import { STORED_REPORTS_TEXT, StoredReports } from "./stored-reports";

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
const report = (id: number, date: string, store: string | null) => ({ id, date, store, created_at: `${date}T05:00:00Z`, rows: 10 });

/** Three pages: the server's keyset answers, by cursor. */
const PAGES: Record<string, { reports: ReturnType<typeof report>[]; nextCursor: string | null }> = {
  "": { reports: [report(3, "2026-03-10", null), report(2, "2026-03-10", "IOWA")], nextCursor: "2026-03-10~IOWA" },
  "2026-03-10~IOWA": { reports: [report(1, "2026-03-09", null)], nextCursor: "2026-03-09~" },
  "2026-03-09~": { reports: [report(0, "2026-03-08", "TYLER")], nextCursor: null },
};

function stubApi() {
  const fetchMock = vi.fn(async (input: string) => {
    const url = new URL(input, "http://x");
    if (url.pathname !== "/api/daily-reports") return new Response("not found", { status: 404 });
    return json(PAGES[url.searchParams.get("cursor") ?? ""]);
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const APPLIED = { startDate: "2026-03-08", endDate: "2026-03-10" };

const renderList = (generation = 0, applied: { startDate: string; endDate: string; store?: string } = APPLIED) => {
  const client = createQueryClient();
  const view = render(
    <QueryClientProvider client={client}>
      <StoredReports applied={applied} generation={generation} />
    </QueryClientProvider>,
  );
  return {
    rerender: (g: number) =>
      view.rerender(
        <QueryClientProvider client={client}>
          <StoredReports applied={applied} generation={g} />
        </QueryClientProvider>,
      ),
  };
};

const shown = () => screen.getAllByRole("listitem").map((li) => li.textContent?.split(" · ").slice(0, 2).join(" "));
const newer = () => screen.getByRole("button", { name: STORED_REPORTS_TEXT.newer }) as HTMLButtonElement;
const older = () => screen.getByRole("button", { name: STORED_REPORTS_TEXT.older }) as HTMLButtonElement;

afterEach(() => vi.unstubAllGlobals());

describe("stored nightly reports", () => {
  it("shows the newest page first and moves to older and newer pages", async () => {
    const fetchMock = stubApi();
    renderList();
    await screen.findByText(/2026-03-10 · All stores/);
    expect(shown()).toEqual(["2026-03-10 All stores", "2026-03-10 IOWA"]);
    expect(newer().disabled).toBe(true);

    fireEvent.click(older());
    await screen.findByText(/2026-03-09 · All stores/);
    expect(shown()).toEqual(["2026-03-09 All stores"]);
    expect(fetchMock.mock.calls.map(([u]) => String(u))).toContain(`/api/daily-reports?${new URLSearchParams({ ...APPLIED, cursor: "2026-03-10~IOWA" })}`);

    fireEvent.click(older());
    await screen.findByText(/2026-03-08 · TYLER/);
    expect(older().disabled).toBe(true);
    expect(newer().disabled).toBe(false);

    fireEvent.click(newer());
    await screen.findByText(/2026-03-09 · All stores/);
    fireEvent.click(newer());
    await screen.findByText(/2026-03-10 · IOWA/);
    expect(newer().disabled).toBe(true);
  });

  it("starts again at the newest page when the dashboard is refreshed", async () => {
    stubApi();
    const { rerender } = renderList(0);
    await screen.findByText(/2026-03-10 · All stores/);
    fireEvent.click(older());
    await screen.findByText(/2026-03-09 · All stores/);
    rerender(1);
    await waitFor(() => expect(shown()).toEqual(["2026-03-10 All stores", "2026-03-10 IOWA"]));
  });

  it("lists the reports of the section header's dates and store, and says so", async () => {
    const fetchMock = vi.fn(async (_url: string) => json({ reports: [report(7, "2026-03-09", "NAPLES")], nextCursor: null }));
    vi.stubGlobal("fetch", fetchMock);
    renderList(0, { startDate: "2026-03-01", endDate: "2026-03-09", store: "NAPLES" });
    await screen.findByText(/2026-03-09 · NAPLES/);
    expect(fetchMock.mock.calls.map(([u]) => String(u))).toEqual(["/api/daily-reports?startDate=2026-03-01&endDate=2026-03-09&store=NAPLES"]);
    expect(screen.getByText("Reports stored each night for 2026-03-01 to 2026-03-09, NAPLES, as in the header above.")).toBeTruthy();
  });

  it("has no paging controls when everything fits on one page", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => json({ reports: [report(1, "2026-03-10", null)], nextCursor: null })));
    renderList();
    await screen.findByText(/2026-03-10 · All stores/);
    expect(screen.queryByRole("navigation")).toBeNull();
    expect(screen.getByRole("button", { name: `${DASHBOARD_TEXT.download} daily-report-2026-03-10.csv` })).toBeTruthy();
  });
});
