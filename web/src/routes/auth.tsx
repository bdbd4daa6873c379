import { createFileRoute } from "@tanstack/react-router";
import { AuthPage } from "@web/features/auth/components/auth-page";
import { authSearchSchema } from "@web/features/auth/auth-search";

export const Route = createFileRoute("/auth")({
  validateSearch: authSearchSchema,
  component: function AuthRoute() {
    return <AuthPage search={Route.useSearch()} />;
  },
});
