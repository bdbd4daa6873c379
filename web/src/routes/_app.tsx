// Pathless layout of every private route (spec 2 §2): signed-out visitors go to /auth, the page
// waits (with a spinner) while the session is restored, and children find the user in the context.
import { createFileRoute, redirect } from "@tanstack/react-router";
import { AppLayout } from "@web/components/layout/app-layout";

export const Route = createFileRoute("/_app")({
  beforeLoad: async ({ context }) => {
    const user = await context.auth.whenSettled();
    if (!user) throw redirect({ to: "/auth", replace: true });
    return { user };
  },
  // The spinner shows at once while auth loads, not after the router's default second.
  pendingMs: 0,
  component: AppLayout,
});
