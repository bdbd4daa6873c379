// Settings → Webhooks (docs/product/webhooks.md): an account without the plan sees what Pro gives and
// an Upgrade link to /buy, never the form; a Pro account adds an endpoint with its events and sees
// the secret once; a URL the server refuses shows its reason under the field; Resend is offered on
// decided deliveries only.
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PLAN_TEXT, WEBHOOKS_TEXT } from "@shared/messages";
import type { WebhookEndpointView } from "@shared/schemas/webhooks";
import { Toaster } from "@web/components/ui/toaster";
import { setAccessToken } from "@web/lib/api";
import { createQueryClient } from "@web/lib/query-client";
import { resetToasts } from "@web/lib/toast-store";
import { WebhooksSection } from "./webhooks-section";

const SECRET = `whsec_${"A".repeat(43)}=`;

function stubApi({ allowed }: { allowed: boolean }) {
  const endpoints: WebhookEndpointView[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    if (url === "/api/webhook-endpoints" && method === "GET") return Response.json({ allowed, endpoints, limit: 10 });
    if (url === "/api/webhook-endpoints" && method === "POST") {
      const body = JSON.parse(String(init!.body)) as { url: string; description: string; events: WebhookEndpointView["events"] };
      if (body.url.includes("127.0.0.1")) return Response.json({ error: "The URL points to a loopback address", code: "validation_error", field: "url", requestId: "r" }, { status: 400 });
      const endpoint: WebhookEndpointView = {
        id: "we_1",
        url: body.url,
        description: body.description,
        events: body.events,
        enabled: true,
        disabledReason: null,
        secretPrefix: `${SECRET.slice(0, 10)}…`,
        previousSecretExpiresAt: null,
        createdAt: "2026-03-10T15:00:00.000Z",
        updatedAt: "2026-03-10T15:00:00.000Z",
      };
      endpoints.push(endpoint);
      return Response.json({ endpoint, secret: SECRET }, { status: 201 });
    }
    if (url.startsWith("/api/webhook-endpoints/we_1/deliveries") && method === "GET") {
      const delivery = (id: string, status: "pending" | "failed") => ({ id, eventType: "call.ended", status, attempts: 1, createdAt: "2026-03-10T15:00:00.000Z", nextAttemptAt: null, attemptLog: [] });
      return Response.json({ deliveries: [delivery("msg_pending", "pending"), delivery("msg_failed", "failed")], nextCursor: null });
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
            <WebhooksSection email="pro@example.com" />
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

describe("WebhooksSection", () => {
  it("shows an account without the plan what Pro gives and Upgrade to /buy, and no form", async () => {
    stubApi({ allowed: false });
    await renderSection();
    expect(await screen.findByText(WEBHOOKS_TEXT.proOnly)).toBeTruthy();
    for (const feature of PLAN_TEXT.features.pro) expect(screen.getByText(feature)).toBeTruthy();
    expect(screen.getByRole("link", { name: WEBHOOKS_TEXT.upgrade }).getAttribute("href")).toMatch(/^\/buy/);
    expect(screen.queryByLabelText(WEBHOOKS_TEXT.urlLabel)).toBeNull();
  });

  it("adds an endpoint with its events, shows the secret once, and lists it", async () => {
    const fetchMock = stubApi({ allowed: true });
    await renderSection();
    fireEvent.change(await screen.findByLabelText(WEBHOOKS_TEXT.urlLabel), { target: { value: "https://hooks.example.com/in" } });
    fireEvent.click(screen.getByLabelText(/^daily_report\.ready/));
    fireEvent.click(screen.getByRole("button", { name: WEBHOOKS_TEXT.add }));
    expect((await screen.findByTestId("webhook-secret")).textContent).toBe(SECRET);
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST")!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({ url: "https://hooks.example.com/in", description: "", events: ["call.started", "call.ended", "daily_report.ready"] });
    await screen.findByText("https://hooks.example.com/in");
    fireEvent.click(screen.getByRole("button", { name: WEBHOOKS_TEXT.done }));
    await waitFor(() => expect(screen.queryByText(SECRET)).toBeNull());
  });

  it("offers Resend on a decided delivery only: a pending one's next attempt is already queued", async () => {
    stubApi({ allowed: true });
    await renderSection();
    fireEvent.change(await screen.findByLabelText(WEBHOOKS_TEXT.urlLabel), { target: { value: "https://hooks.example.com/in" } });
    fireEvent.click(screen.getByRole("button", { name: WEBHOOKS_TEXT.add }));
    fireEvent.click(await screen.findByRole("button", { name: WEBHOOKS_TEXT.done }));
    fireEvent.click(await screen.findByRole("button", { name: WEBHOOKS_TEXT.showLog }));
    const rows = await screen.findAllByTestId("webhook-delivery");
    const [pending, failed] = rows.map((row) => row.querySelector("button")!);
    expect(pending.disabled).toBe(true);
    expect(pending.title).toBe(WEBHOOKS_TEXT.resendQueued);
    expect(failed.disabled).toBe(false);
  });

  it("shows a refused URL's reason under the field", async () => {
    stubApi({ allowed: true });
    await renderSection();
    fireEvent.change(await screen.findByLabelText(WEBHOOKS_TEXT.urlLabel), { target: { value: "https://127.0.0.1/in" } });
    fireEvent.click(screen.getByRole("button", { name: WEBHOOKS_TEXT.add }));
    expect(await screen.findByText("The URL points to a loopback address")).toBeTruthy();
    expect(screen.queryByTestId("webhook-secret")).toBeNull();
  });
});
