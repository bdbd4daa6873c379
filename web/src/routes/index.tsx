// `/`: the dashboard when signed in, otherwise the sign-in screen (docs/product/screens-and-routes.md#route-table).
import { createFileRoute, redirect } from "@tanstack/react-router";

export const Route = createFileRoute("/")({
  beforeLoad: async ({ context }) => {
    const user = await context.auth.whenSettled();
    throw redirect({ to: user ? "/dashboard" : "/auth", replace: true });
  },
  pendingMs: 0,
});
