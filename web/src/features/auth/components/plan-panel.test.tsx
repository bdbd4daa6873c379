import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AUTH_TEXT } from "@shared/messages";
import { authSearchSchema } from "../auth-search";
import { PlanPanel } from "./plan-panel";

function renderAtAuth(at = "/auth") {
  const root = createRootRoute({ component: Outlet });
  const auth = createRoute({
    getParentRoute: () => root,
    path: "/auth",
    validateSearch: authSearchSchema,
    component: function Panel() {
      const search = auth.useSearch();
      return <PlanPanel defaultEmail={search.email} submitted={search.submitted === 1} />;
    },
  });
  const buy = createRoute({ getParentRoute: () => root, path: "/buy", component: () => <p>plans page</p> });
  const router = createRouter({
    routeTree: root.addChildren([auth, buy]),
    history: createMemoryHistory({ initialEntries: [at] }),
  });
  render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  return router;
}

async function submitEmail(email: string) {
  const input = await screen.findByLabelText(AUTH_TEXT.emailLabel);
  fireEvent.change(input, { target: { value: email } });
  await act(async () => {
    fireEvent.click(screen.getByRole("button", { name: AUTH_TEXT.planButton }));
  });
}

function stubExistence(answer: () => Promise<Response>) {
  const fetchMock = vi.fn((_url: string, _init?: RequestInit) => answer());
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe("PlanPanel", () => {
  it("shows the plan-discovery texts and a required email input", async () => {
    renderAtAuth();
    expect(await screen.findByText(AUTH_TEXT.planHeading)).toBeTruthy();
    expect(screen.getByText(AUTH_TEXT.planText)).toBeTruthy();
    const input = screen.getByLabelText(AUTH_TEXT.emailLabel) as HTMLInputElement;
    expect(input.required).toBe(true);
    expect(input.type).toBe("email");
    expect(screen.getByRole("link", { name: AUTH_TEXT.planLoginLink }).getAttribute("href")).toBe("/auth?login=1");
  });

  it("sends a known email to the login view with the email prefilled", async () => {
    const fetchMock = stubExistence(async () => Response.json({ success: true, exists: true }));
    const router = renderAtAuth();
    await submitEmail("owner@store.example");
    await waitFor(() => expect(router.state.location.search).toEqual({ login: 1, email: "owner@store.example" }));
    expect(router.state.location.pathname).toBe("/auth");
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe("/api/admin/public/user-exists");
    expect(init?.method).toBe("POST");
    expect(JSON.parse(String(init?.body))).toEqual({ email: "owner@store.example" });
  });

  it("sends an unknown email to /buy", async () => {
    stubExistence(async () => Response.json({ success: true, exists: false }));
    const router = renderAtAuth();
    await submitEmail("visitor@example.com");
    await waitFor(() => expect(router.state.location.pathname).toBe("/buy"));
    expect(router.state.location.search).toEqual({ email: "visitor@example.com" });
    expect(await screen.findByText("plans page")).toBeTruthy();
  });

  it("goes on with an email the HTML's form sent before the app ran, once, in place of that address", async () => {
    const fetchMock = stubExistence(async () => Response.json({ success: true, exists: true }));
    const router = renderAtAuth("/auth?email=owner%40store.example&submitted=1");
    await waitFor(() => expect(router.state.location.search).toEqual({ login: 1, email: "owner@store.example" }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(router.history.length).toBe(1);

    // The flag without an email: the panel stays, and nothing is asked.
    const quiet = stubExistence(async () => Response.json({ success: true, exists: false }));
    const stays = renderAtAuth("/auth?submitted=1");
    await screen.findAllByText(AUTH_TEXT.planHeading);
    expect(stays.state.location.pathname).toBe("/auth");
    expect(quiet).not.toHaveBeenCalled();
  });

  it("sends the visitor to /buy when the check fails", async () => {
    stubExistence(async () => {
      throw new TypeError("Failed to fetch");
    });
    const router = renderAtAuth();
    await submitEmail("visitor@example.com");
    await waitFor(() => expect(router.state.location.pathname).toBe("/buy"));
    expect(router.state.location.search).toEqual({ email: "visitor@example.com" });
  });

  it("sends the visitor to /buy on an error answer or an answer without success", async () => {
    stubExistence(async () => new Response('{"error":"Too many requests"}', { status: 429 }));
    const router = renderAtAuth();
    await submitEmail("visitor@example.com");
    await waitFor(() => expect(router.state.location.pathname).toBe("/buy"));

    stubExistence(async () => Response.json({ success: false, exists: true }));
    const again = renderAtAuth();
    await submitEmail("other@example.com");
    await waitFor(() => expect(again.state.location.pathname).toBe("/buy"));
  });
});
