import type { QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, Outlet } from "@tanstack/react-router";
import { NotFoundPage } from "@web/components/layout/not-found-page";
import type { AuthContextValue } from "@web/lib/auth/auth-provider";

export type RouterContext = { auth: AuthContextValue; queryClient: QueryClient };

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
});
