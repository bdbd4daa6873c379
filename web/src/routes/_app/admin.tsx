import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "@web/components/layout/placeholder-page";
import { RequireAdmin } from "@web/components/layout/require-admin";

export const Route = createFileRoute("/_app/admin")({
  component: () => (
    <RequireAdmin>
      <PlaceholderPage title="Admin Dashboard" feature="the admin dashboard" />
    </RequireAdmin>
  ),
});
