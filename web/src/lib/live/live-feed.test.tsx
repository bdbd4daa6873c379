// The tab's feed wired to the browser: the socket URL on this origin, sign-out closing it, the page's
// visibility pausing and resuming it, and one socket shared by every live screen.
import { act, render } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setAccessToken } from "@web/lib/api";
import { FakeWebSocket, installLiveFeed, uninstallLiveFeed } from "@web/test/fake-socket";
import { liveFeed, liveSocketUrl, useLiveFeed } from "./live-feed";

function Screen() {
  const status = useLiveFeed();
  return <p data-testid="status">{status}</p>;
}

const flush = () => act(() => vi.advanceTimersByTimeAsync(0));

function setVisibility(state: "visible" | "hidden") {
  Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}

beforeEach(() => {
  vi.useFakeTimers();
  installLiveFeed("u1");
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json({ ticket: "u1.s", expiresInSeconds: 30, store: false })),
  );
});

afterEach(() => {
  setVisibility("visible");
  uninstallLiveFeed();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("liveSocketUrl", () => {
  it("uses wss on https and ws on http, on the page's own host, with the cursor when there is one", () => {
    expect(liveSocketUrl("t 1", "42", { protocol: "https:", host: "app.example" })).toBe("wss://app.example/api/live?ticket=t+1&after=42");
    expect(liveSocketUrl("t", null, { protocol: "http:", host: "127.0.0.1:8787" })).toBe("ws://127.0.0.1:8787/api/live?ticket=t");
  });
});

describe("useLiveFeed", () => {
  it("shares one socket between screens, asking for the ticket with the session's token", async () => {
    render(
      <>
        <Screen />
        <Screen />
      </>,
    );
    await flush();
    expect(FakeWebSocket.opened).toHaveLength(1);
    const [url, init] = vi.mocked(fetch).mock.calls[0]!;
    expect(url).toBe("/api/live/ticket");
    expect(init?.method).toBe("POST");
    expect(String((init?.headers as Record<string, string>).Authorization)).toMatch(/^Bearer h\./);
  });

  it("closes the socket at sign-out", async () => {
    const view = render(<Screen />);
    await flush();
    act(() => FakeWebSocket.last()!.send({ type: "ready", cursor: "3" }));
    expect(view.getByTestId("status").textContent).toBe("live");
    act(() => setAccessToken(null));
    expect(FakeWebSocket.last()!.closedWith).toBe(1000);
    expect(view.getByTestId("status").textContent).toBe("off");
    expect(liveFeed().getCursor()).toBeNull();
  });

  it("lets the socket go 30 s after the tab is hidden and resumes after its cursor when shown", async () => {
    const view = render(<Screen />);
    await flush();
    act(() => FakeWebSocket.last()!.send({ type: "ready", cursor: "3" }));
    act(() => setVisibility("hidden"));
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(FakeWebSocket.last()!.closedWith).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(FakeWebSocket.last()!.closedWith).toBe(1000);
    expect(view.getByTestId("status").textContent).toBe("paused");
    act(() => setVisibility("visible"));
    await flush();
    expect(FakeWebSocket.opened).toHaveLength(2);
    expect(new URL(FakeWebSocket.last()!.url).searchParams.get("after")).toBe("3");
  });

  it("closes the socket a while after the last live screen is gone", async () => {
    const view = render(<Screen />);
    await flush();
    view.unmount();
    await act(() => vi.advanceTimersByTimeAsync(9_000));
    expect(FakeWebSocket.last()!.closedWith).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(FakeWebSocket.last()!.closedWith).toBe(1000);
  });
});
