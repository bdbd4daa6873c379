// Test helpers for the Agents screen: the app's query client and a memory router around a
// component with the toaster beside it (inside the router, as in the app), and a fetch stand-in that answers by method and path.
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { vi } from "vitest";
import { DEFAULT_VOICE_ID } from "@shared/constants";
import type { Agent } from "@shared/schemas/agents";
import { Toaster } from "@web/components/ui/toaster";
import { createQueryClient } from "@web/lib/query-client";
import { newAgentDraft } from "../agent-editor";

/** Resolves once the router has rendered `ui`. */
export async function renderWithApp(ui: ReactNode) {
  const queryClient = createQueryClient();
  // The toaster renders inside the router, as the app's root route renders it.
  const root = createRootRoute({
    component: () => (
      <>
        <div data-testid="app-root">{ui}</div>
        <Toaster />
      </>
    ),
  });
  const phoneNumbers = createRoute({ getParentRoute: () => root, path: "/phone-numbers", component: () => null });
  const router = createRouter({
    routeTree: root.addChildren([phoneNumbers]),
    history: createMemoryHistory({ initialEntries: ["/agent-settings"] }),
  });
  const utils = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  await screen.findByTestId("app-root");
  return { ...utils, queryClient, router };
}

export type Handler = (request: { method: string; path: string; body: unknown }) => unknown;

/**
 * Replaces fetch. `routes` maps "METHOD /path" (query string included when there is one) to an answer:
 * a value answered as JSON 200, a Response, or a function of the request. Unknown calls answer 404.
 */
export function stubApi(routes: Record<string, unknown>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = (init?.method ?? "GET").toUpperCase();
    const path = String(input);
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path, body });
    const answer = routes[`${method} ${path}`];
    if (answer === undefined) return Response.json({ error: "Not found", code: "not_found" }, { status: 404 });
    const value = typeof answer === "function" ? await (answer as Handler)({ method, path, body }) : answer;
    return value instanceof Response ? value : Response.json(value);
  });
  vi.stubGlobal("fetch", fetchMock);
  return { calls, fetchMock };
}

export const usageStats = { callsThisMonth: 12, minutesThisMonth: 34.5, minuteLimit: 5000, agents: 1, agentLimit: 25, numbers: 0, numberLimit: 9, plan: "pro", planState: "subscribed", planRequired: false };
export const voices = { voices: [{ id: DEFAULT_VOICE_ID, name: "Marissa", provider: "11labs" }] };

/** A complete, inactive agent unless overridden: a saved draft with its fields filled in. */
export function makeAgent(overrides: Partial<Agent> = {}): Agent {
  return {
    ...newAgentDraft("Front Desk"),
    id: 7,
    business_description: "A family dental practice in Austin, open six days a week.",
    services: "Cleanings, fillings, whitening and emergency visits.",
    agent_instructions: "Greet callers warmly and book appointments for them.",
    updated_at: "2026-03-01T12:00:00.000Z",
    created_at: "2026-03-01T12:00:00.000Z",
    ...overrides,
  };
}
