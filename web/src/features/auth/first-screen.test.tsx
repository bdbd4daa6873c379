import { act, screen } from "@testing-library/react";
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import { AUTH_TEXT } from "@shared/messages";
import { appContainer } from "@web/boot/first-screen-handover";
import { AuthShell } from "./components/auth-shell";
import { PlanPanel } from "./components/plan-panel";
import { authFirstScreenHtml } from "./first-screen";

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = "";
});

/** The page as the Worker serves a bare /auth: the build's first screen inside the shell's root element. */
function paintShell(firstScreen: string) {
  document.body.innerHTML = `<div id="root">${firstScreen}</div>`;
  return document.getElementById("root")!;
}

/** The app rendering /auth over the shell's root element, as main.tsx does (its first commit is empty: the route is not loaded yet). */
async function renderAppOver(element: HTMLElement) {
  const rootRoute = createRootRoute();
  const auth = createRoute({
    getParentRoute: () => rootRoute,
    path: "/auth",
    component: () => (
      <AuthShell>
        <PlanPanel />
      </AuthShell>
    ),
  });
  const router = createRouter({ routeTree: rootRoute.addChildren([auth]), history: createMemoryHistory({ initialEntries: ["/auth"] }) });
  root = createRoot(appContainer(element));
  await act(async () => root!.render(<RouterProvider router={router} />));
  return (await screen.findByLabelText(AUTH_TEXT.emailLabel)) as HTMLInputElement;
}

describe("/auth's first screen (decision 033)", () => {
  it("is the plan panel in the sign-in frame, with its field, button and login link", () => {
    const element = paintShell(authFirstScreenHtml());
    const headings = element.querySelectorAll("h1");
    expect([...headings].map((h) => h.textContent)).toEqual([AUTH_TEXT.planHeading]);
    expect(element.textContent).toContain(AUTH_TEXT.planText);
    const field = element.querySelector<HTMLInputElement>('input[data-first-screen-field="plan-email"]')!;
    expect(field.type).toBe("email");
    expect(field.name).toBe("email");
    expect(element.querySelector(`label[for="${field.id}"]`)?.textContent).toBe(AUTH_TEXT.emailLabel);
    expect(element.querySelector("button[type=submit]")?.textContent).toBe(AUTH_TEXT.planButton);
    expect(element.querySelector("a")?.getAttribute("href")).toBe("/auth?login=1");
    expect(element.querySelectorAll("main")).toHaveLength(1);
  });

  it("keeps what a visitor typed before the app ran, and the focus, when the app renders over it", async () => {
    const element = paintShell(authFirstScreenHtml());
    const early = element.querySelector<HTMLInputElement>('input[name="email"]')!;
    early.value = "early@store.example";
    early.focus();
    const input = await renderAppOver(element);
    expect(early.isConnected).toBe(false);
    expect(input).not.toBe(early);
    expect(input.value).toBe("early@store.example");
    expect(document.activeElement).toBe(input);
  });

  it("takes nothing over when the field was left alone, or when there was no first screen", async () => {
    const input = await renderAppOver(paintShell(authFirstScreenHtml()));
    expect(input.value).toBe("");
    expect(document.activeElement).not.toBe(input);
    act(() => root?.unmount());
    const bare = await renderAppOver(paintShell(""));
    expect(bare.value).toBe("");
    expect(document.activeElement).not.toBe(bare);
  });
});
