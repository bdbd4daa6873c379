import type { IdentityClient } from "@web/lib/auth-client";
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from "@tanstack/react-router";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AUTH_TEXT } from "@shared/messages";
import { createQueryClient } from "@web/lib/query-client";
import { AuthProvider } from "@web/lib/auth/auth-provider";
import { authSearchSchema } from "../auth-search";
import { LoginPanel } from "./login-panel";

/** Enough of supabase-js for the provider: no session. */
const signedOutClient = {
  auth: {
    onAuthStateChange: (cb: (event: string, session: null) => void) => {
      queueMicrotask(() => cb("INITIAL_SESSION", null));
      return { data: { subscription: { unsubscribe: () => {} } } };
    },
  },
} as unknown as IdentityClient;

/** /auth shows the login panel with ?login=1 and the plan panel without it. */
function renderAt(entries: string[]) {
  const root = createRootRoute({ component: Outlet });
  const auth = createRoute({
    getParentRoute: () => root,
    path: "/auth",
    validateSearch: authSearchSchema,
    component: function AuthRoute() {
      return auth.useSearch().login ? <LoginPanel defaultEmail="" /> : <p>plan panel</p>;
    },
  });
  const elsewhere = createRoute({ getParentRoute: () => root, path: "/pricing", component: () => <p>pricing page</p> });
  const router = createRouter({
    routeTree: root.addChildren([auth, elsewhere]),
    history: createMemoryHistory({ initialEntries: entries, initialIndex: entries.length - 1 }),
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

async function clickGoBack() {
  const button = await screen.findByRole("button", { name: AUTH_TEXT.goBack });
  await act(async () => fireEvent.click(button));
}

afterEach(() => vi.restoreAllMocks());

describe("LoginPanel 'Go back'", () => {
  it("returns to the previous page when there is a referrer", async () => {
    vi.spyOn(document, "referrer", "get").mockReturnValue("https://partner.example/pricing");
    vi.spyOn(window.history, "length", "get").mockReturnValue(2);
    const router = renderAt(["/pricing", "/auth?login=1"]);
    await clickGoBack();
    await waitFor(() => expect(router.state.location.pathname).toBe("/pricing"));
    expect(await screen.findByText("pricing page")).toBeTruthy();
  });

  it("shows the plan panel when there is no referrer, even with a page behind this one in the app", async () => {
    vi.spyOn(document, "referrer", "get").mockReturnValue("");
    vi.spyOn(window.history, "length", "get").mockReturnValue(2);
    const router = renderAt(["/pricing", "/auth?login=1"]);
    await clickGoBack();
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(await screen.findByText("plan panel")).toBeTruthy();
  });

  it("shows the plan panel when a referrer exists but nothing is behind this page (opened in a new tab)", async () => {
    vi.spyOn(document, "referrer", "get").mockReturnValue("https://partner.example/pricing");
    vi.spyOn(window.history, "length", "get").mockReturnValue(1);
    const router = renderAt(["/auth?login=1"]);
    await clickGoBack();
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(await screen.findByText("plan panel")).toBeTruthy();
  });
});

describe("LoginPanel 'Forgot password?'", () => {
  it("opens the recovery request with the email typed so far", async () => {
    const router = renderAt(["/auth?login=1"]);
    const email = await screen.findByLabelText(AUTH_TEXT.emailLabel);
    await act(async () => fireEvent.input(email, { target: { value: "owner@example.com" } }));
    const link = await screen.findByRole("link", { name: AUTH_TEXT.forgotPassword });
    await act(async () => fireEvent.click(link));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ forgot: 1, email: "owner@example.com" }));
  });
});
