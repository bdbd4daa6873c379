// The routing rules of docs/product/screens-and-routes.md#route-table as the real route tree applies them in beforeLoad.
import type { Session } from "@supabase/supabase-js";
import type { IdentityClient } from "@web/lib/auth-client";
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryHistory } from "@tanstack/react-router";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ACCESS_TEXT, DAILY_REPORT_TEXT, NAV_TEXT, PLAN_TEXT } from "@shared/messages";
import type { CurrentUserView } from "@shared/schemas/auth";
import { planErrorDescription } from "@web/components/plans/plan-error";
import { resetToasts, toast } from "@web/lib/toast-store";
import { ApiError, setAccessToken } from "@web/lib/api";
import { AuthProvider } from "@web/lib/auth/auth-provider";
import { createQueryClient } from "@web/lib/query-client";
import { AppRouter, createAppRouter } from "./router";
import { testCustomer, testSession } from "@web/test/accounts";

const session = testSession;
const customer = testCustomer;

/** supabase-js restoring `restored` as the initial session. */
function clientWith(restored: Session | null) {
  return {
    auth: {
      onAuthStateChange: (cb: (event: string, s: Session | null) => void) => {
        queueMicrotask(() => cb("INITIAL_SESSION", restored));
        return { data: { subscription: { unsubscribe: () => {} } } };
      },
      signOut: async () => ({ error: null }),
    },
  } as unknown as IdentityClient;
}

/** `user` is the profile's answer; a promise holds it back until it settles. */
function renderAt(path: string, { restored, user }: { restored: Session | null; user?: CurrentUserView | Promise<CurrentUserView> }) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) =>
      url === "/api/profile" && user ? Response.json(await user) : Response.json({ error: "Not found", code: "not_found" }, { status: 404 }),
    ),
  );
  const client = clientWith(restored);
  const router = createAppRouter(createMemoryHistory({ initialEntries: [path] }));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthProvider getClient={async () => client} restoreAtStart={() => true}>
        <AppRouter router={router} />
      </AuthProvider>
    </QueryClientProvider>,
  );
  return router;
}

/** A phone's screen (or a wide one): whether the wide-screen media query matches. */
function phoneScreen(wide = false) {
  vi.stubGlobal("matchMedia", (media: string) => ({ matches: wide, media, addEventListener() {}, removeEventListener() {} }));
}

