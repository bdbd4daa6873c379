// Opening a page whose route starts its first read (decision 006): the request goes out as soon as the
// session is known, before the page has rendered, and the page shows that answer without asking again.
import type { Session } from "@supabase/supabase-js";
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryHistory } from "@tanstack/react-router";
import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AGENT_TEXT, CALL_LOG_TEXT, DASHBOARD_TEXT } from "@shared/messages";
import type { IdentityClient } from "@web/lib/auth-client";
import { setAccessToken } from "@web/lib/api";
import { AuthProvider } from "@web/lib/auth/auth-provider";
import { createQueryClient } from "@web/lib/query-client";
import { AppRouter, createAppRouter } from "@web/boot/router";
import { testCustomer, testSession } from "./accounts";

const session = testSession;
const customer = testCustomer;
const signedIn = {
  auth: {
    onAuthStateChange: (cb: (event: string, s: Session | null) => void) => {
      queueMicrotask(() => cb("INITIAL_SESSION", session));
      return { data: { subscription: { unsubscribe: () => {} } } };
    },
    signOut: async () => ({ error: null }),
  },
} as unknown as IdentityClient;

/**
 * Opens `path` as the signed-in customer. The API answers `answers` by path (the profile always) and
 * 404 otherwise; each request notes whether the page had rendered (`pageShown()`) when it went out.
 */
function open(path: string, answers: Record<string, unknown>, pageShown: () => boolean) {
  const requests: { path: string; pageShown: boolean }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const { pathname } = new URL(String(input), "http://app.test");
      requests.push({ path: pathname, pageShown: pageShown() });
      const answer = pathname === "/api/profile" ? customer : answers[pathname];
      return answer ? Response.json(answer) : Response.json({ error: "Not found", code: "not_found" }, { status: 404 });
    }),
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthProvider getClient={async () => signedIn} restoreAtStart={() => true}>
        <AppRouter router={createAppRouter(createMemoryHistory({ initialEntries: [path] }))} />
      </AuthProvider>
    </QueryClientProvider>,
  );
  return (apiPath: string) => requests.filter((r) => r.path === apiPath);
}

afterEach(() => {
  setAccessToken(null);
  vi.unstubAllGlobals();
});

describe("a page's first read", () => {
  it("/call-logs: the first page of calls is asked for once, before the page renders, and the page shows it", async () => {
    const refresh = () => screen.queryByRole("button", { name: CALL_LOG_TEXT.refresh }) !== null;
    const requestsTo = open("/call-logs", { "/api/call-logs": { logs: [], nextCursor: null } }, refresh);
    expect(await screen.findByText(CALL_LOG_TEXT.empty)).toBeTruthy();
    expect(requestsTo("/api/call-logs")).toEqual([{ path: "/api/call-logs", pageShown: false }]);
  });

  it("/agent-settings: the account's agents are asked for once, before the page renders, and the page shows them", async () => {
    const addAgent = () => screen.queryByRole("button", { name: AGENT_TEXT.addNew }) !== null;
    const requestsTo = open("/agent-settings", { "/api/agents": { agents: [] } }, addAgent);
    expect(await screen.findByText(AGENT_TEXT.emptyTitle)).toBeTruthy();
    expect(requestsTo("/api/agents")).toEqual([{ path: "/api/agents", pageShown: false }]);
  });

  it("/dashboard: every section's first figures are asked for once, before the page renders, and the page shows them", async () => {
    const callLogs = () => screen.queryByRole("region", { name: DASHBOARD_TEXT.callLogs }) !== null;
    const counts = { "/api/call-connected-count": { count: 1 }, "/api/voicemail-count": { count: 2 }, "/api/forwarded-count": { count: 3 }, "/api/call-volume": { days: [], totals: { calls: 0, cost: 0, costPerCall: null } } };
    const requestsTo = open("/dashboard", { "/api/call-logs/count": { total: 4321 }, ...counts, "/api/agents": { agents: [] } }, callLogs);
    expect(await screen.findByText("4,321", {}, { timeout: 3000 })).toBeTruthy();
    for (const path of ["/api/call-logs/count", "/api/call-connected-count", "/api/voicemail-count", "/api/forwarded-count", "/api/call-volume", "/api/agents"])
      expect(requestsTo(path)).toEqual([{ path, pageShown: false }]);
  });
});
