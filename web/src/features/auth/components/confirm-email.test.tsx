// "I've Confirmed" (docs/product/dashboard-and-counts.md#sections-and-who-sees-them) shows 'Email Confirmed!' only for an address that is confirmed: it
// asks the server with the account id this tab's sign-up answered with, and tells an unconfirmed
// address so.
import type { IdentityClient } from "@web/lib/auth-client";
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from "@tanstack/react-router";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AUTH_TEXT } from "@shared/messages";
import { createQueryClient } from "@web/lib/query-client";
import { AuthProvider } from "@web/lib/auth/auth-provider";
import { rememberSignUp } from "@web/lib/auth/sign-up-proof";
import { authSearchSchema } from "../auth-search";
import { ConfirmEmail } from "./confirm-email";

const signedOutClient = {
  auth: {
    onAuthStateChange: (cb: (event: string, session: null) => void) => {
      queueMicrotask(() => cb("INITIAL_SESSION", null));
      return { data: { subscription: { unsubscribe: () => {} } } };
    },
  },
} as unknown as IdentityClient;

const EMAIL = "new@store.example";
const USER_ID = "3f2b8c1e-6a4d-4e8f-9b7a-2c5d1e0f4a6b";

/** The server: the configuration, and the confirmation check answering `confirmed` (or failing). */
function stubServer(confirmed: boolean | "fails") {
  const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
    if (url.startsWith("/api/config")) return Response.json({ auth: { mode: "local", url: "http://localhost", anonKey: "anon" }, localMailbox: false });
    if (url === "/api/admin/public/email-confirmed") {
      if (confirmed === "fails") return Response.json({ error: "Too many requests", code: "rate_limited" }, { status: 429 });
      return Response.json({ success: true, confirmed });
    }
    return new Response(null, { status: 404 });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

function renderConfirmScreen() {
  const root = createRootRoute({ component: Outlet });
  const auth = createRoute({
    getParentRoute: () => root,
    path: "/auth",
    validateSearch: authSearchSchema,
    component: function AuthRoute() {
      const search = auth.useSearch();
      if (search.confirmed) return <p>{AUTH_TEXT.confirmedTitle}</p>;
      if (search.tab) return <p>tab {search.tab}</p>;
      return <ConfirmEmail email={search.email ?? ""} />;
    },
  });
  const router = createRouter({
    routeTree: root.addChildren([auth]),
    history: createMemoryHistory({ initialEntries: [`/auth?confirm=1&email=${encodeURIComponent(EMAIL)}`] }),
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthProvider getClient={async () => signedOutClient}>
        <RouterProvider router={router} />
      </AuthProvider>
    </QueryClientProvider>,
  );
  return router;
}

async function pressIveConfirmed() {
  const button = await screen.findByRole("button", { name: AUTH_TEXT.iveConfirmed });
  await act(async () => fireEvent.click(button));
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

describe("ConfirmEmail: I've Confirmed", () => {
  it("tells an unconfirmed address so and stays, instead of showing 'Email Confirmed!'", async () => {
    rememberSignUp(EMAIL, USER_ID);
    const fetchMock = stubServer(false);
    const router = renderConfirmScreen();
    await pressIveConfirmed();
    expect((await screen.findByRole("alert")).textContent).toBe(AUTH_TEXT.notConfirmedYet);
    expect(router.state.location.search).toEqual({ confirm: 1, email: EMAIL });
    expect(screen.queryByText(AUTH_TEXT.confirmedTitle)).toBeNull();
    const asked = fetchMock.mock.calls.find(([url]) => url === "/api/admin/public/email-confirmed");
    expect(asked?.[1]?.method).toBe("POST");
    expect(JSON.parse(String(asked?.[1]?.body))).toEqual({ email: EMAIL, userId: USER_ID });
  });

  it("shows 'Email Confirmed!' once the server says the address is confirmed", async () => {
    rememberSignUp(EMAIL, USER_ID);
    stubServer(true);
    const router = renderConfirmScreen();
    await pressIveConfirmed();
    await waitFor(() => expect(router.state.location.search).toEqual({ confirmed: 1, email: EMAIL }));
    expect(await screen.findByText(AUTH_TEXT.confirmedTitle)).toBeTruthy();
  });

  it("says the check failed when the server cannot be asked, and stays", async () => {
    rememberSignUp(EMAIL, USER_ID);
    stubServer("fails");
    const router = renderConfirmScreen();
    await pressIveConfirmed();
    expect((await screen.findByRole("alert")).textContent).toBe(AUTH_TEXT.confirmationCheckFailed);
    expect(router.state.location.search).toEqual({ confirm: 1, email: EMAIL });
  });

  it("without this tab's sign-up to ask with, sends the person to sign in (which tells an unconfirmed address), never to 'Email Confirmed!'", async () => {
    rememberSignUp("someone-else@store.example", USER_ID);
    const fetchMock = stubServer(true);
    const router = renderConfirmScreen();
    await pressIveConfirmed();
    await waitFor(() => expect(router.state.location.search).toEqual({ tab: "signin", email: EMAIL }));
    expect(fetchMock.mock.calls.some(([url]) => url === "/api/admin/public/email-confirmed")).toBe(false);
  });
});
