import type { QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, Outlet } from "@tanstack/react-router";
import { NotFoundPage } from "@web/components/layout/not-found-page";
import { DeferredToaster } from "@web/components/ui/deferred-toaster";
import type { AuthContextValue } from "@web/lib/auth/auth-provider";

export type RouterContext = { auth: AuthContextValue; queryClient: QueryClient };

/** Every page, with the toasts beside it: inside the router, so a toast may hold a router link. */
function Root() {
  return (
    <>
      <Outlet />
      <DeferredToaster />
    </>
  );
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Root,
  notFoundComponent: NotFoundPage,
});