afterEach(() => {
  // Unmounted before the stubs go, so no query of the app reaches the real fetch.
  cleanup();
  act(() => resetToasts());
  setAccessToken(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("route guards", () => {
  it("send a signed-out visitor from a private route to /auth", async () => {
    const router = renderAt("/settings", { restored: null });
    await waitFor(() => expect(router.state.location.pathname).toBe("/auth"));
  });

  it("send / to /auth when signed out", async () => {
    const signedOut = renderAt("/", { restored: null });
    await waitFor(() => expect(signedOut.state.location.pathname).toBe("/auth"));
  });

  it("send / to /dashboard when signed in, a private page in the sidebar layout", async () => {
    const router = renderAt("/", { restored: session, user: customer });
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    // The page's first screen shows its title at once; the sidebar comes with the layout.
    expect(await screen.findByRole("heading", { level: 1, name: "Dashboard" })).toBeTruthy();
    expect((await screen.findAllByRole("link", { name: NAV_TEXT.agents })).length).toBeGreaterThan(0);
    expect(screen.getAllByRole("heading", { level: 1 })).toHaveLength(1);
  });

  it("send a signed-in user on /auth to /dashboard", async () => {
    const router = renderAt("/auth", { restored: session, user: customer });
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
  });

  it("move a private page to /auth once its user signs out", async () => {
    const router = renderAt("/settings", { restored: session, user: customer });
    const [signOut] = await screen.findAllByRole("button", { name: NAV_TEXT.signOut });
    await act(async () => fireEvent.click(signOut));
    await waitFor(() => expect(router.state.location.pathname).toBe("/auth"));
  });

  it("refuse /admin to a non-admin with 'Access Denied', on to the dashboard", async () => {
    const router = renderAt("/admin", { restored: session, user: customer });
    expect(await screen.findByText(ACCESS_TEXT.accessDenied)).toBeTruthy();
    expect(screen.getByText(ACCESS_TEXT.adminDenied)).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
  });

  it("show a private page as soon as its guard passes, without the router's half-second minimum for a pending screen", async () => {
    // The first screen is the pending screen (decision 030): holding it 500 ms after the session is
    // known only delays the page (decision 035).
    vi.useFakeTimers();
    try {
      let answer!: (user: CurrentUserView) => void;
      renderAt("/settings", { restored: session, user: new Promise<CurrentUserView>((resolve) => (answer = resolve)) });
      // The pending first screen is up (its title, no sidebar links) while the profile is asked for.
      await act(() => vi.advanceTimersByTimeAsync(20));
      expect(screen.getByRole("heading", { level: 1 })).toBeTruthy();
      expect(screen.queryAllByRole("link", { name: NAV_TEXT.agents })).toHaveLength(0);
      await act(async () => answer(customer));
      await act(() => vi.advanceTimersByTimeAsync(50));
      expect(screen.getAllByRole("link", { name: NAV_TEXT.agents }).length).toBeGreaterThan(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("open the phone's navigation drawer from the menu button, give focus back on close, and follow a link in it", async () => {
    phoneScreen();
    const router = renderAt("/settings", { restored: session, user: customer });
    // The button is the layout's own; the drawer's code (Radix Dialog) loads on the first press.
    const menu = await screen.findByRole("button", { name: NAV_TEXT.openMenu });
    expect(menu.getAttribute("aria-expanded")).toBe("false");
    menu.focus();
    fireEvent.click(menu);
    const drawer = await screen.findByRole("dialog", { name: NAV_TEXT.mainNavigation });
    expect(menu.getAttribute("aria-expanded")).toBe("true");
    fireEvent.click(within(drawer).getByRole("button", { name: NAV_TEXT.closeMenu }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(document.activeElement).toBe(menu);

    fireEvent.click(menu);
    const again = await screen.findByRole("dialog", { name: NAV_TEXT.mainNavigation });
    await act(async () => fireEvent.click(within(again).getByRole("link", { name: NAV_TEXT.dashboard })));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("put the one alert bell in the top bar on a phone and in the sidebar on a wide screen", async () => {
    phoneScreen();
    renderAt("/settings", { restored: session, user: customer });
    await screen.findByRole("button", { name: NAV_TEXT.openMenu });
    expect(await screen.findAllByTestId("alert-bell")).toHaveLength(1);
    expect(screen.getByTestId("alert-bell").closest("header")).not.toBeNull();
    expect(screen.queryByRole("navigation", { name: NAV_TEXT.mainNavigation })).toBeNull();
    cleanup();
    phoneScreen(true);
    renderAt("/settings", { restored: session, user: customer });
    expect(await screen.findByRole("navigation", { name: NAV_TEXT.mainNavigation })).toBeTruthy();
    expect(await screen.findAllByTestId("alert-bell")).toHaveLength(1);
    expect(screen.getByTestId("alert-bell").closest("aside")).not.toBeNull();
    expect(screen.queryByRole("button", { name: NAV_TEXT.openMenu })).toBeNull();
  });

  it("offer the Daily Report Generator in the sidebar to store staff, who may use it, and to no one else", async () => {
    const router = renderAt("/settings", { restored: session, user: { ...customer, shopwindows_info: true } });
    const [link] = await screen.findAllByRole("link", { name: NAV_TEXT.dailyReport });
    await act(async () => fireEvent.click(link));
    await waitFor(() => expect(router.state.location.pathname).toBe("/daily-report"));
    expect(await screen.findByRole("heading", { level: 1, name: DAILY_REPORT_TEXT.title })).toBeTruthy();
  });

  it("keep the Daily Report out of the sidebar of an account without shopwindows_info", async () => {
    renderAt("/settings", { restored: session, user: customer });
    expect((await screen.findAllByRole("link", { name: NAV_TEXT.agents })).length).toBeGreaterThan(0);
    expect(screen.queryAllByRole("link", { name: NAV_TEXT.dailyReport })).toHaveLength(0);
  });

  it("open /admin for an admin", async () => {
    const router = renderAt("/admin", { restored: session, user: { ...customer, is_admin: true } });
    expect(await screen.findByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeTruthy();
    expect(router.state.location.pathname).toBe("/admin");
    expect(screen.queryByText(ACCESS_TEXT.accessDenied)).toBeNull();
  });
});

describe("a plan refusal's toast", () => {
  const refusal = () =>
    new ApiError(
      402,
      "Payment Required",
      JSON.stringify({ error: PLAN_TEXT.subscriptionRequired, code: "subscription_required", upgradeUrl: "/buy" }),
    );

  it("shows its Upgrade link on the page it was raised on, and the link opens /buy", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const router = renderAt("/settings", { restored: session, user: customer });
    expect((await screen.findAllByRole("link", { name: NAV_TEXT.agents })).length).toBeGreaterThan(0);
    act(() => {
      toast({ variant: "destructive", title: "Failed to activate agent in VAPI.AI. Please try again.", description: planErrorDescription(refusal()) });
    });
    const notifications = await screen.findByRole("region", { name: /notifications/i });
    const upgrade = await within(notifications).findByRole("link", { name: PLAN_TEXT.upgrade });
    // The page and its navigation are still on screen beside the toast.
    expect(screen.getAllByRole("link", { name: NAV_TEXT.agents }).length).toBeGreaterThan(0);
    expect(within(notifications).getByText(PLAN_TEXT.subscriptionRequired)).toBeTruthy();
    expect(upgrade.getAttribute("href")).toBe("/buy");
    await act(async () => fireEvent.click(upgrade));
    await waitFor(() => expect(router.state.location.pathname).toBe("/buy"));
  });
});
