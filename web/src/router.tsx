import { createRouter } from "@tanstack/react-router";
import { NotFoundPage } from "@web/components/layout/not-found-page";
import { PageSpinner } from "@web/components/ui/spinner";
import { routeTree } from "./route-tree.gen";

export function createAppRouter() {
  return createRouter({
    routeTree,
    // `auth` is supplied by <RouterProvider context> once the auth provider has rendered (main.tsx).
    // No query client in the context: no route has a loader (docs/decisions/006).
    context: { auth: undefined! },
    defaultPendingComponent: () => <PageSpinner />,
    defaultNotFoundComponent: NotFoundPage,
    scrollRestoration: true,
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
