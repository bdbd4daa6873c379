import { createFileRoute, redirect } from "@tanstack/react-router";
import { PageSpinner } from "@web/components/ui/spinner";
import { AuthPage } from "@web/features/auth/components/auth-page";
import { AuthShell } from "@web/features/auth/components/auth-shell";
import { PlanPanel } from "@web/features/auth/components/plan-panel";
import { authSearchSchema } from "@web/features/auth/auth-search";

export const Route = createFileRoute("/auth")({
  validateSearch: authSearchSchema,
  // Signed in on /auth: on to the dashboard (docs/product/screens-and-routes.md#route-table), also right after signing in here.
  beforeLoad: async ({ context }) => {
    if (await context.auth.whenSettled()) throw redirect({ to: "/dashboard", replace: true });
  },
  pendingMs: 0,
  // The pending screen (below) gives way as soon as the guard passes, not after the router's
  // default 500 ms: for a bare /auth it is the panel the HTML painted, so the wait only delayed the
  // form (decision 035).
  pendingMinMs: 0,
  // The pending screen comes with the page's own code, not in the entry every page loads.
  codeSplitGroupings: [["component", "pendingComponent"]],
  // A bare /auth was painted from the HTML (decision 033): the same panel stays while the session
  // is checked, instead of a spinner between two identical screens.
  pendingComponent: function AuthPending() {
    const bare = Object.values(Route.useSearch()).every((value) => value === undefined);
    return bare ? (
      <AuthShell>
        <PlanPanel />
      </AuthShell>
    ) : (
      <PageSpinner />
    );
  },
  component: function AuthRoute() {
    return <AuthPage search={Route.useSearch()} />;
  },
});
