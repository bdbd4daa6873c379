import { createFileRoute } from "@tanstack/react-router";
import { ResetPasswordPage } from "@web/features/auth/components/reset-password-page";

// Public: the visitor arrives signed in by the recovery link (or with an unusable one); no guard.
export const Route = createFileRoute("/reset-password")({
  component: ResetPasswordPage,
});
