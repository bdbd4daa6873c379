// A render error never leaves a blank page: the router's error component keeps the layouts above the
// failing page, the app's boundary catches the rest, and a toast that fails is dropped on its own.
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Link, Outlet, RouterProvider } from "@tanstack/react-router";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RENDER_ERROR_TEXT } from "@shared/messages";
import { DeferredToaster } from "@web/components/ui/deferred-toaster";
import { createAppRouter } from "@web/boot/router";
import { resetToasts, toast } from "@web/lib/toast-store";
import { AppRenderError, ErrorBoundary } from "./render-error";

let broken = true;

function Broken() {
  if (broken) throw new Error("agents.filter is not a function");
  return <p>Page content</p>;
}

/** A layout with a link, a page that renders, and one that throws while `broken`; the app's error component. */
function renderRoutes(initial: string[]) {
  const root = createRootRoute({
    component: () => (
      <div>
        <nav>
          <Link to="/">Home</Link>
        </nav>
        <main>
          <Outlet />
        </main>
        <DeferredToaster />
      </div>
    ),
  });
  const home = createRoute({ getParentRoute: () => root, path: "/", component: () => <p>Home page</p> });
  const page = createRoute({ getParentRoute: () => root, path: "/page", component: Broken });
  const router = createRouter({
    routeTree: root.addChildren([home, page]),
    history: createMemoryHistory({ initialEntries: initial }),
    // The app's own router options: the same error component.
    defaultErrorComponent: createAppRouter().options.defaultErrorComponent,
  });
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  broken = true;
  vi.spyOn(console, "error").mockImplementation(() => {});
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

afterEach(() => {
  act(() => resetToasts());
  vi.restoreAllMocks();
});

describe("a page that throws while rendering", () => {
  it("is replaced inside the layout by what failed, and Try again renders it again", async () => {
    renderRoutes(["/page"]);
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByRole("heading", { name: RENDER_ERROR_TEXT.title })).toBeTruthy();
    expect(within(alert).getByText("agents.filter is not a function")).toBeTruthy();
    // The layout above the page is still there.
    expect(screen.getByRole("link", { name: "Home" })).toBeTruthy();

    broken = false;
    fireEvent.click(within(alert).getByRole("button", { name: RENDER_ERROR_TEXT.retry }));
    expect(await screen.findByText("Page content")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("offers Go back to the page before it", async () => {
    const router = renderRoutes(["/", "/page"]);
    const alert = await screen.findByRole("alert");
    fireEvent.click(within(alert).getByRole("button", { name: RENDER_ERROR_TEXT.goBack }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(await screen.findByText("Home page")).toBeTruthy();
  });

  it("goes home when there is no page before it", async () => {
    const router = renderRoutes(["/page"]);
    const alert = await screen.findByRole("alert");
    fireEvent.click(within(alert).getByRole("button", { name: RENDER_ERROR_TEXT.goBack }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });
});

describe("a toast that throws while rendering", () => {
  it("is dropped without taking the page with it", async () => {
    renderRoutes(["/"]);
    expect(await screen.findByText("Home page")).toBeTruthy();
    const Bad = () => {
      throw new Error("bad toast");
    };
    act(() => {
      toast({ title: "Broken", description: <Bad /> });
    });
    await waitFor(() => expect(console.error).toHaveBeenCalled());
    expect(screen.getByText("Home page")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Home" })).toBeTruthy();
    // The queue was emptied, so a later toast shows as usual.
    act(() => {
      toast({ title: "Saved" });
    });
    expect(await screen.findByText("Saved")).toBeTruthy();
  });
});

describe("the app's boundary", () => {
  it("shows what failed outside the router, and Try again renders the app again", async () => {
    render(
      <ErrorBoundary fallback={(error, reset) => <AppRenderError error={error} reset={reset} />}>
        <Broken />
      </ErrorBoundary>,
    );
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("agents.filter is not a function")).toBeTruthy();
    broken = false;
    fireEvent.click(within(alert).getByRole("button", { name: RENDER_ERROR_TEXT.retry }));
    expect(await screen.findByText("Page content")).toBeTruthy();
  });
});
