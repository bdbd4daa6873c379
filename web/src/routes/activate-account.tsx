import { createFileRoute } from "@tanstack/react-router";
import { PlaceholderPage } from "@web/components/layout/placeholder-page";
import { PublicLayout } from "@web/components/layout/public-layout";

export const Route = createFileRoute("/activate-account")({
  component: () => (
    <PublicLayout>
      <PlaceholderPage title="Activate your account" feature="account activation" />
    </PublicLayout>
  ),
});
