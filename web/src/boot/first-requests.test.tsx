// A signed-in first load of /dashboard (decisions 062 and 064): every section's first figures are asked
// for with the stored token beside the profile, not after it, in one batch request, and the page then
// shows those answers without asking again.
import type { Session } from "@supabase/supabase-js";
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryHistory } from "@tanstack/react-router";
import { render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DASHBOARD_TEXT } from "@shared/messages";
import type { CurrentUserView } from "@shared/schemas/auth";
import { agentsQueryOptions } from "@web/api/agents";
import { CALL_LOGS_PAGE_SIZE, callLogsQueryOptions } from "@web/api/call-logs";
import { firstLoadQueries } from "@web/features/dashboard/api/first-load";
import { firstLoadUrls as firstLoadUrlsOf } from "@web/features/dashboard/api/first-load-urls";
import type { IdentityClient } from "@web/lib/auth-client";
import { setAccessToken } from "@web/lib/api";
import { AuthProvider } from "@web/lib/auth/auth-provider";
import { createQueryClient } from "@web/lib/query-client";
import { sendEarlyRequests } from "./early-requests";
import { startFirstRequests } from "./first-requests";
import { AppRouter, createAppRouter } from "./router";
import { testCustomer } from "@web/test/accounts";

// 15:00 UTC on 11 March 2026 is 11:00 in New York: Call Logs on 2026-03-11, the reports on 2026-03-10.
const NOW = new Date("2026-03-11T15:00:00Z");
const base64Url = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
const jwt = (appMetadata: Record<string, unknown>) => `${base64Url({ alg: "HS256" })}.${base64Url({ sub: "u1", app_metadata: appMetadata })}.signature`;
const STAFF_TOKEN = jwt({ provider: "email", shopwindows_info: true, call_app: true });
const staff: CurrentUserView = { ...testCustomer, shopwindows_info: true, call_app: true };

/** A read the API was asked for: alone, or carried by a batch (`batched`). */
type Sent = { url: string; token: string | null; profileAnswered: boolean; batched: boolean };

/**
 * The API: the profile answers only when `answerProfile()` is called; every other path answers at
 * once with a count of 7 (a shape each section reads); each read notes its token and whether the
 * profile had answered when it left. POST /api/batch answers each read it carries the same way
 * (with `batch: "fails"`, it answers 404, as a server without it would).
 */
function stubApi(profile: CurrentUserView, { batch = "answers" }: { batch?: "answers" | "fails" } = {}) {
  const sent: Sent[] = [];
  const batches: string[][] = [];
  let profileAnswered = false;
  let answer!: () => void;
  const profileAnswer = new Promise<void>((resolve) => (answer = resolve));
  const read = async (url: string): Promise<Response> => {
    const { pathname } = new URL(url, "http://app.test");
    if (pathname === "/api/profile") {
        await profileAnswer;
        profileAnswered = true;
        return Response.json(profile);
      }
    if (pathname === "/api/agents") return Response.json({ agents: [] });
    if (pathname === "/api/usage-stats") return Response.json({ callsThisMonth: 0, minutesThisMonth: 0, minuteLimit: 5000, agents: 0, agentLimit: 25, numbers: 0, numberLimit: 9, plan: "pro", planState: "subscribed", planRequired: false });
    if (pathname === "/api/call-logs/count") return Response.json({ total: 7 });
    if (pathname === "/api/daily-reports") return Response.json({ reports: [], nextCursor: null });
    if (pathname === "/api/call-volume") return Response.json({ days: [], totals: { calls: 0, cost: 0, costPerCall: null } });
    if (pathname === "/api/store-funnel") return Response.json({ stores: [], unassigned: { aiCalls: 0, cost: 0 } });
    if (pathname === "/api/lead-counts/summary") return Response.json({ totalSubmissions: 7, byStore: {} });
    if (pathname.endsWith("-options") || pathname.endsWith("/options")) return Response.json({ stores: [], bookedBy: [], types: [], users: [], numbers: [] });
    if (pathname.endsWith("status-count") || pathname.endsWith("category-count")) return Response.json({ counts: {} });
    return Response.json({ count: 7 });
  };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const token = new Headers(init?.headers).get("Authorization")?.replace(/^Bearer /, "") ?? null;
      if (url === "/api/batch") {
        if (batch === "fails") return new Response("Not found", { status: 404 });
        const { requests } = JSON.parse(String(init?.body)) as { requests: string[] };
        batches.push(requests);
        for (const r of requests) sent.push({ url: r, token, profileAnswered, batched: true });
        const responses = await Promise.all(
          requests.map(async (r) => {
            const res = await read(r);
            return { status: res.status, headers: { "content-type": "application/json" }, body: await res.text() };
          }),
        );
        return Response.json({ responses });
      }
      sent.push({ url, token, profileAnswered, batched: false });
      return read(url);
    }),
  );
  return { sent, batches, answerProfile: () => answer() };
}

