import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { REPORT_MAIL_TEXT } from "@shared/messages";
import { Toaster } from "@web/components/ui/toaster";
import { resetToasts } from "@web/lib/toast-store";
import { setAccessToken } from "@web/lib/api";
import { createQueryClient } from "@web/lib/query-client";
import { ReportMailSection } from "./report-mail-section";

const EMAIL = "staff@store.example";

/** The API as the section sees it: the setting, and PUT answering the new one (or `putStatus`). */
function stubApi({ subscribed = false, putStatus = 200 } = {}) {
  let current = subscribed;
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === "/api/report-mail" && (init?.method ?? "GET") === "GET") return Response.json({ subscribed: current, email: EMAIL });
    if (url === "/api/report-mail" && init?.method === "PUT") {
      if (putStatus !== 200) return Response.json({ error: "Too many requests", code: "rate_limited" }, { status: putStatus });
      current = (JSON.parse(String(init.body)) as { subscribed: boolean }).subscribed;
      return Response.json({ subscribed: current, email: EMAIL });
    }
    return new Response("not found", { status: 404 });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setAccessToken(null);
  act(() => resetToasts());
});

const renderSection = () =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ReportMailSection />
      <Toaster />
    </QueryClientProvider>,
  );

const theSwitch = () => screen.findByRole("switch", { name: REPORT_MAIL_TEXT.switchLabel });

describe("ReportMailSection", () => {
  it("shows the switch off by default, with the explanation and the address the mail goes to", async () => {
    stubApi();
    renderSection();
    expect((await theSwitch()).getAttribute("aria-checked")).toBe("false");
    expect(screen.getByText(REPORT_MAIL_TEXT.sectionText)).toBeTruthy();
    expect(screen.getByText(REPORT_MAIL_TEXT.sendsTo(EMAIL))).toBeTruthy();
  });

  it("turns the mail on with PUT /api/report-mail {subscribed: true}, then shows it on", async () => {
    const fetchMock = stubApi();
    setAccessToken("tok-1");
    renderSection();
    fireEvent.click(await theSwitch());
    await waitFor(async () => expect((await theSwitch()).getAttribute("aria-checked")).toBe("true"));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT")!;
    expect(JSON.parse(String(put[1]!.body))).toEqual({ subscribed: true });
    expect((put[1]!.headers as Record<string, string>).Authorization).toBe("Bearer tok-1");
    expect(await screen.findByText(REPORT_MAIL_TEXT.on)).toBeTruthy();
  });

  it("turns it off when it is on", async () => {
    const fetchMock = stubApi({ subscribed: true });
    renderSection();
    expect((await theSwitch()).getAttribute("aria-checked")).toBe("true");
    fireEvent.click(await theSwitch());
    await waitFor(async () => expect((await theSwitch()).getAttribute("aria-checked")).toBe("false"));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT")!;
    expect(JSON.parse(String(put[1]!.body))).toEqual({ subscribed: false });
  });

  it("stays off and says so when the server refuses too many changes", async () => {
    stubApi({ putStatus: 429 });
    renderSection();
    fireEvent.click(await theSwitch());
    expect(await screen.findByText(REPORT_MAIL_TEXT.tooManyChanges)).toBeTruthy();
    expect((await theSwitch()).getAttribute("aria-checked")).toBe("false");
  });
});
