import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DAILY_REPORT_TEXT, DASHBOARD_TEXT } from "@shared/messages";
import { nyYesterday } from "@shared/ny-time";
import { Toaster } from "@web/components/ui/toaster";
import { resetToasts } from "@web/lib/toast-store";
import { setAccessToken } from "@web/lib/api";
import { createQueryClient } from "@web/lib/query-client";
import { DailyReportPage } from "./daily-report-page";

const csv = "Category,Count\nTotal,3\n";

function stubApi(answer: () => Response = () => new Response(csv, { status: 200, headers: { "content-type": "text/csv" } })) {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => answer());
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const downloads: { name: string; href: string }[] = [];

beforeEach(() => {
  downloads.length = 0;
  URL.createObjectURL = vi.fn(() => "blob:report");
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ name: this.download, href: this.href });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setAccessToken(null);
  act(() => resetToasts());
});

const renderPage = (shopwindows_info = true, date?: string) =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <DailyReportPage user={{ shopwindows_info }} date={date} />
      <Toaster />
    </QueryClientProvider>,
  );

const dateField = () => screen.getByLabelText(DAILY_REPORT_TEXT.date) as HTMLInputElement;
const generate = () => fireEvent.click(screen.getByRole("button", { name: DASHBOARD_TEXT.generateDailyReport }));

describe("DailyReportPage", () => {
  it("offers only the days the server takes (2000-2099)", () => {
    stubApi();
    renderPage();
    expect([dateField().min, dateField().max]).toEqual(["2000-01-01", "2099-12-31"]);
  });

  it("refuses a user without shopwindows_info", () => {
    renderPage(false);
    expect(screen.getByText(DAILY_REPORT_TEXT.denied)).toBeTruthy();
    expect(screen.queryByRole("button", { name: DASHBOARD_TEXT.generateDailyReport })).toBeNull();
  });

  it("opens on the day a link names (the daily report mail's ?date=)", () => {
    renderPage(true, "2026-09-14");
    expect(dateField().value).toBe("2026-09-14");
  });

  it("starts on yesterday and lists the report's three groups", () => {
    renderPage();
    expect(dateField().value).toBe(nyYesterday());
    for (const title of [DASHBOARD_TEXT.appointments, DASHBOARD_TEXT.virtualInteractions, DASHBOARD_TEXT.leadsAndAircall]) {
      expect(screen.getByRole("heading", { name: title })).toBeTruthy();
    }
    expect(screen.getByText("Virtual Purchased")).toBeTruthy();
    expect(screen.getByText("Reservations visit")).toBeTruthy();
  });

  it("downloads GET /api/daily-report?date=… with the bearer as daily-report-{date}.csv, then toasts", async () => {
    const fetchMock = stubApi();
    setAccessToken("tok-1");
    renderPage();
    fireEvent.change(dateField(), { target: { value: "2026-03-10" } });
    generate();
    expect(await screen.findByText(DASHBOARD_TEXT.dailyReportDone)).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/daily-report?date=2026-03-10");
    expect(init?.method).toBe("GET");
    expect((init?.headers as Record<string, string>).Authorization).toBe("Bearer tok-1");
    expect(downloads).toEqual([{ name: "daily-report-2026-03-10.csv", href: "blob:report" }]);
    expect(URL.revokeObjectURL).toHaveBeenCalledWith("blob:report");
    expect(screen.queryByText(DASHBOARD_TEXT.dailyReportError)).toBeNull();
  });

  it("on failure shows 'Error generating daily report' inline and a destructive toast, and saves nothing", async () => {
    stubApi(() => new Response("boom", { status: 500, statusText: "Internal Server Error" }));
    renderPage();
    generate();
    expect(await screen.findByText(DASHBOARD_TEXT.dailyReportError)).toBeTruthy();
    expect(await screen.findByText(DASHBOARD_TEXT.dailyReportFailed)).toBeTruthy();
    expect(downloads).toEqual([]);
  });

  it("asks for a date before downloading", async () => {
    const fetchMock = stubApi();
    renderPage();
    fireEvent.change(dateField(), { target: { value: "" } });
    generate();
    expect(await screen.findByText(DAILY_REPORT_TEXT.dateRequired)).toBeTruthy();
    await waitFor(() => expect(fetchMock).not.toHaveBeenCalled());
  });
});
