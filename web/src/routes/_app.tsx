// Pathless layout of every private route (spec 2 §2): signed-out visitors go to /auth, the page
// waits (with a spinner) while the session is restored, and children find the user in the context.
import { createFileRoute, redirect } from "@tanstack/react-router";
import { AppLayout } from "@web/components/layout/app-layout";
import { PrivatePagePending } from "@web/components/layout/first-screen";

export const Route = createFileRoute("/_app")({
  beforeLoad: async ({ context }) => {
    const user = await context.auth.whenSettled();
    if (!user) throw redirect({ to: "/auth", replace: true });
    return { user };
  },
  // The page's first screen (or a spinner) shows at once while auth loads, not after the router's
  // default second: the same markup the HTML painted (decision 030).
  pendingMs: 0,
  pendingComponent: PrivatePagePending,
  component: AppLayout,
});
