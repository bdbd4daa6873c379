// Admin only (docs/product/screens-and-routes.md#roles-and-flags): anyone else goes to / with an 'Access Denied' toast.
import { createFileRoute, redirect } from "@tanstack/react-router";
import { ACCESS_TEXT } from "@shared/messages";
import { toast } from "@web/lib/toast-store";
import { AdminPage } from "@web/features/admin/components/admin-page";

export const Route = createFileRoute("/_app/admin")({
  beforeLoad: ({ context, preload }) => {
    if (context.user.is_admin) return;
    // A preload is no visit: only a real one is told why it went nowhere.
    if (!preload) toast({ variant: "destructive", title: ACCESS_TEXT.accessDenied, description: ACCESS_TEXT.adminDenied });
    throw redirect({ to: "/", replace: true });
  },
  component: AdminRoute,
});

function AdminRoute() {
  const { user } = Route.useRouteContext();
  return <AdminPage selfId={user.id} />;
}
