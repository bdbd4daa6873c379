// Pathless layout of every private route (docs/product/screens-and-routes.md#route-table): signed-out visitors go to /auth, the page
// waits (with a spinner) while the session is restored, and children find the user in the context.
import { createFileRoute, redirect } from "@tanstack/react-router";
import { AppLayout } from "@web/components/layout/app-layout";
import { PrivatePagePending } from "@web/boot/first-screen";

export const Route = createFileRoute("/_app")({
  beforeLoad: async ({ context }) => {
    const user = await context.auth.whenSettled();
    if (!user) throw redirect({ to: "/auth", replace: true });
    return { user };
  },
  // The page's first screen (or a spinner) shows at once while auth loads, not after the router's
  // default second: the same markup the HTML painted (decision 030).
  pendingMs: 0,
  // ...and the page takes its place as soon as it can: the router's default keeps a pending screen
  // at least 500 ms against a spinner's flash, but this one is the page's own frame and title, so
  // the wait would only delay the page's data on screen (decision 035).
  pendingMinMs: 0,
  pendingComponent: PrivatePagePending,
  component: AppLayout,
});
