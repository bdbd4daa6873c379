import "@fontsource-variable/inter";
import "./styles.css";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { lazy, StrictMode, Suspense, useEffect, useRef } from "react";
import { createRoot } from "react-dom/client";
import { AuthProvider, useAuth } from "@web/lib/auth/auth-provider";
import { createQueryClient } from "@web/lib/query-client";
import { createAppRouter } from "./router";

// Toasts are only ever shown after something happens: their UI loads after the first page.
const Toaster = lazy(() => import("@web/components/ui/toaster").then((m) => ({ default: m.Toaster })));

const queryClient = createQueryClient();
const router = createAppRouter();

/** The router with the current auth in its context. */
function AuthenticatedRouter() {
  const auth = useAuth();
  const first = useRef(true);
  // Guards run in beforeLoad, i.e. on navigation only: a sign-in, sign-out or a changed profile must
  // run them again, so /auth moves on to the dashboard and a private page moves to /auth.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void router.invalidate();
  }, [auth.user, auth.isLoading]);
  return <RouterProvider router={router} context={{ auth }} />;
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <AuthenticatedRouter />
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      </AuthProvider>
    </QueryClientProvider>
  </StrictMode>,
);
