// `/`: the dashboard when signed in, otherwise the sign-in screen (spec 2 §2).
import { createFileRoute, redirect } from "@tanstack/react-router";

export const Route = createFileRoute("/")({
  beforeLoad: async ({ context }) => {
    const user = await context.auth.whenSettled();
    throw redirect({ to: user ? "/dashboard" : "/auth", replace: true });
  },
  pendingMs: 0,
});
