import { createFileRoute, redirect } from "@tanstack/react-router";
import { AuthPage } from "@web/features/auth/components/auth-page";
import { authSearchSchema } from "@web/features/auth/auth-search";

export const Route = createFileRoute("/auth")({
  validateSearch: authSearchSchema,
  // Signed in on /auth: on to the dashboard (spec 2 §2), also right after signing in here.
  beforeLoad: async ({ context }) => {
    if (await context.auth.whenSettled()) throw redirect({ to: "/dashboard", replace: true });
  },
  pendingMs: 0,
  component: function AuthRoute() {
    return <AuthPage search={Route.useSearch()} />;
  },
});
