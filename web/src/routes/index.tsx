// `/`: the dashboard when signed in, otherwise the sign-in screen.
import { createFileRoute, Navigate } from "@tanstack/react-router";
import { PageSpinner } from "@web/components/ui/spinner";
import { useAuth } from "@web/features/auth/auth-provider";

export const Route = createFileRoute("/")({ component: Home });

function Home() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <PageSpinner />;
  return <Navigate to={user ? "/dashboard" : "/auth"} replace />;
}
