import { useQueryClient } from "@tanstack/react-query";
import { createRouter, RouterProvider } from "@tanstack/react-router";
import { useEffect, useRef } from "react";
import { NotFoundPage } from "@web/components/layout/not-found-page";
import { RouteRenderError } from "@web/components/layout/render-error";
import { PageSpinner } from "@web/components/ui/spinner";
import { useAuth } from "@web/lib/auth/auth-provider";
import { routeTree } from "../route-tree.gen";

export function createAppRouter(history?: Parameters<typeof createRouter>[0]["history"]) {
  return createRouter({
    routeTree,
    history,
    // `auth` and the query client (for the loaders that start a page's read early, decision 006)
    // are supplied by <AppRouter> once the providers have rendered.
    context: { auth: undefined!, queryClient: undefined! },
    defaultPendingComponent: () => <PageSpinner />,
    defaultNotFoundComponent: NotFoundPage,
    // A page that throws while rendering is replaced by this, inside the layouts above it.
    defaultErrorComponent: RouteRenderError,
    scrollRestoration: true,
  });
}

export type AppRouterInstance = ReturnType<typeof createAppRouter>;

/** The router with the current auth in its context; inside <AuthProvider>. */
export function AppRouter({ router }: { router: AppRouterInstance }) {
  const auth = useAuth();
  const queryClient = useQueryClient();
  const first = useRef(true);
  // Guards run in beforeLoad, i.e. on navigation only: a sign-in, sign-out or a changed profile must
  // run them again, so /auth moves on to the dashboard and a private page moves to /auth.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void router.invalidate();
  }, [router, auth.user, auth.isLoading]);
  return <RouterProvider router={router} context={{ auth, queryClient }} />;
}

declare module "@tanstack/react-router" {
  interface Register {
    router: AppRouterInstance;
  }
}
