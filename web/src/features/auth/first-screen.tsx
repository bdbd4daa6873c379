// /auth's first screen, painted from the HTML before any JavaScript has run (decision 033): the
// frame and the plan panel a visitor meets first, rendered by the same components at build time
// (scripts/vite/first-screens.ts). The Worker writes it into the shell's root element for a bare
// /auth; the app then renders the same panel over it and keeps what was typed in its field.
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterContextProvider } from "@tanstack/react-router";
import { renderToStaticMarkup } from "react-dom/server";
import { AuthShell } from "./components/auth-shell";
import { PlanPanel } from "./components/plan-panel";

/** The markup of /auth without search parameters: the shell around the plan panel. */
export function authFirstScreenHtml(): string {
  // Only the panel's link needs a router: one that knows /auth builds its href.
  const rootRoute = createRootRoute();
  const routeTree = rootRoute.addChildren([createRoute({ getParentRoute: () => rootRoute, path: "/auth" })]);
  const router = createRouter({ routeTree, history: createMemoryHistory({ initialEntries: ["/auth"] }) });
  return renderToStaticMarkup(
    <RouterContextProvider router={router}>
      <AuthShell>
        <PlanPanel />
      </AuthShell>
    </RouterContextProvider>,
  );
}
