import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CALL_LOG_TEXT, CALL_SEARCH_TEXT } from "@shared/messages";
import type { CallLogSearchResult } from "@shared/schemas/call-logs";
import { createQueryClient } from "@web/lib/query-client";
import { listedCall as log } from "@web/test/call-logs";
import { CallLogsPage } from "./call-logs-page";
import { HighlightedSnippet, searchOf } from "./call-search";

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const stats = { callsThisMonth: 1, minutesThisMonth: 1, agents: 1, agentLimit: null, numbers: 1, numberLimit: 9 };

const hit = (id: number, text: string, highlights: [number, number][]): CallLogSearchResult => ({ log: log(id, `Summary ${id}`), snippet: { text, highlights } });

/** A stand-in API: the list has one call; the search answers `search(q, cursor)`. */
function stubApi(search: (q: string, cursor: string | null) => Response) {
  const fetchMock = vi.fn(async (url: string) => {
    if (url.startsWith("/api/usage-stats")) return json(stats);
    const u = new URL(url, "http://x");
    if (u.pathname === "/api/call-logs/search") return search(u.searchParams.get("q") ?? "", u.searchParams.get("cursor"));
    return json({ logs: [log(1, "A listed call")], nextCursor: null });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const renderPage = () =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <CallLogsPage />
    </QueryClientProvider>,
  );

const searchCalls = (text: string) => fireEvent.change(screen.getByLabelText(CALL_SEARCH_TEXT.label), { target: { value: text } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("HighlightedSnippet", () => {
  it("marks exactly the given ranges and renders everything else as text, never as markup", () => {
    const text = `Human: <img src=x onerror="alert(1)"> my refund <b>now</b>`;
    const start = text.indexOf("refund");
    const { container } = render(
      <p>
        <HighlightedSnippet snippet={{ text, highlights: [[start, start + 6]] }} />
      </p>,
    );
    expect([...container.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["refund"]);
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("b")).toBeNull();
    expect(container.textContent).toBe(text);
  });

  it("leaves ranges out of order or out of bounds unmarked", () => {
    const { container } = render(
      <p>
        <HighlightedSnippet snippet={{ text: "abc def", highlights: [[4, 7], [0, 3], [5, 99], [6, 6]] }} />
      </p>,
    );
    expect([...container.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["def"]);
    expect(container.textContent).toBe("abc def");
  });
});

describe("searchOf", () => {
  it("searches from 2 characters, trimmed", () => {
    expect(searchOf(" a ")).toBeUndefined();
    expect(searchOf("  eye exam ")).toBe("eye exam");
  });
});

describe("CallLogsPage search", () => {
  it("searches once the typing pauses, shows the matches with their words marked and announces the count", async () => {
    const fetchMock = stubApi((q) => json({ results: [hit(7, `Human: my ${q} whistles`, [[10, 10 + q.length]])], nextCursor: null }));
    renderPage();
    expect(await screen.findByText("A listed call")).toBeTruthy();
    searchCalls("hearing aid");
    const status = await screen.findByText(CALL_SEARCH_TEXT.found(1, false));
    expect(status.getAttribute("role")).toBe("status");
    const searches = fetchMock.mock.calls.map(([url]) => String(url)).filter((u) => u.startsWith("/api/call-logs/search"));
    // One request for the whole phrase, not one per keystroke.
    expect(searches).toEqual(["/api/call-logs/search?q=hearing+aid&limit=20"]);
    const snippet = screen.getByTestId("search-snippet");
    expect(within(snippet).getByText("hearing aid").tagName).toBe("MARK");
    expect(snippet.textContent).toBe("Human: my hearing aid whistles");
    // The list is hidden under the search.
    expect(screen.queryByText("A listed call")?.closest(".hidden")).toBeTruthy();
  });

  it("loads more matches by cursor, and the clear button returns to the list", async () => {
    const fetchMock = stubApi((_q, cursor) =>
      cursor === "k1" ? json({ results: [hit(2, "second page", [[0, 6]])], nextCursor: null }) : json({ results: [hit(1, "first page", [[0, 5]])], nextCursor: "k1" }),
    );
    renderPage();
    searchCalls("page");
    expect(await screen.findByText(CALL_SEARCH_TEXT.found(1, true))).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: CALL_LOG_TEXT.loadMore }));
    expect(await screen.findByText(CALL_SEARCH_TEXT.found(2, false))).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain("/api/call-logs/search?q=page&limit=20&cursor=k1");
    expect(screen.getAllByTestId("search-snippet").map((s) => s.textContent)).toEqual(["first page", "second page"]);

    fireEvent.click(screen.getByRole("button", { name: CALL_SEARCH_TEXT.clear }));
    await waitFor(() => expect(screen.queryAllByTestId("search-snippet")).toHaveLength(0));
    expect((screen.getByLabelText(CALL_SEARCH_TEXT.label) as HTMLInputElement).value).toBe("");
    expect(screen.getByText("A listed call").closest(".hidden")).toBeNull();
  });

  it("says when nothing matches, and says so with a retry when the search fails", async () => {
    stubApi((q) => (q === "broken" ? json({ error: "Search is unavailable" }, 500) : json({ results: [], nextCursor: null })));
    renderPage();
    searchCalls("zebra");
    expect(await screen.findByText(CALL_SEARCH_TEXT.none("zebra"))).toBeTruthy();
    searchCalls("broken");
    expect((await screen.findByRole("alert")).textContent).toContain(CALL_SEARCH_TEXT.failed);
    expect(screen.getByRole("button", { name: CALL_LOG_TEXT.retry })).toBeTruthy();
  });

  it("does not search one character", async () => {
    const fetchMock = stubApi(() => json({ results: [], nextCursor: null }));
    renderPage();
    searchCalls("e");
    expect(await screen.findByText(CALL_SEARCH_TEXT.tooShort)).toBeTruthy();
    await new Promise((r) => setTimeout(r, 400));
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith("/api/call-logs/search"))).toBe(false);
  });
});
