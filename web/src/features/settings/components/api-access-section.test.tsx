// Settings → API access (docs/product/api-access.md): an account without API access sees what Pro
// gives and Upgrade to /buy, never the form; a Pro account creates a key with its scopes and sees
// the secret once, and the list shows name, scopes and prefix with Revoke.
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { API_ACCESS_TEXT, PLAN_TEXT } from "@shared/messages";
import type { ApiKeyView } from "@shared/schemas/api-keys";
import { Toaster } from "@web/components/ui/toaster";
import { setAccessToken } from "@web/lib/api";
import { createQueryClient } from "@web/lib/query-client";
import { resetToasts } from "@web/lib/toast-store";
import { ApiAccessSection } from "./api-access-section";

const SECRET = `vao_test_${"A".repeat(40)}`;

function stubApi({ allowed }: { allowed: boolean }) {
  const keys: ApiKeyView[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    if (url === "/api/api-keys" && method === "GET") return Response.json({ keys, allowed, limit: 10 });
    if (url === "/api/api-keys" && method === "POST") {
      const body = JSON.parse(String(init!.body)) as { name: string; scopes: ApiKeyView["scopes"] };
      const key: ApiKeyView = { id: "key_1", name: body.name, scopes: body.scopes, prefix: SECRET.slice(0, 13), createdAt: "2026-03-10T15:00:00.000Z", lastUsedAt: null };
      keys.push(key);
      return Response.json({ key, secret: SECRET }, { status: 201 });
    }
    return new Response("not found", { status: 404 });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

async function renderSection() {
  const router = createRouter({
    routeTree: createRootRoute({
      component: () => (
        <QueryClientProvider client={createQueryClient()}>
          <div data-testid="root">
            <ApiAccessSection email="pro@example.com" />
          </div>
          <Toaster />
        </QueryClientProvider>
      ),
    }),
    history: createMemoryHistory({ initialEntries: ["/settings"] }),
  });
  render(<RouterProvider router={router} />);
  await screen.findByTestId("root");
}

afterEach(() => {
  vi.unstubAllGlobals();
  setAccessToken(null);
  act(() => resetToasts());
});

describe("ApiAccessSection", () => {
  it("shows an account without API access what Pro gives and Upgrade to /buy, and no form", async () => {
    stubApi({ allowed: false });
    await renderSection();
    await screen.findByText(API_ACCESS_TEXT.proOnly);
    const listed = screen.getAllByRole("listitem").map((li) => li.textContent);
    expect(listed).toEqual([...PLAN_TEXT.features.pro]);
    expect(screen.getByRole("link", { name: API_ACCESS_TEXT.upgrade }).getAttribute("href")).toBe("/buy?email=pro%40example.com");
    expect(screen.queryByLabelText(API_ACCESS_TEXT.nameLabel)).toBeNull();
    expect(screen.getByRole("link", { name: API_ACCESS_TEXT.reference }).getAttribute("href")).toBe("/v1/docs");
  });

  it("creates a key with its name and scopes, shows the secret once, then lists it", async () => {
    const fetchMock = stubApi({ allowed: true });
    setAccessToken("tok-1");
    await renderSection();
    fireEvent.change(await screen.findByLabelText(API_ACCESS_TEXT.nameLabel), { target: { value: "Reporting" } });
    fireEvent.click(screen.getByRole("checkbox", { name: "agents:read" }));
    fireEvent.click(screen.getByRole("button", { name: API_ACCESS_TEXT.create }));
    expect((await screen.findByTestId("api-key-secret")).textContent).toBe(SECRET);
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST")!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ name: "Reporting", scopes: ["calls:read", "counts:read", "agents:read"] });
    await screen.findByRole("button", { name: `${API_ACCESS_TEXT.revoke} Reporting` });
    expect(screen.getByText(`${SECRET.slice(0, 13)}…`)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: API_ACCESS_TEXT.done }));
    await waitFor(() => expect(screen.queryByTestId("api-key-secret")).toBeNull());
  });

  it("refuses a key without a scope before asking the server", async () => {
    const fetchMock = stubApi({ allowed: true });
    await renderSection();
    fireEvent.change(await screen.findByLabelText(API_ACCESS_TEXT.nameLabel), { target: { value: "None" } });
    fireEvent.click(screen.getByRole("checkbox", { name: "calls:read" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "counts:read" }));
    fireEvent.click(screen.getByRole("button", { name: API_ACCESS_TEXT.create }));
    await screen.findByText(API_ACCESS_TEXT.pickScope);
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "POST")).toBe(false);
  });
});
