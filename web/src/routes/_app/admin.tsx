// Admin only (spec 2 §6): anyone else goes to / with an 'Access Denied' toast.
import { createFileRoute, redirect } from "@tanstack/react-router";
import { ACCESS_TEXT } from "@shared/messages";
import { PlaceholderPage } from "@web/components/layout/placeholder-page";
import { toast } from "@web/components/ui/toast-store";

export const Route = createFileRoute("/_app/admin")({
  beforeLoad: ({ context, preload }) => {
    if (context.user.is_admin) return;
    // A preload is no visit: only a real one is told why it went nowhere.
    if (!preload) toast({ variant: "destructive", title: ACCESS_TEXT.accessDenied, description: ACCESS_TEXT.adminDenied });
    throw redirect({ to: "/", replace: true });
  },
  component: () => <PlaceholderPage title="Admin Dashboard" feature="the admin dashboard" />,
});
