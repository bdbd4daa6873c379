import "@web/boot/zod-jitless";
// The profile and, on /dashboard, the sections' figures leave here, before the rest of the entry is
// evaluated, and the query client takes their answers (decision 062).
import { queryClient } from "./start";
import "../styles.css";
import { QueryClientProvider } from "@tanstack/react-query";
import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { AppRenderError, ErrorBoundary } from "@web/components/layout/render-error";
import { getAuthClient } from "@web/lib/auth-client";
import { appContainer } from "@web/boot/first-screen-handover";
import { AuthProvider, mayHaveSession } from "@web/lib/auth/auth-provider";
import { AppRouter, createAppRouter } from "./router";

const router = createAppRouter();

// A first page does not wait for one thing after another (decision 027): the profile (for a stored
// session) and, on /dashboard, its sections' figures were asked for by start.ts; the current
// route's chunks are asked for now, while the session is being restored.
// Restoring a session (the configuration and the identity library's chunk) starts here too, on the
// provider's own test, not when it mounts after the first render: every private page waits for it.
// The provider asks for the same client and gets this one.
if (mayHaveSession()) getAuthClient().catch(() => {});
const pageCode = Promise.all(router.getMatchedRoutes(window.location.pathname)[0].map((route) => router.loadRouteChunk(route)?.catch(() => {})));

// The first render is a transition: React renders it in slices, yielding to the browser between
// them, instead of one long task (decision 030). A first screen the HTML painted stays until the
// app has something to show (decision 033), so the app renders once the page's code is in (it is
// preloaded with the entry, decision 032): before, the router shows a spinner for the moment the
// chunks take, which would take the first screen's place.
void pageCode.then(() => {
  const root = createRoot(appContainer(document.getElementById("root")!));
  startTransition(() =>
    root.render(
      <StrictMode>
        {/* The last resort for a render error outside the router's own (the router's error component
            keeps the layout); the toasts render inside the router (the root route). */}
        <ErrorBoundary fallback={(error, reset) => <AppRenderError error={error} reset={reset} />}>
          <QueryClientProvider client={queryClient}>
            <AuthProvider>
              <AppRouter router={router} />
            </AuthProvider>
          </QueryClientProvider>
        </ErrorBoundary>
      </StrictMode>,
    ),
  );
});