const signedIn = (token: string) =>
  ({
    auth: {
      onAuthStateChange: (cb: (event: string, s: Session | null) => void) => {
        queueMicrotask(() => cb("INITIAL_SESSION", { access_token: token, refresh_token: "r", user: { id: "u1" } } as unknown as Session));
        return { data: { subscription: { unsubscribe: () => {} } } };
      },
      signOut: async () => ({ error: null }),
    },
  }) as unknown as IdentityClient;

/** Loads /dashboard as the page does: the first requests, handed to the query client, then the app with the stored session. */
function loadDashboard(token: string) {
  const early = sendEarlyRequests("/dashboard", token);
  const queryClient = createQueryClient();
  startFirstRequests(queryClient, early);
  render(
    <QueryClientProvider client={queryClient}>
      <AuthProvider getClient={async () => signedIn(token)} restoreAtStart={() => true}>
        <AppRouter router={createAppRouter(createMemoryHistory({ initialEntries: ["/dashboard"] }))} />
      </AuthProvider>
    </QueryClientProvider>,
  );
}

// The app's layout opens the live feed too (its ticket); what is compared here is the dashboard's own.
const sectionUrls = (sent: Sent[]) => sent.filter((r) => r.url !== "/api/profile" && !r.url.startsWith("/api/live/")).map((r) => r.url);
const firstLoadUrls = (viewer: Pick<CurrentUserView, "id" | "shopwindows_info" | "call_app">) => firstLoadQueries(viewer, NOW).map((q) => String(q.queryKey[0]));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
  setAccessToken(null);
  vi.unstubAllGlobals();
});

describe("a first load of /dashboard", () => {
  it("asks for every section's figures with the stored token before the profile has answered", async () => {
    const { sent, batches } = stubApi(staff);
    loadDashboard(STAFF_TOKEN);
    const expected = firstLoadUrls(staff);
    expect(expected).toHaveLength(20);
    // In the caller's task, as one request: nothing waits for the entry's evaluation to end.
    await vi.waitFor(() => expect(batches).toHaveLength(1));
    expect([...batches[0]].sort()).toEqual([...expected].sort());
    expect(sectionUrls(sent).sort()).toEqual([...expected].sort());
    expect(sent.filter((r) => r.url !== "/api/profile").every((r) => r.batched)).toBe(true);
    expect(sent.filter((r) => r.url !== "/api/profile").every((r) => r.token === STAFF_TOKEN && !r.profileAnswered)).toBe(true);
    expect(sent.findIndex((r) => r.url === "/api/profile")).toBe(0);
    // Nothing of the page has rendered: it waits for the profile.
    expect(screen.queryByRole("region", { name: DASHBOARD_TEXT.callLogs })).toBeNull();
  });

  it("then shows those answers in every section without asking for any of them again", async () => {
    const { sent, answerProfile } = stubApi(staff);
    loadDashboard(STAFF_TOKEN);
    await vi.waitFor(() => expect(sectionUrls(sent)).toHaveLength(20));
    answerProfile();
    const callLogs = await screen.findByRole("region", { name: DASHBOARD_TEXT.callLogs }, { timeout: 5000 });
    expect(await within(callLogs).findAllByText("7")).toHaveLength(4);
    expect(await within(await screen.findByRole("region", { name: DASHBOARD_TEXT.leads })).findByText("7")).toBeTruthy();
    expect(within(screen.getByRole("region", { name: DASHBOARD_TEXT.aircall })).getAllByText("7")).toHaveLength(4);
    const urls = sectionUrls(sent);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls.sort()).toEqual(firstLoadUrls(staff).sort());
    expect(sent.filter((r) => r.url === "/api/profile")).toHaveLength(1);
  });

  it("asks only for the sections the token's flags show; the profile's other sections ask when they render", async () => {
    const { sent, answerProfile } = stubApi(staff);
    loadDashboard(jwt({ shopwindows_info: true }));
    await vi.waitFor(() => expect(sectionUrls(sent)).toHaveLength(firstLoadUrls({ ...staff, call_app: false }).length));
    expect(sectionUrls(sent).some((u) => u.includes("aircall"))).toBe(false);
    answerProfile();
    const aircall = await screen.findByRole("region", { name: DASHBOARD_TEXT.aircall }, { timeout: 5000 });
    expect(await within(aircall).findAllByText("7")).toHaveLength(4);
    expect(sectionUrls(sent).sort()).toEqual(firstLoadUrls(staff).sort());
  });

  it("asks for each section's figures alone when the batch fails, and shows them", async () => {
    const { sent, batches, answerProfile } = stubApi(staff, { batch: "fails" });
    loadDashboard(STAFF_TOKEN);
    await vi.waitFor(() => expect(sectionUrls(sent)).toHaveLength(20));
    expect(batches).toHaveLength(0);
    expect(sent.every((r) => !r.batched)).toBe(true);
    answerProfile();
    const callLogs = await screen.findByRole("region", { name: DASHBOARD_TEXT.callLogs }, { timeout: 5000 });
    expect(await within(callLogs).findAllByText("7")).toHaveLength(4);
    expect(sectionUrls(sent).sort()).toEqual(firstLoadUrls(staff).sort());
  });

  it("starts nothing but the profile on a page without a first read, and nothing without a token that names its account", () => {
    const { sent } = stubApi(staff);
    const queryClient = createQueryClient();
    startFirstRequests(queryClient, sendEarlyRequests("/settings", STAFF_TOKEN));
    startFirstRequests(queryClient, sendEarlyRequests("/dashboard", "not-a-jwt"));
    startFirstRequests(queryClient, sendEarlyRequests("/dashboard", null));
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
    return vi.waitFor(() => expect(sent.map((r) => r.url)).toEqual(["/api/profile", "/api/profile"]));
  });
});

