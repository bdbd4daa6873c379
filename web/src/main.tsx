import "@fontsource-variable/inter";
import "./styles.css";
import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { AuthProvider } from "@web/lib/auth/auth-provider";
import { createQueryClient } from "@web/lib/query-client";
import { AppRouter, createAppRouter } from "./router";

// Toasts are only ever shown after something happens: their UI loads after the first page.
const Toaster = lazy(() => import("@web/components/ui/toaster").then((m) => ({ default: m.Toaster })));

const queryClient = createQueryClient();
const router = createAppRouter();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <AppRouter router={router} />
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      </AuthProvider>
    </QueryClientProvider>
  </StrictMode>,
);