describe("a page whose largest paint is one read", () => {
  it("asks for /agent-settings' agents and /call-logs' first page beside the profile, and the pages' queries take the answers", async () => {
    const { sent, answerProfile } = stubApi(staff);
    const queryClient = createQueryClient();
    startFirstRequests(queryClient, sendEarlyRequests("/agent-settings", STAFF_TOKEN));
    startFirstRequests(queryClient, sendEarlyRequests("/call-logs/", STAFF_TOKEN));
    // Sent before the profile has answered, with the stored token.
    expect(sent.filter((r) => r.url !== "/api/profile").map((r) => [r.url, r.token, r.profileAnswered])).toEqual([
      ["/api/agents", STAFF_TOKEN, false],
      [`/api/call-logs?limit=${CALL_LOGS_PAGE_SIZE}`, STAFF_TOKEN, false],
    ]);
    answerProfile();
    await vi.waitFor(() => expect(queryClient.getQueryData(agentsQueryOptions(staff.id).queryKey)).toEqual({ agents: [] }));
    await vi.waitFor(() => expect(queryClient.getQueryData(callLogsQueryOptions().queryKey)?.pages).toHaveLength(1));
    // The pages' own queries join those answers instead of asking again.
    await queryClient.prefetchQuery(agentsQueryOptions(staff.id));
    await queryClient.prefetchInfiniteQuery(callLogsQueryOptions());
    expect(sent.filter((r) => r.url !== "/api/profile")).toHaveLength(2);
  });
});

describe("the first requests", () => {
  it("sends the profile and the sections' batch in the caller's task, and handing them over sends nothing more", async () => {
    const { sent, batches } = stubApi(staff);
    const early = sendEarlyRequests("/dashboard", STAFF_TOKEN);
    // Both requests have left before the query client or the app exists.
    expect(vi.mocked(fetch).mock.calls.map(([url]) => String(url))).toEqual(["/api/profile", "/api/batch"]);
    const queryClient = createQueryClient();
    startFirstRequests(queryClient, early);
    await vi.waitFor(() => expect(queryClient.getQueryData(firstLoadQueries(staff, NOW)[0].queryKey)).toEqual({ total: 7 }));
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(2);
    expect(batches).toHaveLength(1);
    expect(sent.filter((r) => !r.batched).map((r) => r.url)).toEqual(["/api/profile"]);
  });

  it("asks for the first render's queries, in their order, for every set of flags and on either side of New York's midnight", () => {
    // 03:59:59.999 UTC on 12 March is 23:59:59.999 in New York (daylight time) on the 11th; a ms later the 12th.
    const moments = [NOW, new Date("2026-03-12T03:59:59.999Z"), new Date("2026-03-12T04:00:00Z"), new Date("2026-11-01T05:30:00Z")];
    for (const now of moments)
      for (const shopwindows_info of [false, true])
        for (const call_app of [false, true]) {
          const viewer = { id: "u1", shopwindows_info, call_app };
          const urls = firstLoadUrlsOf(viewer, now);
          expect(urls).toEqual(firstLoadQueries(viewer, now).map((q) => String(q.queryKey[0])));
          expect(urls.length).toBe(8 + (shopwindows_info ? 7 : 0) + (call_app ? 5 : 0));
        }
  });
});
